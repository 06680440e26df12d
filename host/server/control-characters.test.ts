import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseInventoryCsv } from '../../api/carts/inventory-csv.ts'
import { openDatabase } from '../../api/db/database.ts'
import { errorAnswer } from '../../api/http/errors.ts'
import { cartListInput } from '../../api/trpc/routers/carts.ts'
import { normalizeEmail } from '../../api/users/user-store.ts'
import { cartRecordFields, cartRecordInput } from '../../domain/cart-record.ts'
import { cartSearchFields } from '../../domain/cart-query.ts'
import { inquiryInput, requiredText } from '../../domain/inquiry.ts'
import { controlCharacter } from '../../domain/plain-text.ts'
import { leadInput } from '../../domain/lead-input.ts'
import { rentalQuoteInput, rentalRequestFields } from '../../domain/rental-request.ts'
import { serviceRequestFields } from '../../domain/service-request.ts'
import { addStaff, signIn, staffClient } from '../../tests/support/staff.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Control characters in every text a visitor or staff send (issue #26, point 6): a NUL in the
 * sign-in username answered 500 with a database error in the log, and an escape or a C1 character
 * went into names, titles and notes, to act on a terminal or forge lines in an email later. Each
 * is refused with a field message (400), before SQL; a line break is refused in one-line fields.
 */
const controls = {
  NUL: 'Ann\u0000Lee',
  escape: 'Ann\u001b[2J\u001b]0;pwned\u0007',
  'C1 CSI': 'Ann\u009b31m',
  DEL: 'Ann\u007fLee',
}
const lineBreaks = { CRLF: 'Ann\r\nBcc: boss@evil.test', LF: 'Ann\n#1 forged', 'line separator': 'Ann\u2028Lee' }
/** The fields that are paragraphs: line breaks are theirs to keep. */
const paragraphs = new Set(['message', 'description', 'website'])

type Parse = (text: string) => { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }
const refusedAt = (parse: Parse, path: string, text: string) => {
  const result = parse(text)
  expect(result.success, `${path} took ${JSON.stringify(text)}`).toBe(false)
  const paths = result.error!.issues.map((i) => i.path.join('.'))
  expect(paths.some((p) => p === path || p.startsWith(`${path}.`)), `${path}: ${JSON.stringify(text)} refused at ${paths.join(', ')}`).toBe(true)
}
/** Any string in a value, however deep. */
const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : []
const hostileFor = (field: string) => Object.entries({ ...controls, ...(paragraphs.has(field) ? {} : lineBreaks) })

const lead = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' }

describe('every text field of every input refuses control characters (and line breaks where one line is meant)', () => {
  it.each(Object.keys(inquiryInput.shape).filter((f) => f !== 'elapsedMs'))('the lead field %s', (field) => {
    for (const [, text] of hostileFor(field)) refusedAt((t) => inquiryInput.safeParse({ ...lead, [field]: t }), field, text)
  })

  it.each([
    ...Object.keys(rentalRequestFields.shape).map((field) => ['rental', field] as const),
    ...Object.keys(serviceRequestFields.shape).map((field) => ['service', field] as const),
  ])('the %s request field %s', (request, field) => {
    for (const [, text] of hostileFor(field)) {
      refusedAt((t) => leadInput.safeParse({ ...lead, [request]: { [field]: t } }), `${request}.${field}`, text)
    }
  })

  it.each(Object.keys(rentalQuoteInput.shape))('the rental quote field %s', (field) => {
    for (const [, text] of hostileFor(field)) refusedAt((t) => rentalQuoteInput.safeParse({ cartType: '4-seater', plan: 'daily', [field]: t }), field, text)
  })

  it.each(Object.keys(cartRecordFields))('the cart record field %s (the console form, tRPC and every import cell)', (field) => {
    const cart = { title: 'Evolution D5', description: 'A cart.', price: 9995, condition: 'new', status: 'available' }
    for (const [, text] of hostileFor(field)) refusedAt((t) => cartRecordInput.safeParse({ ...cart, [field]: t }), field, text)
  })

  it('an import cell with an escape sequence is refused on its line, naming its column', () => {
    const parsed = parseInventoryCsv('stockNumber,title,description,price\nA-1,"Cart\u001b]0;pwned\u0007",A cart.,9995\n')
    expect(parsed).toMatchObject({ ok: false, problems: [{ line: 2, field: 'title' }] })
  })

  it.each(cartSearchFields)('the search field %s: refused, or cleaned (a make is read as a slug)', (field) => {
    for (const [, text] of Object.entries(controls)) {
      const result = cartListInput.safeParse({ [field]: text })
      if (result.success) expect(strings(result.data).filter((s) => controlCharacter.test(s)), field).toEqual([])
      else refusedAt(() => result, field, text)
    }
  })

  it('a photo\'s alt text, and a staff account\'s email address', () => {
    for (const [, text] of hostileFor('alt')) refusedAt((t) => requiredText('Alt text', 200).safeParse(t), '', text)
    for (const [, text] of Object.entries(controls)) expect(normalizeEmail(`ann${text.slice(3)}@example.com`)).toHaveProperty('problem')
  })

  it('leaves ordinary text alone: accents, emoji, a tab, a message\'s own lines', () => {
    expect(inquiryInput.safeParse({ ...lead, firstName: 'Zoë\tO\'Neill-Pérez 🚗', message: 'Two carts\r\nfor the weekend' }).success).toBe(true)
  })
})

