import { afterEach, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../db/database.ts'
import { migrate } from '../db/migrate.ts'
import { seed } from '../carts/seed.ts'
import { createInquiryStore, type NotificationKind } from '../inquiries/inquiry-store.ts'
import { createLogger } from '../log.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { startTcpProxy, type TcpProxy } from '../../tests/support/tcp-proxy.ts'
import { createMailer, type Mailer } from './mailer.ts'
import { type OutboxWorker, startOutboxWorker } from './outbox-worker.ts'

/**
 * The outbox under the attack of issue #11, point 3: a slow mail server and two workers, and a
 * database that blips right after the mail server accepted a message. Zero duplicates.
 */
const kinds: NotificationKind[] = ['dealer-email', 'crm-adf', 'visitor-confirmation']
const settings = { from: 'website@dealer.example', leadsTo: ['leads@dealer.example'], adfTo: ['crm@dealer.example'], siteUrl: 'https://carts.example' }

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

async function freshDatabase(backend: 'pglite' | 'postgres'): Promise<TestDatabase> {
  const db = await createTestDatabase(backend)
  cleanup.push(() => db.close())
  await migrate(db.sql)
  await seed(db.sql)
  return db
}

async function queueLeads(db: Database, count: number) {
  const inquiries = createInquiryStore(db.sql, { notifications: kinds })
  for (let i = 0; i < count; i++) {
    await inquiries.add({ firstName: `Lead${i}`, lastName: 'Slow', email: `lead${i}@example.com`, interest: '', elapsedMs: 9000 })
  }
}

function logged() {
  const lines: Record<string, unknown>[] = []
  return { lines, log: createLogger('debug', (line) => void lines.push(JSON.parse(line))) }
}

function worker(db: Database, mailer: Mailer, log: ReturnType<typeof logged>['log'], leaseMs: number, concurrency?: number): OutboxWorker {
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
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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
    worker(db, mailerA, log, 1000)
    worker(other, mailerB, log, 1000)
    await smtp.waitFor(12, 30_000)
    // Long enough for a lease that had lapsed to be claimed and sent again.
    await settle(2500)
    expect(ids(smtp)).toHaveLength(12)
    expect(new Set(ids(smtp)).size).toBe(12)
    const [{ unsent }] = await db.sql<[{ unsent: number }]>`select count(*)::int as unsent from outbox_messages where sent_at is null`
    expect(unsent).toBe(0)
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
        await settle(150)
        inHand--
        sent.push(message.messageId)
      },
      close() {},
    }
    const { log } = logged()
    worker(db, slowMailer, log, 5000, 3)
    await expect.poll(() => sent.length, { timeout: 20_000 }).toBe(12)
    await settle(300)
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

    // The first message the mail server accepts cuts this worker's database for one second.
    const real = createMailer({ smtpUrl: smtp.url })!
    let blipped = false
    const mailer: Mailer = {
      ...real,
      async send(message) {
        await real.send(message)
        if (blipped) return
        blipped = true
        await proxy.stop()
        setTimeout(() => void proxy.start(), 1000)
      },
    }
    const { lines, log } = logged()
    worker(blipping, mailer, log, 3000)
    await expect.poll(() => blipped, { timeout: 10_000 }).toBe(true)
    // A second process, with a database that never blipped, takes any claim that lapses.
    worker(db, createMailer({ smtpUrl: smtp.url })!, createLogger('silent'), 3000)

    await smtp.waitFor(3, 20_000)
    await expect
      .poll(async () => (await db.sql`select count(*)::int as n from outbox_messages where sent_at is null`)[0]?.n, { timeout: 15_000 })
      .toBe(0)
    // Longer than the lease: a claim left behind would have been taken and sent again by now.
    await settle(4000)
    expect(ids(smtp)).toHaveLength(3)
    expect(new Set(ids(smtp)).size).toBe(3)
    const retried = lines.filter((l) => l.msg === 'lead notification sent; recording it failed, trying again')
    expect(retried.length).toBeGreaterThan(0)
    expect(retried.every((l) => l.step === 'database')).toBe(true)
    expect(lines.filter((l) => l.msg === 'lead notification failed')).toEqual([])
  }, 60_000)
})
