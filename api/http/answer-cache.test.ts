import { createServer, get } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createAnswerCache } from './answer-cache.ts'
import { securityHeaders } from './security.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/** The bytes as sent (fetch would decompress them for us). */
function raw(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve) =>
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
    }),
  )
}

describe.each(backends)('answers kept for visitors on %s', (backend) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(backend)
  })
  afterAll(() => server?.close())
  const requestLines = () => server.logs.filter((l) => l.msg === 'request')
  const count = async () => (await (await fetch(`${server.url}/api/golf-carts`)).json()).length as number

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

  it('serves gzip and brotli made once, 304 for a known ETag, and HEAD without a body', async () => {
    const plain = await (await fetch(`${server.url}/api/golf-carts`)).text()
    const gzip = await raw(`${server.url}/api/golf-carts`, { 'accept-encoding': 'gzip' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/i)
    expect(gunzipSync(gzip.body).toString()).toBe(plain)
    await vi.waitFor(async () => {
      const br = await raw(`${server.url}/api/golf-carts`, { 'accept-encoding': 'gzip, deflate, br' })
      expect(br.headers['content-encoding']).toBe('br')
      expect(brotliDecompressSync(br.body).toString()).toBe(plain)
    })
    const etag = gzip.headers.etag as string
    const notModified = await fetch(`${server.url}/api/golf-carts`, { headers: { 'if-none-match': etag } })
    expect(notModified.status).toBe(304)
    const head = await fetch(`${server.url}/api/golf-carts`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  it('keeps an answer until something changes, however long that takes', async () => {
    const cart = (await (await fetch(`${server.url}/api/golf-carts`)).json())[0] as { id: number; slug: string; price: number }
    const path = `/api/golf-carts/slug/${cart.slug}`
    // The cache's clock (performance.now) is the test's from the answer's making to its reading.
    vi.useFakeTimers({ toFake: ['performance'] })
    try {
      await fetch(`${server.url}${path}`)
      // A change the database does not announce (its trigger is off) is not seen: the answer was
      // kept, past any short lifetime (a minute here; CART_CACHE_MS's 5 minutes bound it, tested
      // below), and nothing asked the database again.
      await server.db.sql.begin(async (tx) => {
        await tx`alter table golf_carts disable trigger golf_carts_visible_change`
        await tx`update golf_carts set price = price + 1 where id = ${cart.id}`
        await tx`alter table golf_carts enable trigger golf_carts_visible_change`
      })
      vi.advanceTimersByTime(60_000)
      expect((await (await fetch(`${server.url}${path}`)).json()).price).toBe(cart.price)
    } finally {
      vi.useRealTimers()
    }
    // An announced change is served at once.
    await server.db.sql`update golf_carts set price = price + 1 where id = ${cart.id}`
    await vi.waitFor(async () => expect((await (await fetch(`${server.url}${path}`)).json()).price).toBe(cart.price + 2), { timeout: 1000 })
  })

  it('shows a cart added through this server at once', async () => {
    const before = await (await fetch(`${server.url}/trpc/cart.list`)).json()
    await server.runtime.services.carts.add({ title: 'Cache Test Cart', description: 'Fresh', price: 9999, imageUrl: '/x.svg' })
    const after = await (await fetch(`${server.url}/trpc/cart.list`)).json()
    expect(after.result.data.total).toBe(before.result.data.total + 1)
  })

  it('shows a cart added by SQL by hand within a second: the database announces it', async () => {
    const before = await count()
    await server.db.sql`
      insert into golf_carts (slug, alternative_slug, title, description, price, image_url)
      values ('elsewhere', 'elsewhere', 'Added Elsewhere', 'x', 1, '/x.svg')
    `
    await vi.waitFor(async () => expect(await count()).toBe(before + 1), { timeout: 1000 })
  })

  it('never keeps an error', async () => {
    expect((await fetch(`${server.url}/api/golf-carts/slug/nope`)).status).toBe(404)
    await server.db.sql.begin(async (tx) => {
      await tx`alter table golf_carts disable trigger golf_carts_visible_change`
      await tx`
        insert into golf_carts (slug, alternative_slug, title, description, price, image_url)
        values ('nope', 'nope', 'Now It Exists', 'x', 1, '/x.svg')
      `
      await tx`alter table golf_carts enable trigger golf_carts_visible_change`
    })
    expect((await fetch(`${server.url}/api/golf-carts/slug/nope`)).status).toBe(200)
  })
})

describe('answer cache keys', () => {
  /** A counter behind the cache: each answer that reaches it says how many came before. */
  async function counted(trustProxy: number) {
    let answered = 0
    const hot = createAnswerCache(() => {}, { maxBytes: 1_000_000, trustProxy })
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

describe('what the answer cache holds', () => {
  /** An app whose cart list answers with `size` bytes and counts how often it was asked. */
  async function app(options: { maxBytes: number; maxAgeMs?: number; keeping?: () => boolean; size?: number }) {
    let answered = 0
    const cache = createAnswerCache(() => {}, options)
    const routes = express()
    routes.use(cache.record)
    routes.get('/api/golf-carts', (_req, res) => void res.json({ answered: ++answered, padding: 'x'.repeat(options.size ?? 10) }))
    const server = createServer((req, res) => void (cache.serve(req, res) || routes(req, res))).listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const read = async (query = '') => (await (await fetch(`${base}/api/golf-carts${query}`)).json()).answered as number
    return { cache, read, close: () => new Promise((resolve) => server.close(resolve)) }
  }

  it('stays within its bound in bytes, forgetting the least recently used answer first', async () => {
    const { cache, read, close } = await app({ maxBytes: 40_000, size: 900 })
    try {
      for (let i = 0; i < 100; i++) await read(`?offset=${i}`)
      expect(cache.size().bytes).toBeLessThanOrEqual(40_000)
      expect(cache.size().entries).toBeGreaterThan(10)
      expect(cache.size().entries).toBeLessThan(100)
      // The newest are kept; the first was pushed out and is made again.
      expect(await read('?offset=99')).toBe(100)
      expect(await read('?offset=0')).toBe(101)
    } finally {
      await close()
    }
  })

  it('keeps nothing while changes made elsewhere could go unheard, nor with a bound of 0', async () => {
    let listening = false
    const unheard = await app({ maxBytes: 1_000_000, keeping: () => listening })
    try {
      expect([await unheard.read(), await unheard.read()]).toEqual([1, 2])
      listening = true
      expect([await unheard.read(), await unheard.read()]).toEqual([3, 3])
      unheard.cache.clear()
      expect(await unheard.read()).toBe(4)
    } finally {
      await unheard.close()
    }
    const off = await app({ maxBytes: 0 })
    try {
      expect([await off.read(), await off.read()]).toEqual([1, 2])
    } finally {
      await off.close()
    }
  })

  it('serves an answer no longer than CART_CACHE_MS even when nothing changes, and keeps none with 0', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    const aged = await app({ maxBytes: 1_000_000, maxAgeMs: 60_000 })
    try {
      expect([await aged.read(), await aged.read()]).toEqual([1, 1])
      vi.advanceTimersByTime(59_000)
      expect(await aged.read()).toBe(1)
      vi.advanceTimersByTime(2_000)
      expect([await aged.read(), await aged.read()]).toEqual([2, 2])
    } finally {
      vi.useRealTimers()
      await aged.close()
    }
    const off = await app({ maxBytes: 1_000_000, maxAgeMs: 0 })
    try {
      expect([await off.read(), await off.read()]).toEqual([1, 2])
    } finally {
      await off.close()
    }
  })
})
