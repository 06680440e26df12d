import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parsePage } from '../../tests/support/html.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * The contact form without JavaScript under attack (issue #11, points 1 and 2): a page on another
 * site that posts to it, and a visitor who tries every door to get past the lead rate limit.
 */
const siteUrl = 'https://carts.example'
const partner = 'https://partner.example'
let server: TestServer

beforeAll(async () => {
  server = await startTestServer(
    'pglite',
    { SITE_URL: siteUrl, ALLOWED_ORIGINS: partner, LOG_LEVEL: 'silent' },
    { site: true },
  )
})
afterAll(() => server?.close())

const fields = (email: string) => ({ firstName: 'Typed', lastName: 'Carefully', email, phone: '(609) 555-0109', message: 'Keep every word' })

const formTo = (base: string) => (body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${base}/contact`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body),
  })
const postForm = (body: Record<string, string>, headers: Record<string, string> = {}) => formTo(server.url)(body, headers)

const storedWith = async (email: string) =>
  (await server.db.sql<[{ n: number }]>`select count(*)::int as n from contact_inquiries where email = ${email}`)[0].n

describe('the contact form and other sites', () => {
  it.each([
    ['a page on another site', { origin: 'https://evil.test' }, 'https://evil.test'],
    ['a sandboxed frame (Origin: null)', { origin: 'null' }, 'null'],
    ['a cross-site page whose browser sends no Origin', { 'sec-fetch-site': 'cross-site', referer: 'https://evil.test/free-cart' }, 'https://evil.test'],
  ])('refuses a post from %s, stores nothing and keeps what was typed', async (_, headers, named) => {
    const email = `forged-${named.replace(/\W/g, '')}-${Object.keys(headers).length}@example.com`
    const res = await postForm(fields(email), headers)
    expect(res.status).toBe(403)
    const page = parsePage(res.status, await res.text())
    expect(page.text('.notice')).toBe(`Your message was not sent. Requests from ${named} are not accepted by this site.`)
    expect(page.document.querySelector('input[name="email"]')?.getAttribute('value')).toBe(email)
    expect(page.text('textarea[name="message"]')).toBe('Keep every word')
    expect(await storedWith(email)).toBe(0)
  })

  it.each([
    ['the address it was reached at', () => server.url],
    ['SITE_URL', () => siteUrl],
    ['an origin in ALLOWED_ORIGINS', () => partner],
  ])('accepts a post whose Origin is %s', async (_, origin) => {
    const email = `honest-${origin().replace(/\W/g, '')}@example.com`
    const res = await postForm(fields(email), { origin: origin(), 'sec-fetch-site': 'same-origin' })
    expect(res.status).toBe(303)
    expect(await storedWith(email)).toBe(1)
  })

  it('accepts a post from a browser that says it is same-origin without an Origin header', async () => {
    const res = await postForm(fields('same-origin@example.com'), { 'sec-fetch-site': 'same-origin' })
    expect(res.status).toBe(303)
  })
})

describe('one lead rate limit for every door', () => {
  it('counts the form, REST and tRPC together, and refuses the next on each', async () => {
    // A fresh server: this test spends its address's whole allowance.
    const limited = await startTestServer('pglite', { LEAD_RATE_LIMIT: '3', LOG_LEVEL: 'silent' }, { site: true })
    try {
      const json = (path: string, email: string) =>
        fetch(`${limited.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ firstName: 'Door', lastName: 'Test', email }),
        })
      const form = (email: string) => formTo(limited.url)(fields(email))
      expect((await json('/api/contact', 'door1@example.com')).status).toBe(201)
      expect((await form('door2@example.com')).status).toBe(303)
      expect((await json('/trpc/inquiry.submit', 'door3@example.com')).status).toBe(200)
      const refusedForm = await form('door4@example.com')
      expect(refusedForm.status).toBe(429)
      expect(Number(refusedForm.headers.get('retry-after'))).toBeGreaterThan(0)
      expect((await json('/api/contact', 'door5@example.com')).status).toBe(429)
      expect((await json('/trpc/x/inquiry.submit', 'door6@example.com')).status).toBe(429)
      const rows = await limited.db.sql`select email from contact_inquiries where email like 'door%' order by id`
      expect(rows.map((r) => r.email)).toEqual(['door1@example.com', 'door2@example.com', 'door3@example.com'])
    } finally {
      await limited.close()
    }
  })

  it('does not count a form the schema refused', async () => {
    const limited = await startTestServer('pglite', { LEAD_RATE_LIMIT: '1', LOG_LEVEL: 'silent' }, { site: true })
    try {
      const form = formTo(limited.url)
      for (let i = 0; i < 3; i++) expect((await form({ ...fields('not-an-email'), lastName: '' })).status).toBe(400)
      expect((await form(fields('after-typos@example.com'))).status).toBe(303)
    } finally {
      await limited.close()
    }
  })
})
