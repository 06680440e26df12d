import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadEnv } from '../../api/config/env.ts'
import { createApp } from '../../api/http/app.ts'
import { createLogger } from '../../api/log.ts'
import { createRuntime, type Runtime } from '../../api/runtime.ts'
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { startTcpProxy, type TcpProxy } from '../../tests/support/tcp-proxy.ts'
import { type Database, openDatabase } from '../../api/db/database.ts'
import { migrate } from '../../api/db/migrate.ts'
import { seed } from '../../api/carts/seed.ts'
import { readDeadlineMs, writeDeadlineMs } from '../../api/db/unavailable.ts'
import { staffPassword } from '../../tests/support/staff.ts'

/**
 * The PostgreSQL server's own database, reached through a proxy the test controls: the server
 * under test sees the database go down, hang, and come back, and must never need a restart.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('database outage', () => {
  let admin: TestDatabase
  let proxy: TcpProxy
  let db: Database
  let runtime: Runtime
  let server: Server
  let url: string
  // A second server on its own pool, with the rate limit off: a lead's insert is then its first
  // statement, and a freeze can catch it mid-write.
  let unlimitedDb: Database
  let unlimitedRuntime: Runtime
  let unlimited: Server
  let unlimitedUrl: string

  beforeAll(async () => {
    admin = await createTestDatabase('postgres')
    await migrate(admin.sql)
    await seed(admin.sql)
    const direct = new URL(admin.url!)
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
    const through = new URL(admin.url!)
    through.host = `127.0.0.1:${proxy.port}`
    db = await openDatabase({ databaseUrl: through.href, dataDir: null })
    // No caches: every request must reach the database to show what an outage does.
    const env = loadEnv({ PORT: '0', CACHE_MB: '0', LOG_LEVEL: 'silent', LEAD_RATE_LIMIT: '1000' })
    const log = createLogger('silent')
    runtime = createRuntime(db, env, log)
    const { mountSite } = await import('./site.ts')
    const { listener } = await createApp({ db, env, log, services: runtime.services, mountSite })
    server = createServer(listener).listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

    unlimitedDb = await openDatabase({ databaseUrl: through.href, dataDir: null })
    const unlimitedEnv = loadEnv({ PORT: '0', CACHE_MB: '0', LOG_LEVEL: 'silent', LEAD_RATE_LIMIT: '0' })
    unlimitedRuntime = createRuntime(unlimitedDb, unlimitedEnv, log)
    const second = await createApp({ db: unlimitedDb, env: unlimitedEnv, log, services: unlimitedRuntime.services })
    unlimited = createServer(second.listener).listen(0, '127.0.0.1')
    await new Promise((resolve) => unlimited.once('listening', resolve))
    unlimitedUrl = `http://127.0.0.1:${(unlimited.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    for (const s of [server, unlimited]) {
      s?.closeAllConnections()
      await new Promise((resolve) => s?.close(resolve))
    }
    await runtime?.stop()
    await unlimitedRuntime?.stop()
    await proxy?.start()
    await db?.close()
    await unlimitedDb?.close()
    await proxy?.close()
    await admin?.close()
  })

  const timed = async (path: string, init?: RequestInit, base = url) => {
    const started = performance.now()
    const res = await fetch(`${base}${path}`, init)
    // React separates interpolated text with empty comments; read the text as a visitor would.
    return { res, ms: performance.now() - started, body: (await res.text()).replaceAll('<!-- -->', '') }
  }
  const submit = (email: string, base = url) =>
    timed(
      '/api/contact',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'Outage', lastName: 'Test', email }),
      },
      base,
    )

  let staffCookie = ''

  it('works before the outage', async () => {
    expect((await timed('/api/golf-carts')).res.status).toBe(200)
    await runtime.services.staff.accounts.add('outage', staffPassword)
    const signIn = await fetch(`${url}/staff/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
      body: new URLSearchParams({ username: 'outage', password: staffPassword }),
    })
    expect(signIn.status).toBe(303)
    staffCookie = signIn.headers.get('set-cookie')!.split(';')[0]!
  })

  it('answers API calls with 503 JSON within 2 seconds while the database is down', async () => {
    await proxy.stop()
    for (const path of ['/api/golf-carts', '/api/golf-carts/featured', '/api/golf-carts/slug/x', '/trpc/cart.list', '/readyz']) {
      const { res, ms, body } = await timed(path)
      expect(res.status, path).toBe(503)
      expect(ms, path).toBeLessThan(2000)
      const json = JSON.parse(body)
      expect(path.startsWith('/trpc') ? json.error.message : json.message, path).toEqual(expect.any(String))
      expect(body).not.toMatch(/ECONNREFUSED|stack|at .+\.ts/)
    }
    expect(JSON.parse((await timed('/readyz')).body).issues).toContainEqual({ path: 'database', message: 'The database is not answering.' })
  })

  it('stays alive for a balancer while the database is down: /healthz answers 200', async () => {
    expect((await timed('/healthz')).res.status).toBe(200)
  })

  it('tells the visitor a message was not sent, and stores nothing half-way', async () => {
    const { res, ms, body } = await submit('down@example.com')
    expect(res.status).toBe(503)
    expect(ms).toBeLessThan(2000)
    expect(JSON.parse(body).message).toMatch(/^Your message was not sent/)
    expect(res.headers.get('retry-after')).toBe('30')
  })

  it('tells staff their change was not saved, not that a message was not sent', async () => {
    // Signed in before the outage; the sign-out is a write whose first statement reaches the database.
    const res = await fetch(`${url}/trpc/staff.session.signOutEverywhere`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, cookie: staffCookie },
      body: '{}',
    })
    expect(res.status).toBe(503)
    const message = ((await res.json()) as { error: { message: string } }).error.message
    expect(message).toMatch(/^Your change was not saved/)
    expect(message).not.toMatch(/message|call/i)
  })

  it('answers ten submissions at once with 503 within 2 seconds each while the database refuses', async () => {
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(`down${i}@example.com`)))
    for (const { res, ms, body } of all) {
      expect(res.status).toBe(503)
      expect(JSON.parse(body).message).toMatch(/^Your message was not sent/)
      expect(ms).toBeLessThan(2000)
    }
  })

  it('still answers pages, with what they can show and a clear message', async () => {
    const { res, body, ms } = await timed('/')
    expect(res.status).toBe(503)
    expect(ms).toBeLessThan(2000)
    expect(body).toContain("New Jersey&#x27;s Electric Golf Cart Dealer")
    expect(body).toContain('We couldn&#x27;t load the featured golf carts')
    const vehicle = await timed('/vehicle/2025-evolution-d6-max-gt4')
    expect(vehicle.res.status).toBe(503)
    expect(vehicle.body).toContain('We couldn&#x27;t load this golf cart')
    expect((await timed('/services')).res.status).toBe(200)
  })

  it('answers within 2 seconds when the database hangs instead of refusing', async () => {
    await proxy.silence()
    // Alive without asking the silent database, so well before its deadline.
    const alive = await timed('/healthz')
    expect(alive.res.status).toBe(200)
    expect(alive.ms).toBeLessThan(readDeadlineMs)
    for (const path of ['/api/golf-carts', '/readyz', '/']) {
      const { res, ms } = await timed(path)
      expect(res.status, path).toBe(503)
      expect(ms, path).toBeLessThan(2000)
    }
    const { res, ms } = await submit('silent@example.com')
    expect(res.status).toBe(503)
    expect(ms).toBeLessThan(2000)
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(`silent${i}@example.com`)))
    for (const one of all) {
      expect(one.res.status).toBe(503)
      expect(one.ms).toBeLessThan(2000)
    }
  })

  it('says "not sent" within 2 seconds when the connection goes quiet before the lead is written', async () => {
    await proxy.start()
    await expect.poll(async () => (await timed('/api/golf-carts')).res.status, { timeout: 10_000, interval: 250 }).toBe(200)
    proxy.freeze()
    // The rate-limit count is the submission's first statement; it is what the freeze catches.
    const { res, ms, body } = await submit('frozen@example.com')
    expect(res.status).toBe(503)
    expect(ms).toBeLessThan(2000)
    expect(JSON.parse(body).message).toMatch(/^Your message was not sent/)
  })

  it('bounds a lead caught mid-write at the write deadline, and says it could not be confirmed', async () => {
    await proxy.start()
    await expect.poll(async () => (await timed('/api/golf-carts', undefined, unlimitedUrl)).res.status, { timeout: 10_000, interval: 250 }).toBe(200)
    proxy.freeze()
    const { res, ms, body } = await submit('frozen-write@example.com', unlimitedUrl)
    expect(res.status).toBe(503)
    expect(ms).toBeGreaterThan(writeDeadlineMs - 100)
    expect(ms).toBeLessThan(writeDeadlineMs + 1000)
    expect(JSON.parse(body).message).toMatch(/^We could not confirm that your message arrived/)
  }, 15_000)

  it('recovers without a restart once the database is back', async () => {
    await proxy.start()
    await expect
      .poll(async () => (await timed('/api/golf-carts')).res.status, { timeout: 10_000, interval: 250 })
      .toBe(200)
    expect((await submit('back@example.com')).res.status).toBe(201)
    expect((await timed('/')).res.status).toBe(200)
    expect((await timed('/readyz')).res.status).toBe(200)
    const rows = await admin.sql`select email from contact_inquiries where email in ('down@example.com', 'silent@example.com', 'frozen@example.com', 'back@example.com')`
    expect(rows.map((r) => r.email)).toEqual(['back@example.com'])
  })
})
