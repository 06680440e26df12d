import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Email } from 'postal-mime'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { templateDataDir } from '../../tests/support/database-templates.ts'
import { npmCommandArgs, type ServerProcess, startServerProcess } from '../../tests/support/server-process.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { signedInClient, staffPassword } from '../../tests/support/staff.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import type { TestServer } from '../../tests/support/test-server.ts'
import { openDatabase } from '../db/database.ts'
import { migrate } from '../db/migrate.ts'
import { seed } from '../carts/seed.ts'

/**
 * What watchers get, sent by real server processes (PRODUCT.md, "what watchers get"): a price
 * lowered through the console of one process, a bulk change through another and an import by
 * `npm run inventory` each reach the watcher once, within the 60 seconds the product promises,
 * whichever process sends it; and an alert queued when a process is killed (kill -9) goes out
 * once after the restart. The dispatch's poll is short here (ALERT_POLL_MS) so no test waits a
 * minute; the path is the one production runs: the trigger, the dispatch, the outbox, SMTP.
 */
const run = promisify(execFile)
/** PRODUCT.md: "within 60 seconds of the change". */
const promised = 60_000

const mailTo = (smtp: SmtpSink, address: string) => smtp.messages.filter((m: Email) => m.to?.some((t) => t.address === address))
/** A link in an email, on the process the test talks to (the email names SITE_URL). */
const linkOn = (server: ServerProcess, email: Email, path: string) => {
  const found = new RegExp(`https?://[^\\s]+(${path.replace('/', '\\/')}\\?token=[\\w-]+)`).exec(email.text ?? '')
  if (!found) throw new Error(`no ${path} link in: ${email.text}`)
  return `${server.url}${found[1]}`
}
const form = (origin: string) => ({ method: 'POST', redirect: 'manual' as const, headers: { 'content-type': 'application/x-www-form-urlencoded', origin }, body: '' })

/** Asks for a price alert through `server`'s API and follows its confirmation link. */
async function watchCart(server: ServerProcess, smtp: SmtpSink, email: string, cartId: number) {
  const res = await fetch(`${server.url}/api/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, cartId }) })
  expect(res.status).toBe(202)
  await expect.poll(() => mailTo(smtp, email).length, { timeout: 30_000 }).toBe(1)
  const confirmed = await fetch(linkOn(server, mailTo(smtp, email)[0]!, '/alerts/confirm'), form(server.url))
  expect(confirmed.status).toBe(303)
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('alerts sent by two server processes on one PostgreSQL', () => {
  let db: TestDatabase
  let smtp: SmtpSink
  let first: ServerProcess
  let second: ServerProcess
  const folder = mkdtempSync(join(tmpdir(), 'gc-alert-import-'))

  beforeAll(async () => {
    smtp = await startSmtpSink()
    db = await createTestDatabase('postgres')
    await migrate(db.sql)
    await seed(db.sql)
    const env = { DATABASE_URL: db.url!, SMTP_URL: smtp.url, LEADS_TO: 'leads@dealer.example', OUTBOX_POLL_MS: '200', ALERT_POLL_MS: '500', LOG_LEVEL: 'info' }
    ;[first, second] = await Promise.all([startServerProcess(env), startServerProcess(env)])
    await run(process.execPath, npmCommandArgs('staff', ['add', 'maria', '--role', 'manager']), {
      env: { ...process.env, DATABASE_URL: db.url!, STAFF_PASSWORD: staffPassword, LOG_LEVEL: 'silent' },
    })
  }, 180_000)
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()])
    await db?.close()
    await smtp?.stop()
    rmSync(folder, { recursive: true, force: true })
  })

  const listed = async (offset: number) =>
    (await db.sql<{ id: number; title: string; price: number; stockNumber: string; description: string }[]>`
      select id, title, price::float8 as price, stock_number, description from golf_carts where status = 'available' order by id offset ${offset} limit 1
    `)[0]!
  /** Everything about watches is done: no change unclaimed, nothing queued unsent. So nothing more will arrive. */
  const settled = async () => {
    const [row] = await db.sql<[{ events: number; unsent: number }]>`
      select (select count(*)::int from cart_alert_events where handled_at is null) as events,
             (select count(*)::int from outbox_messages where watch_id is not null and sent_at is null) as unsent
    `
    return row
  }
  const alertsTo = (email: string) => mailTo(smtp, email).filter((m) => !m.subject?.startsWith('Confirm'))

  it('tells a watcher once of a price lowered through one process’s console, within 60 seconds', async () => {
    const cart = await listed(0)
    await watchCart(second, smtp, 'console@example.com', cart.id)
    const { client } = await signedInClient({ url: first.url } as TestServer, 'maria')
    await client.staff.cart.setPrice.mutate({ id: cart.id, price: cart.price - 300 })
    await expect.poll(() => alertsTo('console@example.com').length, { timeout: promised }).toBe(1)
    await expect.poll(settled, { timeout: 10_000 }).toEqual({ events: 0, unsent: 0 })
    expect(alertsTo('console@example.com').map((m) => m.subject)).toEqual([`Price drop: ${cart.title}, now $${(cart.price - 300).toLocaleString('en-US')}`])
    expect((await client.staff.cart.get.query({ id: cart.id })).watchers).toBe(1)
  }, 120_000)

  it('tells a watcher once of a hold a bulk change ended through the other process', async () => {
    const cart = await listed(1)
    const { client } = await signedInClient({ url: second.url } as TestServer, 'maria')
    await client.staff.cart.saveMany.mutate({ ids: [cart.id], status: 'hold' })
    await watchCart(first, smtp, 'bulk@example.com', cart.id)
    await client.staff.cart.saveMany.mutate({ ids: [cart.id], status: 'available' })
    await expect.poll(() => alertsTo('bulk@example.com').length, { timeout: promised }).toBe(1)
    await expect.poll(settled, { timeout: 10_000 }).toEqual({ events: 0, unsent: 0 })
    expect(alertsTo('bulk@example.com').map((m) => m.subject)).toEqual([`Available again: ${cart.title}`])
  }, 120_000)

  it('tells a watcher once of a price lowered by `npm run inventory`, a process of its own', async () => {
    const cart = await listed(2)
    await watchCart(first, smtp, 'import@example.com', cart.id)
    const file = join(folder, 'prices.csv')
    writeFileSync(file, `stockNumber,title,description,price,status\n${cart.stockNumber},${cart.title},"${cart.description.replaceAll('"', '""')}",${cart.price - 700},available\n`)
    const imported = await run(process.execPath, npmCommandArgs('inventory', ['import', file]), {
      env: { ...process.env, DATABASE_URL: db.url!, LOG_LEVEL: 'silent' },
    })
    expect(imported.stdout).toContain('Imported: 0 added, 1 changed')
    await expect.poll(() => alertsTo('import@example.com').length, { timeout: promised }).toBe(1)
    await expect.poll(settled, { timeout: 10_000 }).toEqual({ events: 0, unsent: 0 })
    expect(alertsTo('import@example.com')[0]!.subject).toBe(`Price drop: ${cart.title}, now $${(cart.price - 700).toLocaleString('en-US')}`)
  }, 120_000)
})

