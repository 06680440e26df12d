import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, formatDay, newJerseyToday } from '../../domain/calendar-days.ts'
import { callToConfirm } from '../../domain/rental-request.ts'
import { serviceCallToConfirm } from '../../domain/service-request.ts'
import { textConsentDisclosure, textConsentLabel, textConsentWording } from '../../domain/texting.ts'
import { parsePage } from '../../tests/support/html.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * The rental and service request pages (issue #33) as a browser without JavaScript uses them:
 * opened from a plan card with its cart and plan chosen, posted as a plain form, refused with
 * each problem beside its field and nothing typed lost, and stored as leads with their details.
 */
let server: TestServer

beforeAll(async () => {
  server = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
})
afterAll(() => server?.close())

const post = (path: string, body: [string, string][]) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams(body),
  })
const get = async (path: string) => {
  const res = await fetch(`${server.url}${path}`)
  return parsePage(res.status, await res.text())
}
const contact = (email: string): [string, string][] => [
  ['firstName', 'Rita'],
  ['lastName', 'Renter'],
  ['email', email],
  ['phone', '(609) 555-0142'],
]

describe('every plan card leads to the rental request with its cart and plan', () => {
  it('offers "Request these dates" beside RESERVE TODAY on each of the 12 plans, and a county page names its county', async () => {
    const page = await get('/rentals')
    const links = [...page.document.querySelectorAll('.gc-plan a.gc-plan__request')].map((a) => a.getAttribute('href'))
    expect(links).toHaveLength(12)
    expect(links).toContain('/rentals/request?cartType=6-seater&plan=weekly#request')
    const county = await get('/rentals/cape-may-county-golf-cart-rentals')
    expect(county.document.querySelector('.gc-plan a.gc-plan__request')?.getAttribute('href')).toBe(
      '/rentals/request?cartType=4-seater&plan=daily&county=cape-may#request',
    )
  })

  it('opens the form with that cart and plan chosen and their price shown, before any script runs', async () => {
    const page = await get('/rentals/request?cartType=6-seater&plan=weekly')
    expect(page.status).toBe(200)
    expect(page.all('main h1, main h2').slice(0, 2)).toEqual(['Request a Golf Cart Rental', 'Your Dates and Details'])
    const form = page.document.querySelector('form[method="post"]')!
    expect(form.getAttribute('action')).toBe('/rentals/request#request')
    // Chosen as the server wrote it (the option marked selected), whatever a DOM would pick.
    expect(form.querySelector('select[name="rental.cartType"] option[selected]')?.getAttribute('value')).toBe('6-seater')
    expect(form.querySelector('select[name="rental.plan"] option[selected]')?.getAttribute('value')).toBe('weekly')
    expect(page.text('.gc-rental-summary')).toContain('6 Seater, Weekly plan (7 days): $1,400')
    expect(page.text('main')).toContain(callToConfirm)
    // No script can follow the choice of pickup or delivery, so both are there, each saying when.
    expect(form.querySelector('label[for$="rental-showroom"]')?.textContent).toBe('Showroom (for a pickup)')
    expect(form.querySelector('label[for$="rental-zip"]')?.textContent).toBe('ZIP code (for a delivery)')
  })
})

