import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newJerseyDay, slotTakenMessage, slotWhen } from '../../domain/appointments.ts'
import { parsePage } from '../../tests/support/html.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Booking without JavaScript (issue #51; docs/decisions/0046): the vehicle page's "Book a test
 * drive" and the service form's drop-off time as a browser with no script uses them. The day is a
 * GET of the page, its free times radios, the booking a post to the page through the same
 * `appointment.book`; a time just taken (capacity 1 here) and a bad field come back with
 * everything typed; the service form with a time is one lead carrying the request and the booking.
 */
describe.each(backends)('booking without JavaScript on %s', (backend) => {
  let server: TestServer
  let cart: { id: number; slug: string; title: string; location: string }

  beforeAll(async () => {
    server = await startTestServer(backend, { LOG_LEVEL: 'silent', APPOINTMENT_CAPACITY: '1' }, { site: true })
    const [first] = await server.db.sql<{ id: number; slug: string; title: string; location: string }[]>`
      select id, slug, title, location from golf_carts where status = 'available' order by id limit 1
    `
    cart = first!
  }, 120_000)
  afterAll(() => server?.close())

  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`)
    return { ...parsePage(res.status, await res.text()), cacheControl: res.headers.get('cache-control') }
  }
  const post = (path: string, body: [string, string][]) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams(body),
    })
  const radios = (page: { document: Document }) => [...page.document.querySelectorAll<HTMLInputElement>('input[type="radio"][name="startsAt"]')].map((r) => r.value).filter(Boolean)

  it('the vehicle page: a link opens the form, a day is a GET, its times radios, and a booking is made', async () => {
    const vehicle = `/vehicle/${cart.slug}`
    const plain = await get(vehicle)
    expect(plain.document.querySelector(`#test-drive a[href="${vehicle}?day=#test-drive"]`)?.textContent).toBe('Book a test drive')

    const open = await get(`${vehicle}?day=`)
    expect(open.status).toBe(200)
    // Free times change by the minute: never a kept page.
    expect(open.cacheControl).toBe('no-store')
    const dayForm = open.document.querySelector('#test-drive form[method="get"]')!
    expect(dayForm.getAttribute('action')).toBe(`${vehicle}#test-drive`)
    const daySelect = open.document.querySelector<HTMLSelectElement>('#test-drive select[name="day"]')!
    expect(daySelect.getAttribute('form')).toBe(dayForm.id)
    const days = [...daySelect.querySelectorAll('option')].map((o) => o.getAttribute('value')!)
    expect(days.length).toBeGreaterThan(5)
    // The first free day's times, then another day's by its GET.
    expect(radios(open).every((t) => newJerseyDay(Date.parse(t)) === days[0])).toBe(true)
    const second = await get(`${vehicle}?day=${days[1]}`)
    const times = radios(second)
    expect(times.length).toBeGreaterThan(3)
    expect(times.every((t) => newJerseyDay(Date.parse(t)) === days[1])).toBe(true)
    expect(second.text('#test-drive legend')).toBe(`Time on ${slotWhen(times[0]!).split(' at ')[0]} *`)
    const form = second.document.querySelector('#test-drive form[method="post"]')!
    expect(form.getAttribute('action')).toBe(`${vehicle}#test-drive`)
    const hidden = Object.fromEntries([...form.querySelectorAll<HTMLInputElement>('input[type="hidden"]')].map((i) => [i.name, i.value]))
    expect(hidden).toEqual({ form: 'book', showroom: cart.location, cartId: String(cart.id) })

    const startsAt = times[2]!
    const booking = (email: string, at = startsAt): [string, string][] => [
      ...Object.entries(hidden),
      ['startsAt', at],
      ['firstName', 'Nora'],
      ['lastName', 'Noscript'],
      ['email', email],
      ['phone', '(609) 555-0190'],
      ['message', 'After lunch please'],
    ]
    const made = await post(vehicle, booking('nora@example.com'))
    expect(made.status).toBe(303)
    const location = made.headers.get('location')!
    expect(location).toMatch(new RegExp(`^${vehicle}\\?booked=.+&ends=.+#test-drive$`))
    const thanks = await get(location)
    expect(thanks.text('#test-drive [role="status"]')).toContain(slotWhen(startsAt))
    expect(thanks.text('#test-drive [role="status"]')).toContain('is on its way to your email')
    const [stored] = await server.db.sql<{ interest: string; cartTitle: string; sourceLabel: string; startsAt: Date }[]>`
      select i.interest, i.cart_title, i.source_label, a.starts_at from appointments a join contact_inquiries i on i.id = a.inquiry_id
      where i.email = 'nora@example.com'
    `
    expect(stored).toEqual({ interest: 'test-drive', cartTitle: cart.title, sourceLabel: 'vehicle-page', startsAt: new Date(startsAt) })

    // The same time again (capacity 1): 409, the page again on that day, everything kept, why beside the times.
    const taken = await post(vehicle, booking('otto@example.com'))
    expect(taken.status).toBe(409)
    const again = parsePage(taken.status, await taken.text())
    expect(again.document.querySelector<HTMLInputElement>('#test-drive input[name="firstName"]')?.getAttribute('value')).toBe('Nora')
    expect(again.document.querySelector<HTMLInputElement>('#test-drive input[name="email"]')?.getAttribute('value')).toBe('otto@example.com')
    expect(again.text('#test-drive textarea[name="message"]')).toBe('After lunch please')
    expect(again.text('#test-drive fieldset.gc-slots__times .gc-field__error')).toContain(slotTakenMessage)
    // The taken time is no longer offered; the day's others are.
    expect(radios(again)).not.toContain(startsAt)
    expect(radios(again)).toContain(times[3])

    // A bad field: 400, the sentence beside it.
    const bad = await post(vehicle, booking('not an address', times[3]))
    expect(bad.status).toBe(400)
    const badPage = parsePage(bad.status, await bad.text())
    const email = badPage.document.querySelector('#test-drive input[name="email"]')!
    expect(email.getAttribute('aria-invalid')).toBe('true')
    expect(badPage.text(`#${email.getAttribute('aria-describedby')}`)).toMatch(/email/i)
    expect(badPage.document.querySelector<HTMLInputElement>(`#test-drive input[name="startsAt"][value="${times[3]}"]`)?.hasAttribute('checked')).toBe(true)
  })

  it('the service form with a drop-off time: one post, one lead carrying the request and the booking', async () => {
    const plain = await get('/services/request')
    // The page has no script at all again: the drop-off is part of the request's own form.
    expect(plain.document.querySelector('[data-island]')).toBeNull()
    expect(plain.document.querySelector('select[name="showroom"]')?.getAttribute('form')).toBe('drop-off-day')
    expect(radios(plain)).toEqual([])

    const first = await get('/services/request?showroom=bayville')
    expect(first.cacheControl).toBe('no-store')
    // The first free day can be today with its last few times left (the afternoon, when a run
    // began at 14:16 in New Jersey): the next day's times, by its GET, as on the vehicle page.
    const days = [...first.document.querySelectorAll('select[name="day"] option')].map((o) => o.getAttribute('value')!).filter(Boolean)
    expect(radios(first).every((t) => newJerseyDay(Date.parse(t)) === days[0])).toBe(true)
    const open = await get(`/services/request?showroom=bayville&day=${days[1]}`)
    const times = radios(open)
    expect(times.length).toBeGreaterThan(3)
    expect(times.every((t) => newJerseyDay(Date.parse(t)) === days[1])).toBe(true)
    const form = open.document.querySelector('form[method="post"]')!
    expect(form.querySelector<HTMLInputElement>('input[type="hidden"][name="showroom"]')?.value).toBe('bayville')

    const request = (email: string, at: string): [string, string][] => [
      ['showroom', 'bayville'],
      ['startsAt', at],
      ['service.make', 'Club Car'],
      ['service.model', 'Onward'],
      ['service.needs', 'battery'],
      ['service.needs', 'brakes'],
      ['firstName', 'Sam'],
      ['lastName', 'Service'],
      ['email', email],
    ]
    const made = await post('/services/request', request('sam@example.com', times[1]!))
    expect(made.status).toBe(303)
    const location = made.headers.get('location')!
    expect(location).toMatch(/^\/services\/request\?showroom=bayville&booked=.+#request$/)
    const thanks = await get(location)
    expect(thanks.text('#request [role="status"]')).toContain(slotWhen(times[1]!))
    const leads = await server.db.sql<{ interest: string; make: string; needs: string[]; kind: string; startsAt: Date }[]>`
      select i.interest, s.make, s.needs, a.kind, a.starts_at from contact_inquiries i
      join service_requests s on s.inquiry_id = i.id join appointments a on a.inquiry_id = i.id
      where i.email = 'sam@example.com'
    `
    expect(leads).toEqual([{ interest: 'service', make: 'Club Car', needs: ['battery', 'brakes'], kind: 'service', startsAt: new Date(times[1]!) }])

    // That time again: 409, the make and the needs kept, why beside the times.
    const taken = await post('/services/request', request('sue@example.com', times[1]!))
    expect(taken.status).toBe(409)
    const again = parsePage(taken.status, await taken.text())
    expect(again.document.querySelector('input[name="service.make"]')?.getAttribute('value')).toBe('Club Car')
    expect(again.document.querySelector('input[name="service.needs"][value="brakes"]')?.hasAttribute('checked')).toBe(true)
    expect(again.text('fieldset.gc-slots__times .gc-field__error')).toContain(slotTakenMessage)
    expect(radios(again)).not.toContain(times[1])

    // No time chosen: the request alone, as before, and no booking.
    const alone = await post('/services/request', request('sid@example.com', ''))
    expect(alone.status).toBe(303)
    expect(alone.headers.get('location')).toBe('/services/request?sent=1#request')
    const [counted] = await server.db.sql<{ count: number }[]>`
      select count(a.id)::int as count from contact_inquiries i left join appointments a on a.inquiry_id = i.id where i.email = 'sid@example.com'
    `
    expect(counted?.count).toBe(0)
  })
})
