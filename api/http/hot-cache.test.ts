import { createServer, get } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHotCache } from './hot-cache.ts'
import { securityHeaders } from './security.ts'
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

describe('hot cache keys', () => {
  /** A counter behind the hot cache: each answer that reaches it says how many came before. */
  async function counted(trustProxy: number) {
    let answered = 0
    const hot = createHotCache(() => {}, 60_000, { trustProxy })
    const app = express()
    if (trustProxy > 0) app.set('trust proxy', trustProxy)
    app.use(securityHeaders())
    app.use(hot.record)
    app.get('/api/golf-carts', (_req, res) => void res.json({ answered: ++answered }))
    const server = createServer((req, res) => void (hot.serve(req, res) || app(req, res))).listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/golf-carts`
    const read = async (proto?: string) => {
      const res = await fetch(url, { headers: proto ? { 'x-forwarded-proto': proto } : {} })
      return { answered: (await res.json()).answered as number, hsts: res.headers.get('strict-transport-security') }
    }
    return { read, close: () => new Promise((resolve) => server.close(resolve)) }
  }

  it('ignores X-Forwarded-Proto while no proxy is trusted: a made-up value makes no new entry', async () => {
    const cache = await counted(0)
    try {
      expect((await cache.read()).answered).toBe(1)
      for (const proto of ['https', 'x1', 'x2', 'HTTPS, http']) expect((await cache.read(proto)).answered, proto).toBe(1)
    } finally {
      await cache.close()
    }
  })

  it('keeps answers made over HTTPS and HTTP apart behind a trusted proxy, and nothing finer', async () => {
    const cache = await counted(1)
    try {
      expect(await cache.read('https')).toEqual({ answered: 1, hsts: expect.stringContaining('max-age=') })
      expect(await cache.read('http')).toEqual({ answered: 2, hsts: null })
      expect(await cache.read('https, http')).toEqual({ answered: 1, hsts: expect.stringContaining('max-age=') })
      for (const proto of ['x1', 'x2', undefined]) expect((await cache.read(proto)).answered, proto).toBe(2)
    } finally {
      await cache.close()
    }
  })
})
