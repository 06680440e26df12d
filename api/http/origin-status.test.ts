import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

const partner = 'https://partner.example'

describe.each(backends)('inquiry.originStatus, the origin rule read by an embedded form, on %s', (backend) => {
  let server: TestServer
  const status = async (headers: Record<string, string>) => {
    const res = await fetch(`${server.url}/trpc/inquiry.originStatus`, { headers })
    return { res, body: ((await res.json()) as { result: { data: unknown } }).result.data }
  }

  beforeAll(async () => {
    server = await startTestServer(backend, { ALLOWED_ORIGINS: partner, LOG_LEVEL: 'silent' })
  })
  afterAll(() => server?.close())

  it('accepts an allowed partner and the site itself, and names the origin it saw', async () => {
    expect((await status({ origin: partner })).body).toEqual({ origin: partner, accepted: true })
    expect((await status({ origin: server.url })).body).toEqual({ origin: server.url, accepted: true })
  })

  it('refuses any other page, naming the origin to ask the dealer to allow', async () => {
    const { res, body } = await status({ origin: 'https://blog.example' })
    expect(res.status).toBe(200)
    expect(body).toEqual({ origin: 'https://blog.example', accepted: false })
    // Readable from that page: it is a read, open to every origin.
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('vary')).toMatch(/Origin/)
  })

  it('decides without an Origin header from Sec-Fetch-Site, as the submission does', async () => {
    expect((await status({ 'sec-fetch-site': 'same-origin' })).body).toEqual({ origin: null, accepted: true })
    expect((await status({})).body).toEqual({ origin: null, accepted: true })
    expect((await status({ 'sec-fetch-site': 'cross-site', referer: 'https://blog.example/post/1' })).body).toEqual({
      origin: 'https://blog.example',
      accepted: false,
    })
  })

  it('agrees with what a submission from the same origin gets', async () => {
    const submit = (origin: string) =>
      fetch(`${server.url}/trpc/inquiry.submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', elapsedMs: 10_000 }),
      })
    for (const origin of [partner, 'https://blog.example']) {
      const { accepted } = (await status({ origin })).body as { accepted: boolean }
      expect({ origin, stored: (await submit(origin)).status === 200 }).toEqual({ origin, stored: accepted })
    }
  })
})
