import { request } from 'node:http'
import { deflateSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inquiryInput } from '../../domain/inquiry.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Bad input everywhere (issue #7): arbitrary strings, JSON and query values at every endpoint
 * and page. Never a 5xx, never a stored invalid inquiry, never markup reflected unescaped.
 */
let server: TestServer
beforeAll(async () => {
  server = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
})
afterAll(() => server?.close())

const runs = { numRuns: 60 }
const text = fc.string({ unit: 'binary', maxLength: 40 })
const payloads = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '</title><script>alert(1)</script>',
  '</script><script>alert(1)</script>',
  '<!--<script>',
]
const hostile = fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...payloads), fc.string({ maxLength: 10 })).map((p) => p.join(''))
const anyText = fc.oneof(text, hostile)

const get = (path: string) => fetch(`${server.url}${path}`)
const postRaw = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

/** A request fetch will not make: any method, any header. */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer) {
  return new Promise<number>((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('arbitrary input to the API', () => {
  /** Inquiries the random property below expected to be stored. */
  let accepted = 0
  it('list queries answer 200 or 400', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, anyText, anyText, async (category, limit, offset) => {
        const query = new URLSearchParams({ category, limit, offset })
        const res = await get(`/api/golf-carts?${query}`)
        expect([200, 400]).toContain(res.status)
        expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      }),
      runs,
    )
  })

  it('slugs answer 200, 400 or 404', async () => {
    await fc.assert(
      fc.asyncProperty(anyText.filter((s) => s.length > 0), async (slug) => {
        const res = await get(`/api/golf-carts/slug/${encodeURIComponent(slug)}`)
        expect([200, 400, 404]).toContain(res.status)
      }),
      runs,
    )
  })

  it('tRPC inputs, JSON or not, never fail on the server', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), anyText), fc.constantFrom('cart.list', 'cart.featured', 'cart.bySlug'), async (input, procedure) => {
        const res = await get(`/trpc/${procedure}?input=${encodeURIComponent(input)}`)
        expect(res.status).toBeLessThan(500)
      }),
      runs,
    )
  })

  it('contact bodies of any JSON or text answer 201, 400 or 415', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), anyText), async (body) => {
        const res = await postRaw('/api/contact', body)
        expect([201, 400]).toContain(res.status)
        const trpc = await postRaw('/trpc/inquiry.submit', body)
        expect(trpc.status).toBeLessThan(500)
      }),
      runs,
    )
  })

  it('stores exactly what it accepted, trimmed, and refuses the rest', async () => {
    // Mostly plausible values, so plenty are accepted; sometimes anything at all.
    const field = fc.oneof(
      { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
      { weight: 1, arbitrary: anyText },
      { weight: 1, arbitrary: fc.oneof(fc.constant(undefined), fc.integer(), fc.constant(null)) },
    )
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          firstName: field,
          lastName: field,
          email: fc.oneof(
            { weight: 4, arbitrary: fc.tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._+'-]{0,15}$/), fc.domain()).map(([user, domain]) => `${user}@${domain}`) },
            { weight: 1, arbitrary: fc.emailAddress() },
            { weight: 1, arbitrary: field },
          ),
          phone: fc.option(fc.oneof(field, fc.stringMatching(/^\(\d{3}\) \d{3}-\d{4}$/)), { nil: undefined }),
          interest: fc.option(fc.oneof(field, fc.constantFrom('denago', 'evolution', 'swift-ev', 'rentals', 'service', '')), {
            nil: undefined,
          }),
          message: fc.option(field, { nil: undefined }),
        }),
        async (inquiry) => {
          const res = await postRaw('/api/contact', JSON.stringify(inquiry))
          const expected = inquiryInput.safeParse(inquiry)
          expect(res.status).toBe(expected.success ? 201 : 400)
          if (!expected.success) return
          accepted++
          const { id } = await res.json()
          const [row] = await server.db.sql`select first_name, last_name, email, message from contact_inquiries where id = ${id}`
          expect(row).toEqual({
            firstName: expected.data.firstName,
            lastName: expected.data.lastName,
            email: expected.data.email,
            message: expected.data.message || null,
          })
        },
      ),
      // One inquiry that must be accepted, beside the random ones (about one in twelve is valid).
      { numRuns: 120, examples: [[{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: undefined, interest: undefined, message: undefined }]] },
    )
  })

  it('never holds an inquiry that breaks the rules', async () => {
    const rows = await server.db.sql<Record<string, string | null>[]>`
      select first_name, last_name, email, phone, interest, message, source_url, source_label from contact_inquiries
    `
    // Every inquiry the random ones stored is here (how many varies from run to run).
    expect(accepted).toBeGreaterThan(0)
    expect(rows.length).toBeGreaterThanOrEqual(accepted)
    for (const row of rows) {
      const parsed = inquiryInput.safeParse(Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)))
      expect(parsed.success, JSON.stringify(row)).toBe(true)
    }
  })
})

