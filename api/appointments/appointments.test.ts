import ical from 'node-ical'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { startTwilioStandIn, type TwilioStandIn } from '../../tests/support/twilio-stand-in.ts'
import { backends } from '../../tests/support/test-database.ts'
import { freePort, startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Appointments over HTTP (issue #51; PRODUCT.md "appointments", "confirmations and reminders"):
 * the slots and the booking are the contract partners call, so their status codes are the
 * behaviour; capacity under bookings at once; the emails as a mail client parses them, the `.ics`
 * with a real calendar parser; the signed link's page and posts; the reminder through the upkeep
 * with the time given. The server's clock stands on the coming Tuesday at 10:00 New Jersey time,
 * inside texting hours, so what is free and what is sent does not depend on when the test runs.
 */

/** The coming Tuesday (at least a day away), 10:00 EST. */
function comingTuesday(): Date {
  const at = new Date()
  at.setUTCDate(at.getUTCDate() + ((9 - at.getUTCDay()) % 7 || 7))
  at.setUTCHours(15, 0, 0, 0)
  return at
}
const clockAt = comingTuesday()

interface Slots {
  showroom: string
  kind: string
  minutes: number
  slots: { startsAt: string }[]
}

const shopper = (n: number) => ({ firstName: `Ann${n}`, lastName: 'Driver', email: `ann${n}@example.com`, phone: '(609) 555-0142' })

describe.each(backends)('appointments on %s', (backend) => {
  let smtp: SmtpSink
  let twilio: TwilioStandIn
  let server: TestServer

  beforeAll(async () => {
    ;[smtp, twilio] = await Promise.all([startSmtpSink(), startTwilioStandIn()])
    const port = await freePort()
    server = await startTestServer(
      backend,
      {
        ...twilio.env,
        SITE_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: smtp.url,
        LEADS_TO: 'leads@dealer.example',
        LEADS_FROM: 'website@dealer.example',
        ALLOWED_ORIGINS: 'https://partner.example',
        OUTBOX_POLL_MS: '100',
        OUTBOX_RETRY_BASE_MS: '100',
        LOG_LEVEL: 'silent',
      },
      { port, site: true, clock: () => clockAt },
    )
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await Promise.all([smtp?.stop(), twilio?.stop()])
  })

  const slots = async (query: string) => {
    const response = await fetch(`${server.url}/api/appointments/slots?${query}`)
    return { status: response.status, body: (await response.json()) as Slots & { message?: string; issues?: { path: string }[] } }
  }
  const book = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}/api/appointments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as { id?: number; leadId?: number; startsAt?: string; endsAt?: string; message?: string } }
  }

  it('lists free slots of a showroom and kind, each an ISO 8601 start', async () => {
    const { status, body } = await slots('showroom=bayville&kind=test-drive&days=14')
    expect(status).toBe(200)
    expect(body.minutes).toBe(30)
    expect(body.slots.length).toBeGreaterThan(50)
    const first = Date.parse(body.slots[0]!.startsAt)
    expect(first).toBe(clockAt.getTime() + 3_600_000) // Tuesday 11:00
    expect(body.slots.every((s) => new Date(s.startsAt).toISOString() === s.startsAt)).toBe(true)
  })

  it('refuses an unknown showroom, kind or day with the error shape', async () => {
    const { status, body } = await slots('showroom=paris&kind=rental&from=tomorrow&days=99')
    expect(status).toBe(400)
    expect(body.issues?.map((i) => i.path).sort()).toEqual(['days', 'from', 'kind', 'showroom'])
  })

  it('10 bookings of one slot at once, capacity 2: exactly 2 are booked, 8 answered 409', async () => {
    const { body } = await slots('showroom=waretown&kind=test-drive&days=14')
    const startsAt = body.slots[3]!.startsAt
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) => book({ showroom: 'waretown', kind: 'test-drive', startsAt, ...shopper(n) })),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409, 409, 409, 409, 409, 409, 409, 409])
    expect(answers.find((a) => a.status === 409)?.body.message).toBe('That time was just taken. Please choose another.')
    const [row] = await server.db.sql<{ n: number }[]>`
      select count(*)::int as n from appointments where showroom = 'waretown' and starts_at = ${new Date(startsAt)}
    `
    expect(row?.n).toBe(2)
    // The full slot leaves the list; the other kind and showrooms keep theirs.
    expect((await slots('showroom=waretown&kind=test-drive&days=14')).body.slots.map((s) => s.startsAt)).not.toContain(startsAt)
    expect((await slots('showroom=waretown&kind=service&days=14')).body.slots.map((s) => s.startsAt)).toContain(startsAt)
  })

  it('a booking is a lead routed and alerted like any other, its interest the kind', async () => {
    const { body } = await slots('showroom=bayville&kind=test-drive&days=14')
    const [cart] = await server.db.sql<{ id: number; title: string }[]>`select id, title from golf_carts where status = 'available' order by id limit 1`
    const booked = await book({ showroom: 'bayville', kind: 'test-drive', startsAt: body.slots[0]!.startsAt, cartId: cart!.id, ...shopper(20), message: 'Can I bring my dog?' })
    expect(booked.status).toBe(201)
    expect(booked.body.startsAt).toBe(body.slots[0]!.startsAt)
    expect(Date.parse(booked.body.endsAt!) - Date.parse(booked.body.startsAt!)).toBe(30 * 60_000)
    const [lead] = await server.db.sql<{ interest: string; cartTitle: string; message: string }[]>`
      select interest, cart_title, message from contact_inquiries where id = ${booked.body.leadId!}
    `
    expect(lead).toMatchObject({ interest: 'test-drive', cartTitle: cart!.title })
    expect(lead!.message).toMatch(/^Booked a test drive or showroom visit at Bayville for .+\n\nCan I bring my dog\?$/)
    const queued = await server.db.sql<{ kind: string }[]>`select kind from outbox_messages where inquiry_id = ${booked.body.leadId!} order by kind`
    expect(queued.map((q) => q.kind)).toEqual(expect.arrayContaining(['appointment-confirmation', 'dealer-email']))
    const service = await book({ showroom: 'bayville', kind: 'service', startsAt: body.slots[1]!.startsAt, ...shopper(21) })
    const [serviceLead] = await server.db.sql<{ interest: string }[]>`select interest from contact_inquiries where id = ${service.body.leadId!}`
    expect(serviceLead?.interest).toBe('service')
  })

  it('refuses a time that is not a slot, a partner not allowed, and a missing field', async () => {
    const sunday = new Date(clockAt.getTime() + 5 * 86_400_000)
    const notSlot = await book({ showroom: 'bayville', kind: 'service', startsAt: sunday.toISOString(), ...shopper(30) })
    expect(notSlot.status).toBe(400)
    const { body } = await slots('showroom=bayville&kind=service&days=14')
    const refused = await book({ showroom: 'bayville', kind: 'service', startsAt: body.slots[0]!.startsAt, ...shopper(31) }, { origin: 'https://stranger.example' })
    expect(refused.status).toBe(403)
    const partner = await book({ showroom: 'bayville', kind: 'service', startsAt: body.slots[0]!.startsAt, ...shopper(32) }, { origin: 'https://partner.example' })
    expect(partner.status).toBe(201)
    const missing = await book({ showroom: 'bayville', kind: 'service', startsAt: body.slots[0]!.startsAt, lastName: 'X', email: 'x@example.com' })
    expect(missing.status).toBe(400)
  })

  const emailsTo = (address: string) => smtp.messages.filter((m) => m.to?.some((t) => t.address === address))
  /** The first email to `address` whose subject matches, looked for again at each arrival. */
  const waitForEmail = async (address: string, subject: RegExp) => {
    for (;;) {
      const found = emailsTo(address).find((m) => subject.test(m.subject ?? ''))
      if (found) return found
      await smtp.waitFor(smtp.messages.length + 1, 20_000).catch((error: unknown) => {
        throw new Error(`no email to ${address} matching ${subject}: ${emailsTo(address).map((m) => m.subject).join('; ')}`, { cause: error })
      })
    }
  }
  const invitationOf = (email: Awaited<ReturnType<typeof waitForEmail>>) => {
    const file = email.attachments.find((a) => a.mimeType === 'text/calendar')
    expect(file?.filename).toMatch(/\.ics$/)
    const text = typeof file!.content === 'string' ? file!.content : new TextDecoder().decode(file!.content)
    const parsed = ical.sync.parseICS(text)
    const event = Object.values(parsed).find((c) => c?.type === 'VEVENT')
    if (event?.type !== 'VEVENT') throw new Error('no event in the invitation')
    return { text, event }
  }
  const linkIn = (text: string) => {
    const link = /(http:\/\/\S+\/appointments\/manage\?booking=\d+&sig=[\w-]+)/.exec(text)?.[1]
    expect(link).toBeDefined()
    return new URL(link!)
  }
  const post = (url: URL | string, fields: Record<string, string>) =>
    fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url }, body: new URLSearchParams(fields) })

  it('confirms by email with the time, the place, a maps link, the link and an .ics in New Jersey time', async () => {
    const { body } = await slots('showroom=pleasantville&kind=service&days=14')
    const startsAt = body.slots.find((s) => new Date(s.startsAt).getUTCHours() === 19)!.startsAt // 14:00 EST
    const booked = await book({ showroom: 'pleasantville', kind: 'service', startsAt, ...shopper(40) })
    expect(booked.status).toBe(201)
    const email = await waitForEmail('ann40@example.com', /service drop-off on/)
    expect(email.subject).toMatch(/^your service drop-off on \w+day, \w+ \d+ at 2:00 PM - Jersey Cart Co\.$/)
    expect(email.text).toContain('7000 Black Horse Pike, Pleasantville, NJ 08232')
    expect(email.text).toContain('https://www.google.com/maps/search/?api=1&query=')
    expect(email.text).toContain('(609) 555-0144')
    linkIn(email.text!)
    const { text, event } = invitationOf(email)
    expect(text).toContain('METHOD:REQUEST')
    expect(event.start.toISOString()).toBe(startsAt)
    expect(event.start.tz).toBe('America/New_York')
    expect(event.end!.getTime() - event.start.getTime()).toBe(30 * 60_000)
    expect(event.location).toContain('Pleasantville')
    expect(event.uid).toMatch(/^appointment-\d+@127\.0\.0\.1$/)
  })

  it('moves and cancels by the signed link without an account; a changed link is refused', async () => {
    const { body } = await slots('showroom=ocean-view&kind=test-drive&days=14')
    const [first, second] = [body.slots[5]!.startsAt, body.slots[9]!.startsAt]
    const booked = await book({ showroom: 'ocean-view', kind: 'test-drive', startsAt: first, ...shopper(50) })
    const link = linkIn((await waitForEmail('ann50@example.com', /test drive or showroom visit on/)).text!)
    const page = await fetch(link)
    expect(page.status).toBe(200)
    expect(page.headers.get('x-robots-tag')).toBe('noindex')
    expect(await page.text()).toContain('Move to this time')

    const forged = new URL(link)
    forged.searchParams.set('sig', `${link.searchParams.get('sig')!.slice(0, -1)}${link.searchParams.get('sig')!.endsWith('A') ? 'B' : 'A'}`)
    const otherId = new URL(link)
    otherId.searchParams.set('booking', String(booked.body.id! - 1))
    for (const bad of [forged, otherId]) {
      expect((await fetch(bad)).status).toBe(404)
      expect((await post(bad, { action: 'cancel' })).status).toBe(404)
    }
    const [still] = await server.db.sql<{ status: string }[]>`select status from appointments where id = ${booked.body.id! - 1}`
    expect(still?.status).toBe('booked')

    const moved = await post(link, { action: 'move', startsAt: second })
    expect(moved.status).toBe(303)
    expect(moved.headers.get('location')).toContain('done=moved')
    const [row] = await server.db.sql<{ startsAt: Date; revision: number }[]>`select starts_at, revision from appointments where id = ${booked.body.id!}`
    expect(row).toMatchObject({ startsAt: new Date(second), revision: 2 })
    const again = await waitForEmail('ann50@example.com', /^Moved: /)
    const { event } = invitationOf(again)
    expect(event.start.toISOString()).toBe(second)
    expect(String(event.sequence)).toBe('1')

    const cancelled = await post(link, { action: 'cancel' })
    expect(cancelled.status).toBe(303)
    const [gone] = await server.db.sql<{ status: string }[]>`select status from appointments where id = ${booked.body.id!}`
    expect(gone?.status).toBe('cancelled')
    const told = await waitForEmail('ann50@example.com', /is cancelled/)
    expect(invitationOf(told).text).toContain('METHOD:CANCEL')
    expect((await slots('showroom=ocean-view&kind=test-drive&days=14')).body.slots.map((s) => s.startsAt)).toContain(second)
    // Another site's form cannot cancel anyone's booking.
    const stranger = await fetch(link, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://stranger.example' }, body: 'action=cancel' })
    expect(stranger.status).toBe(403)
  })

  it('reminds 24 hours before, by email and by text with consent, once', async () => {
    const { body } = await slots('showroom=bayville&kind=test-drive&from=' + new Date(clockAt.getTime() + 2 * 86_400_000).toISOString().slice(0, 10) + '&days=1')
    const startsAt = body.slots[2]!.startsAt
    const texted = await book({ showroom: 'bayville', kind: 'test-drive', startsAt, ...shopper(60), phone: '(609) 555-0160', textConsent: true })
    const silent = await book({ showroom: 'bayville', kind: 'test-drive', startsAt, ...shopper(61), phone: '(609) 555-0161' })
    expect([texted.status, silent.status]).toEqual([201, 201])
    const early = await server.runtime.followUps.run(new Date(Date.parse(startsAt) - 25 * 3_600_000))
    expect(early.reminded).not.toContain(texted.body.id)
    const due = new Date(Date.parse(startsAt) - 23 * 3_600_000)
    const [first, second] = await Promise.all([server.runtime.followUps.run(due), server.runtime.followUps.run(due)])
    expect([...first.reminded, ...second.reminded].filter((id) => id === texted.body.id || id === silent.body.id).sort()).toEqual([texted.body.id, silent.body.id].sort())
    expect((await server.runtime.followUps.run(due)).reminded).toEqual([])
    const reminder = await waitForEmail('ann60@example.com', /^Reminder: /)
    expect(reminder.text).toContain('155 Atlantic City Blvd')
    linkIn(reminder.text!)
    await waitForEmail('ann61@example.com', /^Reminder: /)
    await expect.poll(() => twilio.sent.some((t) => t.to === '+16095550160'), { timeout: 10_000 }).toBe(true)
    const texts = twilio.sent.filter((t) => t.to === '+16095550160' || t.to === '+16095550161')
    expect(texts).toHaveLength(1)
    expect(texts[0]!.to).toBe('+16095550160')
    expect(texts[0]!.body).toMatch(/^Jersey Cart Co\.: reminder of your test drive or showroom visit .+ Move or cancel: http/)
    expect(emailsTo('ann60@example.com').filter((m) => /^Reminder: /.test(m.subject ?? ''))).toHaveLength(1)
  })
})
