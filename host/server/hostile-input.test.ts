import { stringify } from 'csv-stringify/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inventoryColumns, parseInventoryCsv } from '../../api/carts/inventory-csv.ts'
import type { TRPCError } from '@trpc/server'
import { cartListInput } from '../../api/trpc/routers/carts.ts'
import { createContextInner } from '../../api/trpc/context.ts'
import { createCaller } from '../../api/trpc/router.ts'
import { cartSearchFields } from '../../domain/cart-query.ts'
import { inquiryInput, phonePattern } from '../../domain/inquiry.ts'
import { leadInput } from '../../domain/lead-input.ts'
import { rentalQuoteInput, rentalRequestFields } from '../../domain/rental-request.ts'
import { serviceRequestFields } from '../../domain/service-request.ts'
import { bestTimeMs, hostileTexts } from '../../tests/support/hostile-text.ts'
import { addStaff, signIn } from '../../tests/support/staff.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * One request must not freeze the site (issue #26, point 1): a phone of 95,000 "1"s and a "!"
 * held the only thread for 39 s. Every field of every public input gets 100 kB of hostile text
 * (tests/support/hostile-text.ts) and must be judged within 200 ms.
 *
 * Robust to a loaded machine, failing hard on the defect: the rules themselves are timed (no
 * network in the figure), and a miss is tried again, best of three, unless it is over ten times
 * the limit, which load does not explain (the quadratic phone rule took 390 ms for 8,000
 * characters and 39 s for 95,000). Over HTTP the same holds for the whole answer.
 */
const limitMs = 200
const texts = hostileTexts(100_000)

const lead = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' }
/** Read off the schemas, so a field added later is fed hostile text too. */
const leadFields = Object.keys(inquiryInput.shape).filter((field) => field !== 'elapsedMs')
const requestFields = [
  ...Object.keys(rentalRequestFields.shape).map((field) => ['rental', field] as const),
  ...Object.keys(serviceRequestFields.shape).map((field) => ['service', field] as const),
]
const quoteFields = Object.keys(rentalQuoteInput.shape)

async function expectQuick(what: string, work: () => unknown) {
  const ms = await bestTimeMs(work, limitMs)
  expect(ms, `${what} took ${Math.round(ms)} ms`).toBeLessThan(limitMs)
}

describe('the rules on visitor input answer 100 kB of hostile text within 200 ms', () => {
  it.each(leadFields)('the lead field %s', async (field) => {
    for (const { name, text } of texts) {
      await expectQuick(`${field} = ${name}`, () => inquiryInput.safeParse({ ...lead, [field]: text }))
    }
  })

  it.each(requestFields)('the %s request field %s', async (request, field) => {
    for (const { name, text } of texts) {
      await expectQuick(`${request}.${field} = ${name}`, () => leadInput.safeParse({ ...lead, [request]: { [field]: text } }))
    }
  })

  it.each(quoteFields)('the rental quote field %s', async (field) => {
    for (const { name, text } of texts) {
      await expectQuick(`${field} = ${name}`, () => rentalQuoteInput.safeParse({ cartType: '4-seater', plan: 'daily', [field]: text }))
    }
  })

  it('the phone pattern itself, without the length check in front of it', async () => {
    for (const { name, text } of texts) await expectQuick(`phone pattern on ${name}`, () => phonePattern.test(text))
  })

  it.each([...cartSearchFields, 'limit', 'offset'])('the search field %s', async (field) => {
    for (const { name, text } of texts) {
      await expectQuick(`${field} = ${name}`, () => cartListInput.safeParse({ [field]: text }))
    }
  })

  it.each(inventoryColumns)('the import cell %s', async (column) => {
    const row = { stockNumber: 'A-1', title: 'Evolution D5', description: 'A cart.', price: '9995' }
    for (const { name, text } of texts) {
      const csv = stringify([inventoryColumns, inventoryColumns.map((c) => (c === column ? text : (row as Record<string, string>)[c] ?? ''))])
      await expectQuick(`${column} = ${name}`, () => parseInventoryCsv(csv))
    }
  })
})