describe('an alert across a crash (kill -9 between the change and the send)', () => {
  const running: ServerProcess[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')))
  })

  it.each(backends)('is delivered exactly once after the restart, on %s', async (backend) => {
    const smtp = await startSmtpSink()
    const database = backend === 'postgres' ? await createTestDatabase('postgres', 'seeded') : undefined
    const dataDir = backend === 'pglite' ? templateDataDir('gc-alert-crash-') : mkdtempSync(join(tmpdir(), 'gc-alert-crash-'))
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      ...(database?.url ? { DATABASE_URL: database.url } : {}),
      SMTP_URL: smtp.url,
      LEADS_TO: 'leads@dealer.example',
      OUTBOX_POLL_MS: '100',
      OUTBOX_RETRY_BASE_MS: '100',
      ALERT_POLL_MS: '200',
      // On PostgreSQL a claim the killed process held lapses after 3 s instead of a minute.
      OUTBOX_LEASE_MS: '3000',
    }
    try {
      const server = await startServerProcess(env)
      running.push(server)
      await run(process.execPath, npmCommandArgs('staff', ['add', 'maria', '--role', 'manager']), {
        env: { ...process.env, ...env, STAFF_PASSWORD: staffPassword, LOG_LEVEL: 'silent' },
      })
      const [cart] = (await (await fetch(`${server.url}/api/golf-carts?limit=1`)).json()) as { id: number; title: string; price: number }[]
      await watchCart(server, smtp, 'crash@example.com', cart!.id)
      // The mail server goes down; the price drops; the alert is queued and its first send fails.
      await smtp.stop()
      const { client } = await signedInClient({ url: server.url } as TestServer, 'maria')
      await client.staff.cart.setPrice.mutate({ id: cart!.id, price: cart!.price - 900 })
      await expect.poll(() => /"msg":"lead notification failed"[^\n]*"kind":"watch-alert"/.test(server.output()), { timeout: 30_000 }).toBe(true)
      await server.stop('SIGKILL')

      await smtp.start()
      const again = await startServerProcess(env)
      running.push(again)
      await expect.poll(() => mailTo(smtp, 'crash@example.com').length, { timeout: 30_000 }).toBe(2)
      // Stopped cleanly, the database says nothing is left to send: nothing more can arrive.
      expect(await again.stop('SIGTERM')).toBe(0)
      const db = database ?? (await openDatabase({ dataDir }))
      try {
        const left = await db.sql`select kind, sent_at from outbox_messages where watch_id is not null and sent_at is null`
        expect(left).toEqual([])
        expect((await db.sql`select 1 from cart_alert_events where handled_at is null`).length).toBe(0)
      } finally {
        if (!database) await db.close()
      }
      expect(mailTo(smtp, 'crash@example.com').map((m) => m.subject)).toEqual([
        `Confirm your price alert: ${cart!.title}`,
        `Price drop: ${cart!.title}, now $${(cart!.price - 900).toLocaleString('en-US')}`,
      ])
    } finally {
      await smtp.stop()
      await database?.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 180_000)
})
