import { TRPCClientError } from '@trpc/client'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import type { Email } from 'postal-mime'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addDays, newJerseyToday } from '../../domain/calendar-days.ts'
import { callToConfirm } from '../../domain/rental-request.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { addStaff, signedInClient, type staffClient } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import type { AppRouter } from '../trpc/router.ts'

/**
 * Rental requests end to end (issue #33): a request is a lead (interest rentals, with its dates),
 * priced and checked on the server; the calendar confirms, declines and changes it; a confirmation
 * is refused when the fleet is full; the public quote reads the same reservations.
 */
const visitor = { firstName: 'Rosa', lastName: 'Delgado', email: 'rosa@example.com', phone: '(609) 555-0188' }
const inDays = (n: number) => addDays(newJerseyToday(), n)

const errorOf = async (promise: Promise<unknown>) => (await promise.catch((e: unknown) => e)) as TRPCClientError<AppRouter>
const to = (email: Email) => email.to?.map((a) => a.address).join(',')

describe.each(backends)('rental requests on %s', (backend) => {
  let smtp: SmtpSink
  let server: TestServer
  let staff: ReturnType<typeof staffClient>
  const submit = (body: object) =>
    fetch(`${server.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const request = async (rental: object, extra: object = {}) => {
    const res = await submit({ ...visitor, ...extra, rental })
    expect(res.status).toBe(201)
    return ((await res.json()) as { id: number }).id
  }
  const quote = async (input: object) => {
    const res = await fetch(`${server.url}/trpc/rental.quote?input=${encodeURIComponent(JSON.stringify(input))}`)
    return ((await res.json()) as { result: { data: Record<string, unknown> } }).result.data
  }

  beforeAll(async () => {
    smtp = await startSmtpSink()
    server = await startTestServer(backend, {
      SMTP_URL: smtp.url,
      LEADS_TO: 'leads@dealer.example',
      LEADS_FROM: 'website@dealer.example',
      ADF_TO: 'crm@dealer.example',
      CONFIRM_TO_VISITOR: 'true',
      OUTBOX_POLL_MS: '100',
      OUTBOX_RETRY_BASE_MS: '100',
      SITE_URL: 'https://carts.example',
      LOG_LEVEL: 'silent',
    })
    await addStaff(server)
    ;({ client: staff } = await signedInClient(server))
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
  })
  beforeEach(() => {
    smtp.messages.length = 0
  })

  it('stores a delivered rental as a rentals lead with its dates, price and fee, and sends the dealer, the CRM and the visitor its dates', async () => {
    const start = inDays(10)
    const id = await request(
      { cartType: '6-seater', plan: 'weekly', startDate: start, pickup: 'delivery', street: '12 Beach Ave', town: 'Cape May', zip: '08204' },
      { message: 'Family reunion', sourceLabel: 'rentals-landing' },
    )
    const lead = await staff.staff.lead.get.query({ id })
    expect(lead).toMatchObject({ interest: 'rentals' })
    const stored = await server.runtime.services.inquiries.byId(id)
    expect(stored?.rental).toEqual({
      cartType: '6-seater',
      plan: 'weekly',
      startDate: start,
      endDate: addDays(start, 7),
      pickup: 'delivery',
      // Cape May's ZIP centre is 18 miles from the nearest showroom (Ocean View): $6 for each mile past 10.
      showroom: 'ocean-view',
      street: '12 Beach Ave',
      town: 'Cape May',
      zip: '08204',
      deliveryMiles: 18,
      deliveryFee: 48,
      price: 1400,
      status: 'requested',
    })

    const messages = await smtp.waitFor(3)
    const dealer = messages.find((m) => to(m) === 'leads@dealer.example')!
    expect(dealer.subject).toContain('Rentals')
    expect(dealer.text).toContain('6 Seater, Weekly plan (7 days), $1,400')
    expect(dealer.text).toMatch(/Dates:\s+\w{3}, \w{3} \d+, \d{4} to \w{3}, \w{3} \d+, \d{4}/)
    expect(dealer.text).toContain('Deliver to 12 Beach Ave, Cape May, 08204 (18 miles from Ocean View; estimated fee $48)')
    expect(dealer.text).toContain(`https://carts.example/staff/rentals?from=${start}`)

    const adf = messages.find((m) => to(m) === 'crm@dealer.example')!.text!
    expect(XMLValidator.validate(adf)).toBe(true)
    const customer = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(adf).adf.prospect.customer
    expect(customer.timeframe).toMatchObject({ earliestdate: start, latestdate: addDays(start, 7), description: 'Rental: 6 Seater, Weekly plan' })
    expect(customer.contact.address).toMatchObject({ '@_type': 'delivery', city: 'Cape May', postalcode: '08204', regioncode: 'NJ' })
    expect(customer.comments).toContain('Rental: 6 Seater, Weekly plan')

    const confirmation = messages.find((m) => to(m) === 'rosa@example.com')!
    expect(confirmation.subject).toContain('rental request')
    expect(confirmation.text).toContain(callToConfirm)
  })

  it('refuses a delivery outside New Jersey with a sentence beside the ZIP code, and stores nothing', async () => {
    const before = await server.db.sql`select count(*)::int as n from contact_inquiries`
    const res = await submit({ ...visitor, rental: { cartType: '4-seater', plan: 'daily', startDate: inDays(3), pickup: 'delivery', street: '1 Main St', town: 'New York', zip: '10001' } })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { issues: { path: string; message: string }[] }
    expect(body.issues).toEqual([{ path: 'rental.zip', message: expect.stringContaining('only within New Jersey, and 10001 is in New York') as string }])
    const after = await server.db.sql`select count(*)::int as n from contact_inquiries`
    expect(after[0]!.n).toBe(before[0]!.n)
  })

  it('refuses a start date in the past, and a pickup without a showroom', async () => {
    const res = await submit({ ...visitor, rental: { cartType: '4-seater', plan: 'daily', startDate: inDays(-1), pickup: 'showroom' } })
    expect(res.status).toBe(400)
    const { issues } = (await res.json()) as { issues: { path: string }[] }
    expect(issues.map((i) => i.path)).toEqual(['rental.startDate', 'rental.showroom'])
  })

  it('refuses every date outside its bounds with 400 and a sentence: the quote, the request, the calendar and a change', async () => {
    const quoteAnswer = async (startDate: string, cookie?: string) => {
      const input = encodeURIComponent(JSON.stringify({ cartType: '4-seater', plan: 'daily', startDate }))
      const res = await fetch(`${server.url}/trpc/rental.quote?input=${input}`, { headers: cookie ? { cookie } : {} })
      return { status: res.status, body: (await res.json()) as { error: { message: string } } }
    }
    const { cookie } = await signedInClient(server)
    for (const [startDate, sentence] of [
      ['9999-12-31', 'Requests can start up to 365 days ahead; call us for later dates'],
      ['0001-01-01', 'The start date cannot be in the past'],
      [inDays(366), 'Requests can start up to 365 days ahead; call us for later dates'],
      [inDays(-1), 'The start date cannot be in the past'],
    ] as const) {
      // Signed out and signed in alike.
      for (const answer of [await quoteAnswer(startDate), await quoteAnswer(startDate, cookie)]) {
        expect([startDate, answer.status, answer.body.error.message]).toEqual([startDate, 400, expect.stringContaining(sentence)])
      }
      const res = await submit({ ...visitor, rental: { cartType: '4-seater', plan: 'daily', startDate, pickup: 'showroom', showroom: 'bayville' } })
      expect(res.status).toBe(400)
      expect(((await res.json()) as { issues: unknown }).issues).toEqual([{ path: 'rental.startDate', message: sentence }])
    }
    expect(await quote({ cartType: '4-seater', plan: 'daily', startDate: inDays(365) })).toMatchObject({ startDate: inDays(365), availability: { free: true } })

    const window = `Choose a date within two years of today (${inDays(-730)} to ${inDays(730)})`
    for (const from of ['9999-12-31', '0001-01-01', inDays(731), inDays(-731)]) {
      const refused = await errorOf(staff.staff.rental.calendar.query({ from }))
      expect([from, refused.data?.httpStatus, refused.message]).toEqual([from, 400, expect.stringContaining(window)])
    }
    expect((await staff.staff.rental.calendar.query({ from: inDays(730), days: 62 })).from).toBe(inDays(730))
    const id = await request({ cartType: '4-seater', plan: 'daily', startDate: inDays(30), pickup: 'showroom', showroom: 'bayville' })
    const moved = await errorOf(staff.staff.rental.change.mutate({ id, cartType: '4-seater', plan: 'daily', startDate: '9999-12-31' }))
    expect([moved.data?.httpStatus, moved.message]).toEqual([400, expect.stringContaining(window)])
    expect(server.logs.filter((line) => line.level === 'error')).toEqual([])
  })

  it('answers the lead when staff confirm its request: Contacted if it was New, with its first response', async () => {
    const id = await request({ cartType: '4-seater', plan: 'daily', startDate: inDays(50), pickup: 'showroom', showroom: 'bayville' })
    expect(await staff.staff.lead.get.query({ id })).toMatchObject({ status: 'new', firstResponseAt: null })
    await staff.staff.rental.confirm.mutate({ id })
    const lead = await staff.staff.lead.get.query({ id })
    expect(lead).toMatchObject({ status: 'contacted', firstResponseAt: expect.any(String) as string })
    const [row] = await server.db.sql<{ by: string }[]>`select u.username as by from contact_inquiries i join users u on u.id = i.first_response_by where i.id = ${id}`
    expect(row?.by).toBe('maria')
    // Nothing left to escalate: the lead is no longer New.
    const [{ n }] = await server.db.sql<[{ n: number }]>`select count(*)::int as n from contact_inquiries where id = ${id} and status = 'new'`
    expect(n).toBe(0)

    // A lead already further along keeps its status and its first response (a call, issue #50).
    const quoted = await request({ cartType: '4-seater', plan: 'daily', startDate: inDays(51), pickup: 'showroom', showroom: 'bayville' })
    await staff.staff.lead.logCall.mutate({ id: quoted, outcome: 'reached' })
    const before = await staff.staff.lead.setStatus.mutate({ id: quoted, status: 'quoted' })
    expect(before.firstResponseAt).not.toBeNull()
    await staff.staff.rental.confirm.mutate({ id: quoted })
    expect(await staff.staff.lead.get.query({ id: quoted })).toMatchObject({ status: 'quoted', firstResponseAt: before.firstResponseAt })
  })

  it('quotes the price, the end date, the delivery estimate and availability from the same reservations staff confirm', async () => {
    const start = inDays(40)
    expect(await quote({ cartType: 'utility', plan: 'monthly' })).toEqual({ cartType: 'utility', plan: 'monthly', price: 2800 })
    expect(await quote({ cartType: 'utility', plan: '3-day', startDate: start, zip: '08721' })).toMatchObject({
      price: 685,
      startDate: start,
      endDate: addDays(start, 3),
      delivery: { showroom: 'Bayville', miles: expect.any(Number) as number, fee: 0 },
      availability: { free: true },
    })
    expect(await quote({ cartType: 'utility', plan: 'daily', zip: '19103' })).toMatchObject({ delivery: { refused: expect.stringContaining('Pennsylvania') as string } })

    // The fleet has two utility carts: two confirmed reservations over the third day fill it.
    const a = await request({ cartType: 'utility', plan: 'weekly', startDate: start, pickup: 'showroom', showroom: 'bayville' })
    const b = await request({ cartType: 'utility', plan: '3-day', startDate: addDays(start, 2), pickup: 'showroom', showroom: 'waretown' })
    // Requests alone hold nothing.
    expect(await quote({ cartType: 'utility', plan: 'daily', startDate: addDays(start, 2) })).toMatchObject({ availability: { free: true } })
    await staff.staff.rental.confirm.mutate({ id: a })
    await staff.staff.rental.confirm.mutate({ id: b })
    expect(await quote({ cartType: 'utility', plan: '3-day', startDate: addDays(start, 1) })).toMatchObject({
      availability: { free: false, firstFullDay: addDays(start, 2) },
    })
    // The days before and after are still free; so are other types that day.
    expect(await quote({ cartType: 'utility', plan: 'daily', startDate: addDays(start, 1) })).toMatchObject({ availability: { free: true } })
    expect(await quote({ cartType: 'utility', plan: 'daily', startDate: addDays(start, 5) })).toMatchObject({ availability: { free: true } })
    expect(await quote({ cartType: '6-seater', plan: 'daily', startDate: addDays(start, 2) })).toMatchObject({ availability: { free: true } })

    // A third confirmation over those days is refused, with the full day named; nothing changes.
    const c = await request({ cartType: 'utility', plan: 'daily', startDate: addDays(start, 3), pickup: 'showroom', showroom: 'bayville' })
    const refused = await errorOf(staff.staff.rental.confirm.mutate({ id: c }))
    expect(refused.data?.httpStatus).toBe(409)
    expect(refused.message).toMatch(/^Not confirmed: all 2 Utility carts are already reserved on /)
    expect((await server.runtime.services.inquiries.byId(c))?.rental?.status).toBe('requested')

    // Declining one gives its cart back; then the third fits.
    await staff.staff.rental.decline.mutate({ id: b })
    await staff.staff.rental.confirm.mutate({ id: c })
    const calendar = await staff.staff.rental.calendar.query({ from: start, days: 7 })
    expect(calendar.fleet.utility).toBe(2)
    expect(calendar.days.utility.map((d) => d.confirmed)).toEqual([1, 1, 1, 2, 1, 1, 1])
    expect(calendar.requests.map((r) => [r.inquiryId, r.status])).toEqual([
      [a, 'confirmed'],
      [c, 'confirmed'],
    ])
  })

  it('changes a request to new dates, and keeps a confirmed one only where the fleet has room', async () => {
    const start = inDays(80)
    await staff.staff.rental.setFleet.mutate({ cartType: '4-seater', carts: 1 })
    const first = await request({ cartType: '4-seater', plan: 'daily', startDate: start, pickup: 'showroom', showroom: 'ocean-view' })
    const second = await request({ cartType: '4-seater', plan: 'daily', startDate: addDays(start, 5), pickup: 'showroom', showroom: 'ocean-view' })
    await staff.staff.rental.confirm.mutate({ id: first })
    await staff.staff.rental.confirm.mutate({ id: second })

    const clash = await errorOf(staff.staff.rental.change.mutate({ id: second, cartType: '4-seater', plan: '3-day', startDate: addDays(start, -1) }))
    expect(clash.data?.httpStatus).toBe(409)
    expect((await server.runtime.services.inquiries.byId(second))?.rental).toMatchObject({ plan: 'daily', startDate: addDays(start, 5) })

    const moved = await staff.staff.rental.change.mutate({ id: second, cartType: '4-seater', plan: 'weekly', startDate: addDays(start, 1) })
    expect(moved).toMatchObject({ plan: 'weekly', startDate: addDays(start, 1), endDate: addDays(start, 8), price: 1050, status: 'confirmed' })

    // The fleet cannot shrink below what is confirmed; it can grow.
    const shrink = await errorOf(staff.staff.rental.setFleet.mutate({ cartType: '4-seater', carts: 0 }))
    expect(shrink.data?.httpStatus).toBe(409)
    expect(shrink.message).toContain('1 4 Seater reservations are confirmed on')
    expect(await staff.staff.rental.setFleet.mutate({ cartType: '4-seater', carts: 6 })).toMatchObject({ '4-seater': 6 })
  })

  it('never double-books: of many confirmations at once for the last carts, only as many as fit succeed', async () => {
    const start = inDays(120)
    await staff.staff.rental.setFleet.mutate({ cartType: '6-seater', carts: 3 })
    const ids = await Promise.all(
      Array.from({ length: 8 }, (_, i) => request({ cartType: '6-seater', plan: '3-day', startDate: addDays(start, i % 2), pickup: 'showroom', showroom: 'bayville' })),
    )
    // Eight staff sessions, each confirming a different request at the same moment.
    const clients = await Promise.all(ids.map(async () => (await signedInClient(server)).client))
    const outcomes = await Promise.allSettled(ids.map((id, i) => clients[i]!.staff.rental.confirm.mutate({ id })))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3)
    for (const refused of outcomes.filter((o) => o.status === 'rejected')) {
      expect((refused.reason as TRPCClientError<AppRouter>).data?.httpStatus).toBe(409)
    }
    const calendar = await staff.staff.rental.calendar.query({ from: start, days: 4 })
    expect(Math.max(...calendar.days['6-seater'].map((d) => d.confirmed))).toBe(3)
  })
})