/** A few of the texts: the rules above take every one; the procedures and the paths through HTTP take these. */
const sample = texts.filter((t) => t.text.endsWith('!') && ['"1"', '" "', '"a"', '"-"', '"."', '"a@"', '"1 "', '"é"', '"/"'].some((u) => t.name.startsWith(`${u} x`)))
/**
 * Every field and every text at least once, in as many pairs as the longer list: for a path
 * through HTTP whose own work (parsing a body or a query string) does not depend on which field
 * holds the text. What each field's procedure does with each text is judged through `createCaller`.
 */
const spread = <F,>(fields: readonly F[]) =>
  Array.from({ length: Math.max(fields.length, sample.length) }, (_, i) => ({ field: fields[i % fields.length]!, ...sample[i % sample.length]! }))

let server: TestServer
beforeAll(async () => {
  // No growing delay between failed sign-ins: this test times the rules, not the brake.
  const signInPolicy = { windowMs: 60_000, perUsername: 1_000_000, perAddress: 1_000_000, delayStepMs: 0, maxDelayMs: 0 }
  // No kept answers: a second attempt must do the work again, not replay the first.
  server = await startTestServer('pglite', { LOG_LEVEL: 'silent', CART_CACHE_MS: '0' }, { site: true, signInPolicy })
})
afterAll(() => server?.close())

describe('every public procedure answers hostile text within 200 ms, and never fails', () => {
  /** A visitor's call, as REST and tRPC make it (api/http/rest.ts), without the network. */
  const visitor = () => createCaller(createContextInner(server.runtime.services, { clientAddress: '203.0.113.9' }))
  const called = async (what: string, call: () => Promise<unknown>) => {
    let failure: TRPCError | undefined
    await expectQuick(what, async () => {
      failure = await call().then(
        () => undefined,
        (error: TRPCError) => error,
      )
    })
    // Refused as the caller's mistake (or a slug nothing has), or taken; never a failure of ours.
    if (failure !== undefined) expect(['BAD_REQUEST', 'NOT_FOUND'], `${what}: ${failure.message}`).toContain(failure.code)
  }
  const searchFields = [...cartSearchFields, 'limit', 'offset']

  it.each(leadFields)('a lead with hostile %s', async (field) => {
    for (const { name, text } of sample) await called(`${field} = ${name}`, () => visitor().inquiry.submit({ ...lead, [field]: text }))
  })

  it.each(requestFields)('a %s request with hostile %s', async (request, field) => {
    for (const { name, text } of sample) {
      await called(`${request}.${field} = ${name}`, () => visitor().inquiry.submit({ ...lead, [request]: { [field]: text } }))
    }
  })

  it.each(quoteFields)('a rental quote with hostile %s', async (field) => {
    for (const { name, text } of sample) await called(`${field} = ${name}`, () => visitor().rental.quote({ cartType: '4-seater', plan: 'daily', [field]: text } as never))
  })

  it.each(searchFields)('a search with hostile %s', async (field) => {
    for (const { name, text } of sample) await called(`${field} = ${name}`, () => visitor().cart.list({ [field]: text }))
  })

  it('a hostile slug', async () => {
    for (const { name, text } of sample) {
      await called(`slug ${name}`, () => visitor().cart.bySlug({ slug: text }))
    }
  })
})