describe('the rental request without JavaScript', () => {
  it('stores a pickup request as a lead with its dates and thanks the visitor, saying we will call to confirm', async () => {
    const start = addDays(newJerseyToday(), 20)
    const res = await post('/rentals/request', [
      ['rental.cartType', 'utility'],
      ['rental.plan', '3-day'],
      ['rental.startDate', start],
      ['rental.pickup', 'showroom'],
      ['rental.showroom', 'bayville'],
      ...contact('rita.pickup@example.com'),
      ['sourceLabel', 'dealer-site'],
    ])
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/rentals/request?sent=1#request')
    const [stored] = await server.db.sql<{ interest: string; cartType: string; plan: string; start: string; end: string; showroom: string; price: number }[]>`
      select i.interest, r.cart_type, r.plan, to_char(r.start_date, 'YYYY-MM-DD') as start, to_char(r.end_date, 'YYYY-MM-DD') as end,
        r.showroom, r.price::float8 as price
      from contact_inquiries i join rental_requests r on r.inquiry_id = i.id where i.email = 'rita.pickup@example.com'
    `
    expect(stored).toEqual({ interest: 'rentals', cartType: 'utility', plan: '3-day', start, end: addDays(start, 3), showroom: 'bayville', price: 685 })
    const thanks = await get('/rentals/request?sent=1')
    expect(thanks.text('[role="status"]')).toContain(callToConfirm)
  })

  it('prices a delivery in New Jersey from the nearest showroom', async () => {
    const res = await post('/rentals/request', [
      ['rental.cartType', '4-seater'],
      ['rental.plan', 'daily'],
      ['rental.startDate', addDays(newJerseyToday(), 2)],
      ['rental.pickup', 'delivery'],
      ['rental.showroom', 'bayville'],
      ['rental.street', '9 Dune Rd'],
      ['rental.town', 'Ocean City'],
      ['rental.zip', '08226'],
      ...contact('rita.delivery@example.com'),
    ])
    expect(res.status).toBe(303)
    const [stored] = await server.db.sql<{ pickup: string; showroom: string; zip: string; miles: number; fee: number }[]>`
      select r.pickup, r.showroom, r.zip, r.delivery_miles as miles, r.delivery_fee::float8 as fee
      from contact_inquiries i join rental_requests r on r.inquiry_id = i.id where i.email = 'rita.delivery@example.com'
    `
    // The showroom a page without a script also sent is not the visitor's choice: the nearest one is.
    expect(stored).toMatchObject({ pickup: 'delivery', showroom: 'pleasantville', zip: '08226', fee: 0 })
  })

  it('refuses a delivery outside New Jersey beside its ZIP code, keeping everything typed', async () => {
    const start = addDays(newJerseyToday(), 5)
    const res = await post('/rentals/request', [
      ['rental.cartType', '4-seater'],
      ['rental.plan', 'weekly'],
      ['rental.startDate', start],
      ['rental.pickup', 'delivery'],
      ['rental.street', '350 Fifth Avenue'],
      ['rental.town', 'New York'],
      ['rental.zip', '10001'],
      ...contact('rita.newyork@example.com'),
    ])
    expect(res.status).toBe(400)
    const page = parsePage(res.status, await res.text())
    const zip = page.document.querySelector('input[name="rental.zip"]')!
    expect(zip.getAttribute('value')).toBe('10001')
    expect(zip.getAttribute('aria-invalid')).toBe('true')
    expect(page.text(`#${zip.getAttribute('aria-describedby')!.split(' ')[0]!}`)).toMatch(/only within New Jersey, and 10001 is in New York/)
    expect(page.document.querySelector('input[name="rental.street"]')?.getAttribute('value')).toBe('350 Fifth Avenue')
    expect(page.document.querySelector('input[name="email"]')?.getAttribute('value')).toBe('rita.newyork@example.com')
    expect(page.text('.gc-rental-summary')).toContain(`due back ${formatDay(addDays(start, 7))}`)
    const [{ n }] = await server.db.sql<[{ n: number }]>`select count(*)::int as n from contact_inquiries where email = 'rita.newyork@example.com'`
    expect(n).toBe(0)
  })
})

