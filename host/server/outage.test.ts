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
import { type Deadlines, productionDeadlines } from '../../api/db/unavailable.ts'
import { staffPassword } from '../../tests/support/staff.ts'

/**
 * The PostgreSQL server's own database, reached through a proxy the test controls: the server
 * under test sees the database go down, hang, and come back, and must never need a restart.
 *
 * No answer is timed (a busy machine makes any figure a guess). Where the answer must not wait
 * for a deadline (a database that refuses), the deadlines are held out of reach, so an answer at
 * all is the refusal's; where it must come from one (a database that hangs), the real deadlines
 * run and the order of answers shows which deadline ended each. Their lengths are tested with a
 * controlled clock in api/trpc/database-guard.test.ts.
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
  /** Both servers' database deadlines, the test's to set. */
  const deadlines: Deadlines = { ...productionDeadlines }
  const holdDeadlines = () => Object.assign(deadlines, { read: 600_000, write: 600_000 })
  const realDeadlines = () => Object.assign(deadlines, productionDeadlines)

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
    runtime = await createRuntime(db, env, log, { deadlines })
    const { mountSite } = await import('./site.ts')
    const { listener } = await createApp({ db, env, log, services: runtime.services, mountSite })
    server = createServer(listener).listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

    unlimitedDb = await openDatabase({ databaseUrl: through.href, dataDir: null })
    const unlimitedEnv = loadEnv({ PORT: '0', CACHE_MB: '0', LOG_LEVEL: 'silent', LEAD_RATE_LIMIT: '0' })
    unlimitedRuntime = await createRuntime(unlimitedDb, unlimitedEnv, log, { deadlines })
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

  const ask = async (path: string, init?: RequestInit, base = url) => {
    const res = await fetch(`${base}${path}`, init)
    // React separates interpolated text with empty comments; read the text as a visitor would.
    return { res, body: (await res.text()).replaceAll('<!-- -->', '') }
  }
  const submit = (email: string, base = url) =>
    ask(
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
    expect((await ask('/api/golf-carts')).res.status).toBe(200)
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

  it('answers API calls with 503 JSON at once while the database is down, waiting for no deadline', async () => {
    await proxy.stop()
    // Held out of reach until the database hangs below: every 503 until then is the refusal's.
    holdDeadlines()
    for (const path of ['/api/golf-carts', '/api/golf-carts/featured', '/api/golf-carts/slug/x', '/trpc/cart.list', '/readyz']) {
      const { res, body } = await ask(path)
      expect(res.status, path).toBe(503)
      const json = JSON.parse(body)
      expect(path.startsWith('/trpc') ? json.error.message : json.message, path).toEqual(expect.any(String))
      expect(body).not.toMatch(/ECONNREFUSED|stack|at .+\.ts/)
    }
    expect(JSON.parse((await ask('/readyz')).body).issues).toContainEqual({ path: 'database', message: 'The database is not answering.' })
  })

  it('stays alive for a balancer while the database is down: /healthz answers 200', async () => {
    expect((await ask('/healthz')).res.status).toBe(200)
  })

  it('tells the visitor a message was not sent, and stores nothing half-way', async () => {
    const { res, body } = await submit('down@example.com')
    expect(res.status).toBe(503)
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

  it('answers ten submissions at once with 503 while the database refuses', async () => {
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(`down${i}@example.com`)))
    for (const { res, body } of all) {
      expect(res.status).toBe(503)
      expect(JSON.parse(body).message).toMatch(/^Your message was not sent/)
    }
  })

  it('still answers pages, with what they can show and a clear message', async () => {
    const { res, body } = await ask('/')
    expect(res.status).toBe(503)
    expect(body).toContain("New Jersey&#x27;s Electric Golf Cart Dealer")
    expect(body).toContain('We couldn&#x27;t load the featured golf carts')
    const vehicle = await ask('/vehicle/2025-evolution-d6-max-gt4')
    expect(vehicle.res.status).toBe(503)
    expect(vehicle.body).toContain('We couldn&#x27;t load this golf cart')
    expect((await ask('/services')).res.status).toBe(200)
  })

  it('answers at the read deadline when the database hangs instead of refusing', async () => {
    await proxy.silence()
    // Alive without asking the silent database: answered while the deadlines are still held.
    const alive = await ask('/healthz')
    expect(alive.res.status).toBe(200)
    realDeadlines()
    for (const path of ['/api/golf-carts', '/readyz', '/']) {
      const { res } = await ask(path)
      expect(res.status, path).toBe(503)
    }
    // A submission's first statement (the rate-limit count) has the read deadline: "not sent",
    // never the write deadline's "could not confirm".
    const { res, body } = await submit('silent@example.com')
    expect(res.status).toBe(503)
    expect(JSON.parse(body).message).toMatch(/^Your message was not sent/)
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => submit(`silent${i}@example.com`)))
    for (const one of all) {
      expect(one.res.status).toBe(503)
      expect(JSON.parse(one.body).message).toMatch(/^Your message was not sent/)
    }
  })

  it('says "not sent" at the read deadline when the connection goes quiet before the lead is written', async () => {
    await proxy.start()
    await expect.poll(async () => (await ask('/api/golf-carts')).res.status, { timeout: 10_000, interval: 250 }).toBe(200)
    proxy.freeze()
    // The rate-limit count is the submission's first statement; it is what the freeze catches.
    const { res, body } = await submit('frozen@example.com')
    expect(res.status).toBe(503)
    expect(JSON.parse(body).message).toMatch(/^Your message was not sent/)
  })

  it('bounds a lead caught mid-write at the write deadline, and says it could not be confirmed', async () => {
    await proxy.start()
    await expect.poll(async () => (await ask('/api/golf-carts', undefined, unlimitedUrl)).res.status, { timeout: 10_000, interval: 250 }).toBe(200)
    proxy.freeze()
    // A read sent with it, on the same frozen database, ends at the read deadline: the write,
    // given longer, is answered after it.
    const answered: string[] = []
    const [write, read] = await Promise.all([
      submit('frozen-write@example.com', unlimitedUrl).finally(() => answered.push('write')),
      ask('/api/golf-carts', undefined, unlimitedUrl).finally(() => answered.push('read')),
    ])
    expect([read.res.status, write.res.status]).toEqual([503, 503])
    expect(answered).toEqual(['read', 'write'])
    expect(JSON.parse(write.body).message).toMatch(/^We could not confirm that your message arrived/)
  }, 15_000)

  it('recovers without a restart once the database is back', async () => {
    await proxy.start()
    await expect
      .poll(async () => (await ask('/api/golf-carts')).res.status, { timeout: 10_000, interval: 250 })
      .toBe(200)
    expect((await submit('back@example.com')).res.status).toBe(201)
    expect((await ask('/')).res.status).toBe(200)
    expect((await ask('/readyz')).res.status).toBe(200)
    const rows = await admin.sql`select email from contact_inquiries where email in ('down@example.com', 'silent@example.com', 'frozen@example.com', 'back@example.com')`
    expect(rows.map((r) => r.email)).toEqual(['back@example.com'])
  })
})
