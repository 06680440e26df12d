import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient, describeFailure } from '../../widgets/shared/api.tsx'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

const lead = (n: number, extra: object = {}) => ({ firstName: 'Flood', lastName: `Test ${n}`, email: `flood${n}@example.com`, ...extra })

describe.each(backends)('floods and spam on %s', (backend) => {
  let server: TestServer
  let proxied: TestServer
  const post = (base: TestServer, body: object, headers: Record<string, string> = {}) =>
    fetch(`${base.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

  beforeAll(async () => {
    server = await startTestServer(backend, { LEAD_RATE_LIMIT: '3', LEAD_RATE_WINDOW_SECONDS: '600', LOG_LEVEL: 'silent' })
    proxied = await startTestServer(backend, { LEAD_RATE_LIMIT: '2', TRUST_PROXY: '1', LOG_LEVEL: 'silent' })
  })
  afterAll(async () => {
    await server?.close()
    await proxied?.close()
  })

  it('answers 429 with Retry-After once an address sends more than the limit, storing nothing more', async () => {
    for (let i = 0; i < 3; i++) expect((await post(server, lead(i))).status).toBe(201)
    const refused = await post(server, lead(4))
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(600)
    expect(await refused.json()).toEqual({ message: expect.stringMatching(/^Too many messages from this address/), issues: [] })
    // tRPC is the same door, and answers in tRPC's shape, so the widgets show the sentence.
    const viaTrpc = await fetch(`${server.url}/trpc/inquiry.submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(lead(5)),
    })
    expect(viaTrpc.status).toBe(429)
    // The same window: the seconds left agree, give or take the second that passed between the two.
    expect(Math.abs(Number(viaTrpc.headers.get('retry-after')) - retryAfter)).toBeLessThanOrEqual(1)
    const client = createApiClient(server.url)
    const failure = await client.inquiry.submit.mutate(lead(5)).catch((e: unknown) => e)
    expect(describeFailure(failure)).toMatch(/^429: Too many messages from this address\. Please try again in \d+ minutes?, or call \(888\) 555-0100\.$/)
    expect(failure).toMatchObject({ data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, path: 'inquiry.submit' } })
    const [{ n }] = await server.db.sql<[{ n: number }]>`select count(*)::int as n from contact_inquiries where last_name like 'Test %'`
    expect(n).toBe(3)
  })

  it('ignores X-Forwarded-For unless TRUST_PROXY says to trust it', async () => {
    // Still limited: a made-up forwarded address does not open a new window.
    expect((await post(server, lead(6), { 'x-forwarded-for': '203.0.113.9' })).status).toBe(429)
    // Behind one trusted proxy, each forwarded address has its own count.
    for (const address of ['198.51.100.1', '198.51.100.1', '198.51.100.2']) {
      expect((await post(proxied, lead(7), { 'x-forwarded-for': address })).status).toBe(201)
    }
    expect((await post(proxied, lead(8), { 'x-forwarded-for': '198.51.100.1' })).status).toBe(429)
  })

  it('refuses batched tRPC calls, which could carry many submissions', async () => {
    const res = await fetch(`${proxied.url}/trpc/inquiry.submit,inquiry.submit?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.50' },
      body: JSON.stringify({ 0: lead(9), 1: lead(10) }),
    })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  })

  it('counts the procedure however its path is spelled, so no spelling gets past a spent limit', async () => {
    const from = { 'x-forwarded-for': '198.51.100.60' }
    for (let i = 0; i < 2; i++) expect((await post(proxied, lead(20 + i), from)).status).toBe(201)
    const stored = async () =>
      (await proxied.db.sql<[{ n: number }]>`select count(*)::int as n from contact_inquiries where email like 'spelled%'`)[0].n
    // Each of these reached inquiry.submit before the limit moved onto the procedure.
    const spellings = [
      '/trpc/inquiry.submit',
      '/trpc/x/inquiry.submit',
      '/trpc//inquiry.submit',
      '/trpc/inquiry%2Esubmit',
      '/trpc/cart.list/inquiry.submit',
      '/trpc/inquiry.submit?batch=1',
      '/trpc/inquiry.submit,inquiry.submit?batch=1',
    ]
    for (const [i, path] of spellings.entries()) {
      const body = path.includes('batch') ? { 0: lead(30 + i, { email: `spelled${i}@example.com` }) } : lead(30 + i, { email: `spelled${i}@example.com` })
      const res = await fetch(`${proxied.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from },
        body: JSON.stringify(body),
      })
      // Batches are refused outright (batching is off); every other spelling meets the limit.
      if (path.includes('batch')) expect(res.status, path).toBe(400)
      else expect(res.status, path).toBe(429)
    }
    expect(await stored()).toBe(0)
  })

  it('does not let refused invalid submissions use up an address\'s slots', async () => {
    const from = { 'x-forwarded-for': '198.51.100.61' }
    for (let i = 0; i < 5; i++) expect((await post(proxied, { firstName: 'No', lastName: '', email: 'nope' }, from)).status).toBe(400)
    for (let i = 0; i < 2; i++) expect((await post(proxied, lead(40 + i), from)).status).toBe(201)
    expect((await post(proxied, lead(42), from)).status).toBe(429)
  })

  it('answers a filled honeypot like any other, but stores it as spam and queues nothing', async () => {
    const res = await post(proxied, lead(11, { website: 'http://cheap-pills.example', elapsedMs: 9000 }), { 'x-forwarded-for': '198.51.100.3' })
    expect(res.status).toBe(201)
    const { id } = await res.json()
    const [row] = await proxied.db.sql`select spam_reason from contact_inquiries where id = ${id}`
    expect(row?.spamReason).toBe('honeypot')
    expect(await proxied.db.sql`select 1 from outbox_messages where inquiry_id = ${id}`).toHaveLength(0)
  })

  it('takes a form sent one second after the page opened (autofill) as a lead, emailed like any other', async () => {
    const fast = await (await post(proxied, lead(12, { elapsedMs: 1000 }), { 'x-forwarded-for': '198.51.100.4' })).json()
    const [row] = await proxied.db.sql`select spam_reason from contact_inquiries where id = ${fast.id}`
    expect(row?.spamReason).toBeNull()
    expect(await proxied.db.sql`select kind from outbox_messages where inquiry_id = ${fast.id}`).toHaveLength(1)
  })
})