describe('the service request without JavaScript', () => {
  it('is where Schedule Service leads, stores the cart and its needs as a service lead, and says we will call', async () => {
    const services = await get('/services')
    const schedule = [...services.document.querySelectorAll('a')].filter((a) => a.textContent.trim().startsWith('Schedule Service'))
    expect(schedule.map((a) => a.getAttribute('href'))).toEqual(['/services/request#request'])
    const res = await post('/services/request', [
      ['service.make', 'Club Car'],
      ['service.model', 'Onward'],
      ['service.year', '2021'],
      ['service.needs', 'battery'],
      ['service.needs', 'brakes'],
      ['service.preferredDays', 'Tuesday'],
      ['service.pickup', 'on'],
      ...contact('sam.service@example.com'),
      ['message', 'Squeaks when braking downhill'],
    ])
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/services/request?sent=1#request')
    const [stored] = await server.db.sql<{ interest: string; make: string; year: number; needs: string[]; preferredDays: string[]; pickup: boolean }[]>`
      select i.interest, s.make, s.year, s.needs, s.preferred_days, s.pickup
      from contact_inquiries i join service_requests s on s.inquiry_id = i.id where i.email = 'sam.service@example.com'
    `
    expect(stored).toEqual({ interest: 'service', make: 'Club Car', year: 2021, needs: ['battery', 'brakes'], preferredDays: ['Tuesday'], pickup: true })
    expect((await get('/services/request?sent=1')).text('[role="status"]')).toContain(serviceCallToConfirm)
  })

  it('names each missing answer beside its field and keeps the boxes that were checked', async () => {
    const res = await post('/services/request', [['service.needs', 'other'], ['service.preferredDays', 'Monday'], ...contact('sam.missing@example.com')])
    expect(res.status).toBe(400)
    const page = parsePage(res.status, await res.text())
    expect(page.document.querySelector('input[name="service.make"]')?.getAttribute('aria-invalid')).toBe('true')
    expect(page.text('#service-service-make-error')).toMatch(/^Make is required/)
    expect(page.text('#service-message-error')).toBe('Tell us what else the cart needs')
    expect(page.document.querySelector<HTMLInputElement>('input[name="service.needs"][value="other"]')?.hasAttribute('checked')).toBe(true)
    expect(page.document.querySelector<HTMLInputElement>('input[name="service.preferredDays"][value="Monday"]')?.hasAttribute('checked')).toBe(true)
    expect(page.document.querySelector('input[name="email"]')?.getAttribute('value')).toBe('sam.missing@example.com')
  })
})

describe('consent to texts on every lead form without JavaScript (issue #50)', () => {
  const consentOf = async (email: string) =>
    server.db.sql<{ given: boolean; wording: string; phoneKey: string }[]>`
      select c.given, c.wording, c.phone_key from text_consents c join contact_inquiries i on i.id = c.inquiry_id where i.email = ${email}
    `
  const start = addDays(newJerseyToday(), 20)
  const forms: [string, string, [string, string][]][] = [
    ['/contact', 'contact', [['message', 'Price of the lifted cart?']]],
    ['/rentals/request', 'rental', [['rental.cartType', '4-seater'], ['rental.plan', 'daily'], ['rental.startDate', start], ['rental.pickup', 'showroom'], ['rental.showroom', 'bayville']]],
    ['/services/request', 'service', [['service.make', 'Club Car'], ['service.needs', 'tires']]],
  ]

  it.each(forms)('%s shows the box unticked with its disclosure, and a ticked box is stored as consent in those words', async (path, name, fields) => {
    const page = await get(path)
    const box = page.document.querySelector<HTMLInputElement>('input[type="checkbox"][name="textConsent"]')!
    expect(box.hasAttribute('checked')).toBe(false)
    expect(page.document.querySelector(`label[for="${box.id}"]`)?.textContent).toBe(textConsentLabel)
    expect(page.text(`#${box.getAttribute('aria-describedby')!.split(' ')[0]!}`)).toBe(textConsentDisclosure)
    const email = `consent-${name}@example.com`
    const res = await post(path, [...fields, ...contact(email), ['textConsent', 'on']])
    expect(res.status).toBe(303)
    expect(await consentOf(email)).toEqual([{ given: true, wording: textConsentWording, phoneKey: '6095550142' }])
    const unticked = `no-consent-${name}@example.com`
    expect((await post(path, [...fields, ...contact(unticked)])).status).toBe(303)
    expect(await consentOf(unticked)).toEqual([])
  })

  it.each(forms)('%s refuses a ticked box without a phone beside the phone field, keeping the box ticked', async (path, name, fields) => {
    const email = `no-phone-${name}@example.com`
    const res = await post(path, [...fields, ...contact(email).filter(([field]) => field !== 'phone'), ['textConsent', 'on']])
    expect(res.status).toBe(400)
    const page = parsePage(res.status, await res.text())
    const phone = page.document.querySelector('input[name="phone"]')!
    expect(phone.getAttribute('aria-invalid')).toBe('true')
    expect(page.text(`#${phone.getAttribute('aria-describedby')!.split(' ')[0]!}`)).toBe(`Enter the phone number to text, or untick “${textConsentLabel}”`)
    expect(page.document.querySelector('input[name="textConsent"]')?.hasAttribute('checked')).toBe(true)
  })
})

it('lists both request pages in the sitemap', async () => {
  const xml = await (await fetch(`${server.url}/sitemap.xml`)).text()
  expect(xml).toContain('/rentals/request</loc>')
  expect(xml).toContain('/services/request</loc>')
})