describe('a character the database cannot store, should a schema ever miss one', () => {
  it('is the caller\'s 400 with a sentence, and no failure to log', async () => {
    const db = await openDatabase({ dataDir: null })
    try {
      const error = await db.sql`select ${'a\u0000b'}::text as x`.then(() => undefined, (e: unknown) => e)
      expect(errorAnswer(error)).toMatchObject({ status: 400, body: { message: expect.stringMatching(/cannot be stored.*NUL/) } })
      expect(errorAnswer(error).failure).toBeUndefined()
    } finally {
      await db.close()
    }
  })
})

describe('over HTTP: 400 with the field named, never a 500 or a database error in the log', () => {
  let server: TestServer
  let cookie: string
  beforeAll(async () => {
    server = await startTestServer('pglite', { LOG_LEVEL: 'info' }, { site: true })
    await addStaff(server)
    cookie = (await signIn(server)).cookie!
    expect((await post('/api/contact', lead)).status).toBe(201)
  }, 120_000)
  afterAll(() => server?.close())

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/json', origin: server.url, ...headers }, body: JSON.stringify(body) })
  const form = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...headers },
      body: new URLSearchParams(body),
    })
  const noErrorLogged = () => expect(server.logs.filter((line) => line.level === 'error')).toEqual([])

  it.each(['firstName', 'lastName', 'email', 'phone', 'message', 'sourceLabel', 'cartSlug'])('a lead whose %s holds NUL or an escape, as JSON, through tRPC and the form', async (field) => {
    for (const text of [controls.NUL, controls.escape]) {
      for (const res of [await post('/api/contact', { ...lead, [field]: text }), await post('/trpc/inquiry.submit', { ...lead, [field]: text })]) {
        expect(res.status, `${field} = ${JSON.stringify(text)}`).toBe(400)
        const body = (await res.json()) as { message?: string; error?: { message: string } }
        expect(body.message ?? body.error?.message).toMatch(new RegExp(field === 'cartSlug' ? 'cartSlug' : field))
      }
      expect((await form('/contact', { ...lead, [field]: text })).status).toBe(400)
    }
    noErrorLogged()
  })

  it('sign-in with a NUL in the username', async () => {
    expect((await signIn(server, 'maria\u0000')).status).toBe(400)
    noErrorLogged()
  })

  it('staff procedures that take text: a note, the inbox and inventory searches, a cart\'s fields', async () => {
    const client = staffClient(server, cookie)
    const refused = async (call: () => Promise<unknown>, what: string) => {
      const error = (await call().then(() => undefined, (e: unknown) => e)) as { data?: { httpStatus?: number }; message?: string } | undefined
      expect(error?.data?.httpStatus, what).toBe(400)
      return error!.message
    }
    const [first] = (await client.staff.lead.list.query({})).leads
    expect(first).toBeDefined()
    const [cart] = (await client.staff.cart.list.query({})).carts
    for (const text of Object.values(controls)) {
      expect(await refused(() => client.staff.lead.addNote.mutate({ id: first!.id, text }), 'note')).toMatch(/note/i)
      await refused(() => client.staff.lead.list.query({ q: text }), 'lead q')
      await refused(() => client.staff.lead.list.query({ source: text }), 'lead source')
      await refused(() => client.staff.cart.list.query({ q: text }), 'cart q')
      const saved = await client.staff.cart.get.query({ id: cart!.id })
      expect(await refused(() => client.staff.cart.save.mutate({ ...saved, title: text } as never), 'cart title')).toMatch(/Title/)
    }
    for (const text of Object.values(lineBreaks)) {
      const saved = await client.staff.cart.get.query({ id: cart!.id })
      expect(await refused(() => client.staff.cart.save.mutate({ ...saved, title: text } as never), 'cart title')).toMatch(/Title must be one line/)
    }
    noErrorLogged()
  })
})
