import { get } from 'node:http'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

describe('hot cache for cart reads', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer('pglite')
  })
  afterAll(() => server?.close())
  const requestLines = () => server.logs.filter((l) => l.msg === 'request')

  it('answers a repeated read from memory with the same bytes and headers, and a fresh id', async () => {
    const first = await fetch(`${server.url}/api/golf-carts?limit=3`)
    const second = await fetch(`${server.url}/api/golf-carts?limit=3`)
    expect(await second.text()).toBe(await first.text())
    for (const header of ['content-type', 'x-total-count', 'access-control-allow-origin', 'etag']) {
      expect(second.headers.get(header), header).toBe(first.headers.get(header))
    }
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
    // Both are logged, hit or not.
    expect(requestLines().filter((l) => l.path === '/api/golf-carts').length).toBeGreaterThanOrEqual(2)
  })

  it('serves gzip, 304 for a known ETag, and HEAD without a body', async () => {
    const plain = await (await fetch(`${server.url}/api/golf-carts`)).text()
    // fetch would unzip it for us; node:http shows the bytes as sent.
    const raw = await new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve) =>
      get(`${server.url}/api/golf-carts`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
      }),
    )
    expect(raw.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(raw.body).toString()).toBe(plain)
    const etag = raw.headers.etag as string
    const notModified = await fetch(`${server.url}/api/golf-carts`, { headers: { 'if-none-match': etag } })
    expect(notModified.status).toBe(304)
    const head = await fetch(`${server.url}/api/golf-carts`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  it('shows a cart added through this server at once', async () => {
    const before = await (await fetch(`${server.url}/trpc/cart.list`)).json()
    await server.runtime.services.carts.add({ title: 'Cache Test Cart', description: 'Fresh', price: 9999, imageUrl: '/x.svg' })
    const after = await (await fetch(`${server.url}/trpc/cart.list`)).json()
    expect(after.result.data.total).toBe(before.result.data.total + 1)
  })

  it('shows a cart added by another process within a second', async () => {
    const count = async () => (await (await fetch(`${server.url}/api/golf-carts`)).json()).length
    const before = await count()
    await server.db.sql`
      insert into golf_carts (slug, alternative_slug, title, description, price, image_url)
      values ('elsewhere', 'elsewhere', 'Added Elsewhere', 'x', 1, '/x.svg')
    `
    await new Promise((resolve) => setTimeout(resolve, 2100))
    expect(await count()).toBe(before + 1)
  })

  it('never keeps an error', async () => {
    expect((await fetch(`${server.url}/api/golf-carts/slug/nope`)).status).toBe(404)
    await server.db.sql`
      insert into golf_carts (slug, alternative_slug, title, description, price, image_url)
      values ('nope', 'nope', 'Now It Exists', 'x', 1, '/x.svg')
    `
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect((await fetch(`${server.url}/api/golf-carts/slug/nope`)).status).toBe(200)
  })
})
