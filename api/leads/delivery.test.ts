import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import type { Email } from 'postal-mime'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { vinProblem, withCheckDigit } from '../../domain/vin.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { createRuntime } from '../runtime.ts'

const mailEnv = (smtp: SmtpSink) => ({
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

const quote = {
  firstName: 'Marisol',
  lastName: "O'Neill",
  email: 'marisol@example.com',
  phone: '(732) 555-0177',
  interest: 'evolution',
  message: 'Can you deliver to Toms River?\nWeekends are best.',
  sourceUrl: 'https://carts.example/contact?cart=2025-evolution-d6-max-gt4',
  sourceLabel: 'dealer-site',
  cartSlug: '2025-evolution-d6-max-gt4',
}

const to = (email: Email) => email.to?.map((a) => a.address).join(',')
const byRecipient = (messages: Email[], address: string) => messages.filter((m) => to(m) === address)

describe.each(backends)('lead delivery on %s', (backend) => {
  let smtp: SmtpSink
  let server: TestServer
  const submit = (body: object) =>
    fetch(`${server.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

  beforeAll(async () => {
    smtp = await startSmtpSink()
    server = await startTestServer(backend, mailEnv(smtp))
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
  })
  beforeEach(() => {
    smtp.messages.length = 0
  })

  it('emails the dealer a readable summary, with reply-to the visitor', async () => {
    const { id } = await (await submit(quote)).json()
    const [dealer] = byRecipient(await smtp.waitFor(3), 'leads@dealer.example')
    expect(dealer).toBeDefined()
    expect(dealer!.from?.address).toBe('website@dealer.example')
    expect(dealer!.replyTo?.[0]?.address).toBe('marisol@example.com')
    expect(dealer!.subject).toBe("New lead: Marisol O'Neill: Evolution: 2025 Evolution D6 Max GT4")
    const [{ mark }] = await server.db.sql<[{ mark: string }]>`select mark from installation`
    expect(mark).toMatch(/^[0-9a-f]{16}$/)
    expect(dealer!.messageId).toBe(`<lead-${id}-dealer-email.${mark}@carts.example>`)
    const text = dealer!.text!
    for (const expected of [
      "Name:     Marisol O'Neill",
      'Email:    marisol@example.com',
      'Phone:    (732) 555-0177',
      'Interest: Evolution',
      'Cart:     2025 Evolution D6 Max GT4 ($14,995) https://carts.example/vehicle/2025-evolution-d6-max-gt4',
      'Can you deliver to Toms River?',
      'Page:     https://carts.example/contact?cart=2025-evolution-d6-max-gt4',
      'Source:   dealer-site',
    ]) {
      expect(text).toContain(expected)
    }
    expect(text).toMatch(/Received: \w+day, \w+ \d+, \d{4} at \d+:\d{2} [AP]M E[SD]T/)
    expect(dealer!.html).toContain('<th align="left" valign="top">Cart</th>')
  })

  it.each([
    ['ends in a backslash', 'Whitaker\\'],
    ['holds quotes and a backslash', 'O"Brien \\" <evil@attacker.example>'],
    ['holds a comma, angle brackets and accents', 'Pérez, <Jr.>'],
  ])('keeps the visitor as Reply-To when the last name %s', async (_, lastName) => {
    await submit({ ...quote, cartSlug: undefined, lastName, email: 'dana.reply@example.com' })
    const [dealer] = byRecipient(await smtp.waitFor(3), 'leads@dealer.example')
    expect(dealer!.replyTo).toEqual([{ name: `Marisol ${lastName}`, address: 'dana.reply@example.com' }])
  })

  it('sends the CRM an ADF 1.0 document as a plain-text email', async () => {
    const { id } = await (await submit(quote)).json()
    const [crm] = byRecipient(await smtp.waitFor(3), 'crm@dealer.example')
    expect(crm!.html).toBeUndefined()
    const body = crm!.text!.trim()
    expect(body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<?adf version="1.0"?>')).toBe(true)
    expect(XMLValidator.validate(body)).toBe(true)
    expect(body).toContain(`<id sequence="1" source="Jersey Cart Co. website">${id}</id>`)
    expect(body).toContain('<model>D6 Max GT4</model>')
    expect(body).toContain('<name part="last">O&apos;Neill</name>')
  })

  it('names a street-legal cart in the ADF lead by VIN and stock number, with year, make and model', async () => {
    const vin = withCheckDigit('5ZEVD6M40S0000777')
    await server.db.sql`
      update golf_carts set vin = ${vin}, stock_number = 'EV-777', year = 2026, model = 'D6 Max GT4 LSV', street_legal = true
      where slug = '2025-evolution-d6-max-gt4'
    `
    await submit(quote)
    const [crm] = byRecipient(await smtp.waitFor(3), 'crm@dealer.example')
    const { adf } = new XMLParser({ parseTagValue: false }).parse(crm!.text!)
    expect(adf.prospect.vehicle).toMatchObject({ year: '2026', make: 'Evolution', model: 'D6 Max GT4 LSV', vin, stock: 'EV-777' })
    expect(vinProblem(adf.prospect.vehicle.vin)).toBeUndefined()
    // ADF 1.0 orders a vehicle's elements: year, make, model, vin, stock, ..., price.
    const order = ['year', 'make', 'model', 'vin', 'stock', 'price'].map((tag) => crm!.text!.indexOf(`<${tag}`))
    expect(order).toEqual([...order].sort((a, b) => a - b))
    await server.db.sql`update golf_carts set vin = null, year = null, model = null, street_legal = false where slug = '2025-evolution-d6-max-gt4'`
  })

  it('sends the visitor a short confirmation when asked to', async () => {
    await submit(quote)
    const [confirmation] = byRecipient(await smtp.waitFor(3), 'marisol@example.com')
    expect(confirmation!.subject).toBe('We received your message - Jersey Cart Co.')
    expect(confirmation!.text).toContain('within 24 hours')
    expect(confirmation!.text).toContain('(888) 555-0100')
  })

  it('stores the cart a quote names, copying its title and price', async () => {
    const { id } = await (await submit({ ...quote, cartSlug: '2025-evolution-d6-max-gt4' })).json()
    const [row] = await server.db.sql`select cart_slug, cart_title, cart_price::float8 as price from contact_inquiries where id = ${id}`
    expect(row).toEqual({ cartSlug: '2025-evolution-d6-max-gt4', cartTitle: '2025 Evolution D6 Max GT4', price: 14995 })
    await smtp.waitFor(3)
  })

  it('answers 201 while the mail server is down, and delivers each message once it is back', async () => {
    await smtp.stop()
    const res = await submit({ ...quote, cartSlug: undefined, interest: 'rentals' })
    expect(res.status).toBe(201)
    const { id } = await res.json()
    await expect
      .poll(async () => (await server.db.sql`select max(attempts) as n from outbox_messages where inquiry_id = ${id}`)[0]?.n, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2)
    const [failing] = await server.db.sql`select last_error from outbox_messages where inquiry_id = ${id} limit 1`
    expect(failing?.lastError).toMatch(/ECONNREFUSED|connect/i)
    expect(smtp.messages).toHaveLength(0)
    await smtp.start()
    await smtp.waitFor(3)
    // Every message recorded sent, and a look of the worker's begun after that done: nothing more is coming.
    await expect.poll(async () => (await server.db.sql`select 1 from outbox_messages where sent_at is null`).length, { timeout: 10_000 }).toBe(0)
    await server.runtime.worker!.checkNow()
    const [{ mark }] = await server.db.sql<[{ mark: string }]>`select mark from installation`
    const forThisLead = smtp.messages.filter((m) => m.messageId?.startsWith(`<lead-${id}-`))
    expect(forThisLead.map((m) => m.messageId).sort()).toEqual(
      ['crm-adf', 'dealer-email', 'visitor-confirmation'].map((k) => `<lead-${id}-${k}.${mark}@carts.example>`).sort(),
    )
    const pending = await server.db.sql`select 1 from outbox_messages where sent_at is null`
    expect(pending).toHaveLength(0)
  })

  it('never sends a message twice when two workers share the outbox', async () => {
    const quiet = { debug() {}, info() {}, warn() {}, error() {} }
    const second = await createRuntime(server.db, server.env, quiet, { soleWorker: false })
    try {
      const ids: number[] = []
      for (let i = 0; i < 8; i++) ids.push((await (await submit({ ...quote, firstName: `Lead${i}` })).json()).id)
      second.worker?.kick()
      await smtp.waitFor(24)
      // Every message recorded sent, and both workers' looks begun after that done (a send in hand ends with its look).
      await expect.poll(async () => (await server.db.sql`select 1 from outbox_messages where sent_at is null`).length, { timeout: 10_000 }).toBe(0)
      await Promise.all([server.runtime.worker!.checkNow(), second.worker!.checkNow()])
      const seen = smtp.messages.map((m) => m.messageId)
      expect(seen).toHaveLength(24)
      expect(new Set(seen).size).toBe(24)
    } finally {
      await second.stop()
    }
  })
})

describe.each(backends)('MAIL_DIR on %s', (backend) => {
  it('writes each message to MAIL_DIR, in a folder and files only the server user can read (0700, 0600)', async () => {
    // A folder the server makes, under the usual umask (issue #26: 0755 and 0644 with DATABASE_URL set).
    const dir = join(mkdtempSync(join(tmpdir(), 'gc-mail-')), 'mail', 'leads')
    const umask = process.umask(0o022)
    const server = await startTestServer(backend, { MAIL_DIR: dir, LEADS_TO: 'leads@dealer.example', OUTBOX_POLL_MS: '100', LOG_LEVEL: 'silent' })
    try {
      await fetch(`${server.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'Dev', lastName: 'Mode', email: 'dev@example.com' }),
      })
      // A message appears whole: read the moment its name shows, it already holds every header.
      const written = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml')) : []).map((f) => readFileSync(join(dir, f), 'utf8'))
      await expect.poll(() => written().length, { interval: 1 }).toBe(1)
      const [eml] = written()
      expect(eml).toContain('To: leads@dealer.example')
      expect(eml).toContain('Subject: New lead: Dev Mode')
      const mode = (path: string) => (statSync(path).mode & 0o777).toString(8)
      expect([mode(dir), mode(join(dir, '..')), mode(join(dir, readdirSync(dir)[0]!))]).toEqual(['700', '700', '600'])
    } finally {
      process.umask(umask)
      await server.close()
    }
  })
})

describe('without a mail server', () => {
  it('stores and queues leads, and says once that nobody is notified', async () => {
    const server = await startTestServer('pglite')
    try {
      const res = await fetch(`${server.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'No', lastName: 'Mail', email: 'nomail@example.com' }),
      })
      const { id } = await res.json()
      const rows = await server.db.sql`select kind, sent_at from outbox_messages where inquiry_id = ${id}`
      expect(rows).toEqual([{ kind: 'dealer-email', sentAt: null }])
      const warnings = server.logs.filter((l) => String(l.msg).startsWith('Lead email is not configured'))
      expect(warnings).toHaveLength(1)
    } finally {
      await server.close()
    }
  })
})