describe('arbitrary input to pages', () => {
  const pagePaths = (value: string) => {
    const v = encodeURIComponent(value)
    return [
      `/vehicle/${v}`,
      `/${v}`,
      `/${v}-county-golf-carts`,
      `/rentals/${v}`,
      `/inventory?page=${v}&category=${v}`,
      `/contact?cart=${v}&interest=${v}`,
    ]
  }

  it('answer without a server error and never reflect markup unescaped', async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (value) => {
        for (const path of pagePaths(value)) {
          const res = await get(path)
          expect(res.status, path).toBeLessThan(500)
          const html = await res.text()
          for (const payload of payloads) expect(html.includes(payload), `${path} reflects ${payload}`).toBe(false)
        }
      }),
      { numRuns: 25 },
    )
  })
})

describe('odd methods, headers and encodings', () => {
  const paths = ['/', '/inventory', '/api/golf-carts', '/api/contact', '/trpc/cart.list', '/trpc/inquiry.submit', '/widgets/gc-widgets.js', '/images/logo.svg', '/sitemap.xml', '/healthz', '/internal/leads']

  it.each(['PUT', 'PATCH', 'DELETE', 'TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'PURGE'])('%s answers 4xx everywhere', async (method) => {
    for (const path of paths) {
      const status = await raw(method, path)
      expect(status, `${method} ${path}`).toBeGreaterThanOrEqual(400)
      expect(status, `${method} ${path}`).toBeLessThan(500)
    }
  })

  it('OPTIONS never fails on the server', async () => {
    for (const path of paths) expect(await raw('OPTIONS', path)).toBeLessThan(500)
  })

  const lead = JSON.stringify({ firstName: 'Odd', lastName: 'Headers', email: 'odd@example.com' })
  it.each([
    ['a charset that garbles the JSON', { 'content-type': 'application/json; charset=utf-16' }, lead, 400],
    ['a charset no JSON can be in', { 'content-type': 'application/json; charset=latin1' }, lead, 415],
    ['a body claiming gzip that is not', { 'content-encoding': 'gzip' }, lead, 400],
    ['an unknown content encoding', { 'content-encoding': 'x-custom' }, lead, 415],
    ['a deflated body', { 'content-encoding': 'deflate' }, deflateSync(lead), 201],
    ['form encoding', { 'content-type': 'application/x-www-form-urlencoded' }, 'firstName=a&lastName=b', 415],
    ['a prototype key', {}, '{"__proto__":{"admin":true},"firstName":"P","lastName":"Q","email":"p@example.com"}', 201],
    ['a header of 20 kB', { 'x-filler': 'x'.repeat(20_000) }, lead, 431],
  ])('%s gets a clear 4xx (or is understood)', async (_name, headers, body, status) => {
    const answer = await raw('POST', '/api/contact', { 'content-type': 'application/json', ...headers }, body)
    expect(answer).toBe(status)
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
  })
})