describe('over HTTP, every path into the server answers hostile text within 200 ms', () => {
  let cookie: string
  /** Addresses carry at most 16 kB of headers; query values get as much of each text as fits. */
  const forUrl = (text: string, encode: (text: string) => string = encodeURIComponent) => {
    let cut = text.slice(0, -1)
    while (encode(cut).length > 12_000) cut = cut.slice(0, Math.floor(cut.length * 0.8))
    return cut + text.slice(-1)
  }

  beforeAll(async () => {
    await addStaff(server)
    cookie = (await signIn(server)).cookie!
  })

  const timed = async (what: string, request: () => Promise<Response>) => {
    let status = 0
    await expectQuick(what, async () => {
      const res = await request()
      await res.arrayBuffer()
      status = res.status
    })
    // Refused (4xx), or a page that says what it ignored (200); never a failure of ours.
    expect(status, what).toBeLessThan(500)
  }
  const json = (path: string, body: unknown) => () =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const form = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) => () =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...headers },
      body: new URLSearchParams(body),
    })

  it('a lead as JSON through REST and through tRPC, every field and every text', async () => {
    for (const { field, name, text } of spread(leadFields)) {
      await timed(`REST ${field} = ${name}`, json('/api/contact', { ...lead, [field]: text }))
      await timed(`tRPC ${field} = ${name}`, json('/trpc/inquiry.submit', { ...lead, [field]: text }))
    }
    for (const { field: [request, field], name, text } of spread(requestFields)) {
      await timed(`tRPC ${request}.${field} = ${name}`, json('/trpc/inquiry.submit', { ...lead, [request]: { [field]: text } }))
    }
  })

  // The forms without JavaScript read their fields one by one (host/server/contact-post.ts) and
  // render the page again with what was typed: each field with each text.
  it.each(leadFields)('the contact form with hostile %s', async (field) => {
    for (const { name, text } of sample) await timed(`form ${field} = ${name}`, form('/contact', { ...lead, [field]: text }))
  })

  it.each(requestFields)('the %s request form with hostile %s', async (request, field) => {
    const page = request === 'rental' ? '/rentals/request' : '/services/request'
    for (const { name, text } of sample) {
      // The page's post names the field by its path, as the form does (host/server/contact-post.ts).
      await timed(`form ${request}.${field} = ${name}`, form(page, { ...lead, [`${request}.${field}`]: text }))
    }
  })

  it('a rental quote in a tRPC query, every field and every text', async () => {
    for (const { field, name, text } of spread(quoteFields)) {
      const input = encodeURIComponent(JSON.stringify({ cartType: '4-seater', plan: 'daily', [field]: forUrl(text) }))
      await timed(`${field} = ${name}`, () => fetch(`${server.url}/trpc/rental.quote?input=${input}`))
    }
  })

  // The page reads its query with the procedure's one reader (domain/cart-query.ts), judged per
  // field and text above.
  it('a search through REST\'s query, tRPC\'s query and the inventory page, every field and every text', async () => {
    for (const { field, name, text } of spread([...cartSearchFields, 'limit', 'offset'])) {
      const value = forUrl(text)
      const query = new URLSearchParams({ [field]: value })
      await timed(`REST ${field} = ${name}`, () => fetch(`${server.url}/api/golf-carts?${query}`))
      await timed(`tRPC ${field} = ${name}`, () => fetch(`${server.url}/trpc/cart.list?input=${encodeURIComponent(JSON.stringify({ [field]: value }))}`))
      await timed(`page ${field} = ${name}`, () => fetch(`${server.url}/inventory?${query}`))
    }
  })

  it('a hostile page path, with and without a trailing slash', async () => {
    for (const { name, text } of sample) {
      // As written, slashes and all: a run of 12,000 slashes met a quadratic pattern on the way to a redirect.
      const path = encodeURI(forUrl(text, encodeURI))
      await timed(`path ${name}`, () => fetch(`${server.url}/${path}`, { redirect: 'manual' }))
      await timed(`path ${name} + /`, () => fetch(`${server.url}/${path}/`, { redirect: 'manual' }))
      await timed(`inventory/${name}/`, () => fetch(`${server.url}/inventory/${path}/`, { redirect: 'manual' }))
    }
  })

  it('a hostile slug, a sign-in and an import cell', async () => {
    for (const { name, text } of sample) {
      const slug = encodeURIComponent(forUrl(text))
      await timed(`slug ${name}`, () => fetch(`${server.url}/api/golf-carts/slug/${slug}`))
      await timed(`vehicle page ${name}`, () => fetch(`${server.url}/vehicle/${slug}`))
      // The whole text (over the sign-in form's 10 kB) and as much as the form takes.
      for (const sent of [text, forUrl(text).slice(0, 9_000)]) {
        await timed(`sign-in username ${sent.length} of ${name}`, form('/staff/login', { username: sent, password: 'a password of some length' }))
        await timed(`sign-in password ${sent.length} of ${name}`, form('/staff/login', { username: 'maria', password: sent }))
      }
      const csv = stringify([['stockNumber', 'title', 'description', 'price'], ['A-1', 'Evolution D5', 'A cart.', text]])
      await timed(`import cell ${name}`, () =>
        fetch(`${server.url}/api/staff/inventory/check`, { method: 'POST', headers: { origin: server.url, cookie, 'content-type': 'text/csv' }, body: csv }),
      )
    }
  })
})
