import { afterEach, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../db/database.ts'
import { createInquiryStore, type NotificationKind } from '../inquiries/inquiry-store.ts'
import { createLogger } from '../log.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { startTcpProxy, type TcpProxy } from '../../tests/support/tcp-proxy.ts'
import { createMailer, type Mailer } from './mailer.ts'
import { type OutboxWorker, type OutboxWorkerOptions, startOutboxWorker } from './outbox-worker.ts'
import type { PushSender } from './web-push.ts'
import { createAlertDispatch } from '../alerts/alert-dispatch.ts'
import { createWatchMessages } from '../alerts/alert-messages.ts'

/**
 * The outbox under the attack of issue #11, point 3: a slow mail server and two workers, and a
 * database that blips right after the mail server accepted a message. Zero duplicates.
 */
const kinds: NotificationKind[] = ['dealer-email', 'crm-adf', 'visitor-confirmation']
const settings = { from: 'website@dealer.example', leadsTo: ['leads@dealer.example'], adfTo: ['crm@dealer.example'], siteUrl: 'https://carts.example', mark: '0123456789abcdef' }

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function freshDatabase(backend: 'pglite' | 'postgres'): Promise<TestDatabase> {
  const db = await createTestDatabase(backend, 'seeded')
  cleanup.push(() => db.close())
  return db
}

async function queueLeads(db: Database, count: number, notifications = kinds) {
  const inquiries = createInquiryStore(db.sql, { notifications })
  for (let i = 0; i < count; i++) {
    await inquiries.add({ firstName: `Lead${i}`, lastName: 'Slow', email: `lead${i}@example.com`, interest: '', elapsedMs: 9000 })
  }
}

function logged() {
  const lines: Record<string, unknown>[] = []
  return { lines, log: createLogger('debug', (line) => void lines.push(JSON.parse(line))) }
}

function worker(
  db: Database,
  mailer: Mailer,
  log: ReturnType<typeof logged>['log'],
  leaseMs: number,
  concurrency?: number,
  more: Partial<OutboxWorkerOptions> = {},
): OutboxWorker {
  const started = startOutboxWorker({
    concurrency,
    sql: db.sql,
    mailer,
    // These tests' leads queue no staff alerts (no account takes leads): nothing is pushed.
    pusher: { send: () => Promise.reject(new Error('no push service in this test')) },
    inquiries: createInquiryStore(db.sql),
    settings,
    log,
    pollMs: 50,
    retryBaseMs: 100,
    leaseMs,
    ...more,
  })
  cleanup.push(() => started.stop())
  return started
}

async function sink(delayMs = 0): Promise<SmtpSink> {
  const started = await startSmtpSink({ delayMs })
  cleanup.push(() => started.stop())
  return started
}

const ids = (smtp: SmtpSink) => smtp.messages.map((m) => m.messageId)
const unsent = async (db: Database) => (await db.sql<[{ n: number }]>`select count(*)::int as n from outbox_messages where sent_at is null`)[0].n

/**
 * Every message recorded sent, then the workers stopped (a stop waits for the sends in hand): no
 * message can be claimed or sent again after this, so what the mail server has is all it gets.
 */
async function allSentAndStopped(db: Database, workers: OutboxWorker[]) {
  await expect.poll(() => unsent(db), { timeout: 15_000 }).toBe(0)
  await Promise.all(workers.map((w) => w.stop()))
}

describe.each(backends)('the outbox on %s', (backend) => {
  it('sends every message exactly once when two workers share a mail server slower than their lease', async () => {
    const db = await freshDatabase(backend)
    await queueLeads(db, 4)
    // Each message takes longer to accept than a claim's lease: only renewing keeps it.
    const smtp = await sink(1500)
    const { log } = logged()
    // On PostgreSQL the second worker has a pool of its own, as a second process would.
    const other = backend === 'postgres' ? await openDatabase({ databaseUrl: db.url!, dataDir: null }) : db
    if (other !== db) cleanup.push(() => other.close())
    const mailerA = createMailer({ smtpUrl: smtp.url })!
    const mailerB = createMailer({ smtpUrl: smtp.url })!
    // A lease of a second, renewed every third of it: a renewal can be up to 2/3 s late on a
    // loaded machine (each worker has several messages in hand) before the claim lapses.
    const workers = [worker(db, mailerA, log, 1000), worker(other, mailerB, log, 1000)]
    await smtp.waitFor(12, 30_000)
    // A lease that had lapsed would have had its message sent again by a worker still in hand.
    await allSentAndStopped(db, workers)
    expect(ids(smtp)).toHaveLength(12)
    expect(new Set(ids(smtp)).size).toBe(12)
  }, 60_000)

  it('sends a burst several messages at a time, never more than its bound, each once', async () => {
    const db = await freshDatabase(backend)
    await queueLeads(db, 4)
    let inHand = 0
    let most = 0
    const sent: string[] = []
    const slowMailer: Mailer = {
      description: 'a mail server that takes 150 ms a message',
      async send(message) {
        most = Math.max(most, ++inHand)
        // Held until three are in hand (or, once fewer are left, the last ones): the bound is reached, never passed.
        await expect.poll(() => inHand >= Math.min(3, 12 - sent.length), { timeout: 10_000, interval: 20 }).toBe(true)
        inHand--
        sent.push(message.messageId)
      },
      close() {},
    }
    const { log } = logged()
    const started = worker(db, slowMailer, log, 5000, 3)
    await expect.poll(() => sent.length, { timeout: 20_000 }).toBe(12)
    await allSentAndStopped(db, [started])
    expect(sent).toHaveLength(12)
    expect(new Set(sent).size).toBe(12)
    // One at a time would be 1; the bound is 3.
    expect(most).toBe(3)
  })

  it('says the mail server failed when it did', async () => {
    const db = await freshDatabase(backend)
    await queueLeads(db, 1)
    const smtp = await sink()
    await smtp.stop()
    const { lines, log } = logged()
    worker(db, createMailer({ smtpUrl: smtp.url })!, log, 5000)
    await expect.poll(() => lines.find((l) => l.msg === 'lead notification failed'), { timeout: 10_000 }).toMatchObject({ step: 'mail server' })
    // Recorded just after it is logged (and the lead's three messages fail side by side).
    const failed = lines.find((l) => l.msg === 'lead notification failed')!.outboxId as number
    const lastError = async () => (await db.sql<{ lastError: string | null }[]>`select last_error from outbox_messages where id = ${failed}`)[0]?.lastError
    await expect.poll(lastError).toMatch(/^mail server: .*(ECONNREFUSED|connect)/i)
  })

  it('sends every waiting email as soon as the mail server answers again, each once (issue #48, point 4)', async () => {
    const db = await freshDatabase(backend)
    const smtp = await sink()
    await smtp.stop()
    // Twenty leads during the outage, each one's dealer email.
    await queueLeads(db, 20, ['dealer-email'])
    const { lines, log } = logged()
    // Half a second's backoff, doubling, stands for the default 30 s.
    const started = worker(db, createMailer({ smtpUrl: smtp.url })!, log, 5000, undefined, { retryBaseMs: 500 })
    // Every message has failed three times: each one's next try is 2 s away, one of them's within half a second.
    const failedThreeTimes = async () =>
      (await db.sql<[{ n: number }]>`select count(*)::int as n from outbox_messages where sent_at is null and attempts >= 3 and claimed_until is null`)[0].n
    await expect.poll(failedThreeTimes, { timeout: 40_000, interval: 50 }).toBe(20)
    await smtp.start()
    await smtp.waitFor(20, 20_000)
    await allSentAndStopped(db, [started])
    expect(ids(smtp)).toHaveLength(20)
    expect(new Set(ids(smtp)).size).toBe(20)
    // The first email through made the others due at once, rather than each at the end of its backoff.
    const answered = lines.filter((l) => l.msg === 'mail server answers again: waiting emails sent now')
    expect(answered.length).toBeGreaterThan(0)
    expect(answered.reduce((n, l) => n + Number(l.waiting), 0)).toBeGreaterThan(0)
  }, 60_000)

  it('gives up a push whose service never answers after its tries, and keeps its browser until it has failed for a day', async () => {
    const db = await freshDatabase(backend)
    const [ann] = await db.sql<[{ id: number }]>`
      insert into users (username, password_hash, role, email) values ('ann', 'scrypt$x', 'sales', 'ann@dealer.example') returning id
    `
    const endpoint = (name: string) => `https://push.example/${name}`
    const keys = { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' }
    for (const name of ['silent-1', 'silent-2', 'silent-3', 'working', 'silent-for-a-day']) {
      await db.sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth) values (${ann.id}, ${endpoint(name)}, ${keys.p256dh}, ${keys.auth})`
    }
    await db.sql`update push_subscriptions set failing_since = now() - interval '25 hours' where endpoint = ${endpoint('silent-for-a-day')}`
    const tries = new Map<string, number>()
    let delivered = 0
    const pusher: PushSender = {
      send(target) {
        tries.set(target.endpoint, (tries.get(target.endpoint) ?? 0) + 1)
        if (target.endpoint === endpoint('working')) {
          delivered++
          return Promise.resolve()
        }
        return new Promise(() => {})
      },
    }
    const sent: string[] = []
    const mailer: Mailer = { description: 'a mail server that answers', send: async (message) => void sent.push(message.messageId), close() {} }
    await queueLeads(db, 2)
    const { lines, log } = logged()
    worker(db, mailer, log, 5000, undefined, { pusher, pushTimeoutMs: 200, pushTries: 3, retryBaseMs: 100 })

    // Each lead's three messages and ann's email.
    await expect.poll(() => sent.length, { timeout: 10_000 }).toBe(8)
    const unsentPushes = async () => (await db.sql<[{ n: number }]>`select count(*)::int as n from outbox_messages where sent_at is null and kind = 'staff-push'`)[0].n
    await expect.poll(unsentPushes, { timeout: 20_000 }).toBe(0)
    expect(delivered).toBe(2)
    // Three tries of each lead's push, no more; the browser that failed for a day was removed at
    // its first failure (each lead's push to it tried once at most: both may be in hand at once).
    for (const name of ['silent-1', 'silent-2', 'silent-3']) expect(tries.get(endpoint(name))).toBe(6)
    expect(tries.get(endpoint('silent-for-a-day'))).toBeLessThanOrEqual(2)
    expect(lines.filter((l) => l.msg === 'push given up')).toHaveLength(6)
    expect(lines.filter((l) => l.msg === 'push subscription removed: its push service failed for a day').length).toBeGreaterThanOrEqual(1)
    const left = await db.sql<{ endpoint: string; failing: boolean }[]>`
      select endpoint, failing_since is not null as failing from push_subscriptions order by endpoint
    `
    expect(left).toEqual([
      ...['silent-1', 'silent-2', 'silent-3'].map((name) => ({ endpoint: endpoint(name), failing: true })),
      { endpoint: endpoint('working'), failing: false },
    ])
    const failed = lines.find((l) => l.msg === 'lead notification failed' && l.step === 'push service')
    expect(failed?.error).toMatch(/did not answer within 200 ms/)
  }, 60_000)

  it('sends a lead’s dealer email ahead of the 600 price alerts going out, and each alert once', async () => {
    const db = await freshDatabase(backend)
    const [cart] = await db.sql<{ id: number; price: number }[]>`
      select id, price::float8 as price from golf_carts where status = 'available' order by id limit 1
    `
    await db.sql`
      insert into cart_watches (email, cart_id, unsubscribe_token, confirmed_at, told_price, told_status)
      select 'watcher' || i || '@example.com', ${cart!.id}, md5(i::text) || md5(random()::text), now(), ${cart!.price}, 'available'
      from generate_series(1, 600) as i
    `
    // The price drop as the database records it (migration 0040's trigger), then the dispatch's 600 rows.
    await db.sql`update golf_carts set price = price - 500 where id = ${cart!.id}`
    expect((await createAlertDispatch(db.sql).run()).alerts).toBe(600)
    const smtp = await sink()
    const { log } = logged()
    const watches = createWatchMessages(db.sql, { similar: () => Promise.resolve([]) }, settings)
    const started = worker(db, createMailer({ smtpUrl: smtp.url }, { connections: 8 })!, log, 60_000, undefined, { watches })
    const alerts = () => smtp.messages.filter((m) => m.subject?.startsWith('Price drop'))
    await expect.poll(() => alerts().length, { timeout: 30_000, interval: 20 }).toBeGreaterThan(0)
    // A lead arrives while the alerts are being sent, and is not queued behind them: alerts are
    // still being sent after its email went.
    await queueLeads(db, 1, ['dealer-email'])
    expect(alerts().length).toBeLessThan(600)
    started.kick()
    const leadEmail = () => smtp.messages.findIndex((m) => m.to?.some((t) => t.address === 'leads@dealer.example'))
    await smtp.waitFor(601, 120_000)
    expect(leadEmail()).toBeGreaterThanOrEqual(0)
    expect(smtp.messages.slice(leadEmail()).filter((m) => m.subject?.startsWith('Price drop')).length).toBeGreaterThan(0)
    await started.checkNow()
    expect(alerts()).toHaveLength(600)
    expect(new Set(alerts().map((m) => m.to?.[0]?.address)).size).toBe(600)
    expect(await unsent(db)).toBe(0)
  }, 180_000)
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('the outbox when the database blips after the mail server accepted', () => {
  it('records the message once the database is back and never sends it again, blaming the database', async () => {
    const db = await freshDatabase('postgres')
    await queueLeads(db, 1)
    const smtp = await sink()
    const direct = new URL(db.url!)
    const proxy: TcpProxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
    cleanup.push(() => proxy.close())
    const through = new URL(db.url!)
    through.host = `127.0.0.1:${proxy.port}`
    const blipping = await openDatabase({ databaseUrl: through.href, dataDir: null })
    cleanup.push(() => blipping.close())

    // The first message the mail server accepts cuts this worker's database, until it has tried to record it.
    const real = createMailer({ smtpUrl: smtp.url })!
    let blipped = false
    const mailer: Mailer = {
      ...real,
      async send(message) {
        await real.send(message)
        if (blipped) return
        blipped = true
        await proxy.stop()
      },
    }
    const { lines, log } = logged()
    const retried = () => lines.filter((l) => l.msg === 'lead notification sent; recording it failed, trying again')
    const cutOff = worker(blipping, mailer, log, 3000)
    await expect.poll(() => blipped, { timeout: 10_000 }).toBe(true)
    // A second process, with a database that never blipped, takes any claim that lapses.
    const steady = worker(db, createMailer({ smtpUrl: smtp.url })!, createLogger('silent'), 3000)
    await expect.poll(() => retried().length, { timeout: 10_000 }).toBeGreaterThan(0)
    await proxy.start()

    await smtp.waitFor(3, 20_000)
    // A claim left behind would have been taken and its message sent again by a worker still in hand.
    await allSentAndStopped(db, [cutOff, steady])
    expect(ids(smtp)).toHaveLength(3)
    expect(new Set(ids(smtp)).size).toBe(3)
    expect(retried().every((l) => l.step === 'database')).toBe(true)
    // Another lane reading its next lead in the same second fails before sending anything and
    // tries again (step "reading the lead"); no message failed after the mail server took it.
    expect(lines.filter((l) => l.msg === 'lead notification failed' && l.step !== 'reading the lead')).toEqual([])
  }, 60_000)
})
