import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { templateDataDir } from '../../tests/support/database-templates.ts'
import { startPushService, type PushService } from '../../tests/support/push-service.ts'
import { logLines } from '../../tests/support/running-server.ts'
import { npmCommandArgs, startServerProcess, type ServerProcess } from '../../tests/support/server-process.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { signedInClient, staffPassword } from '../../tests/support/staff.ts'
import { backends, createTestDatabase } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Lead alerts (issue #28, point 3; PRODUCT.md "lead alerts"): within 10 seconds of a lead, an email
 * with a link to it and a Web Push notification on every browser where its person turned alerts
 * on, through the outbox; a browser the push service says is gone (410) is removed.
 */
const post = (url: string, body: Record<string, unknown>) =>
  fetch(`${url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe.each(backends)('lead alerts on %s', (backend) => {
  let push: PushService
  let smtp: SmtpSink
  let server: TestServer

  beforeAll(async () => {
    push = await startPushService()
    smtp = await startSmtpSink()
    server = await startTestServer(
      backend,
      { SMTP_URL: smtp.url, LEADS_TO: 'leads@dealer.example', PUSH_SERVICE_HOSTS: push.host, OUTBOX_POLL_MS: '100', OUTBOX_RETRY_BASE_MS: '100', LOG_LEVEL: 'silent' },
      { pushAgent: push.agent },
    )
    await server.runtime.services.staff.accounts.add('maria', staffPassword, { role: 'sales', email: 'maria@dealer.example' })
  })
  afterAll(async () => {
    // The push service first: pushes it holds unanswered fail at once, and the server stops at once.
    await push?.stop()
    await server?.close()
    await smtp?.stop()
  })

  it('pushes a new lead to every browser of its person as it arrives, and emails them a link to it', async () => {
    const { client } = await signedInClient(server, 'maria')
    const { publicKey } = await client.staff.alerts.publicKey.query()
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65)
    // Made once and kept: a second process on the database signs with the same key.
    expect((await client.staff.alerts.publicKey.query()).publicKey).toBe(publicKey)
    expect(await client.staff.alerts.subscribe.mutate(push.subscribe('phone'))).toEqual({ browsers: 1 })
    expect(await client.staff.alerts.subscribe.mutate(push.subscribe('desk'))).toEqual({ browsers: 2 })

    const res = await post(server.url, { firstName: 'Pat', lastName: 'Quinn', email: 'pat@example.com', phone: '609-555-0100', interest: 'denago' })
    expect(res.status).toBe(201)
    const { id } = (await res.json()) as { id: number }
    await expect.poll(() => push.received.filter((p) => p.payload.url === `/staff/leads/${id}`).length, { timeout: 10_000 }).toBe(2)
    const pushes = push.received.filter((p) => p.payload.url === `/staff/leads/${id}`)
    expect(pushes.map((p) => p.subscription).sort()).toEqual(['desk', 'phone'])
    for (const one of pushes) {
      expect(one.payload.title).toBe(`New lead #${id}: Pat Quinn`)
      expect(one.headers.topic).toBe(`lead-${id}`)
      expect(one.headers.urgency).toBe('high')
      expect(String(one.headers.authorization)).toMatch(new RegExp(`^vapid t=.+, k=${publicKey}$`))
    }
    const email = await expect
      .poll(() => smtp.messages.find((m) => m.subject === `New lead #${id}: Pat Quinn`), { timeout: 10_000 })
      .toBeDefined()
      .then(() => smtp.messages.find((m) => m.subject === `New lead #${id}: Pat Quinn`)!)
    expect(email.to?.map((t) => t.address)).toEqual(['maria@dealer.example'])
    expect(email.text).toContain(`/staff/leads/${id}`)
    expect(await client.staff.alerts.newLeads.query()).toMatchObject({ count: expect.any(Number) })
  })

  it('removes a browser whose push service answers 410 Gone or 404, and sends the others as before', async () => {
    const { client } = await signedInClient(server, 'maria')
    await client.staff.alerts.subscribe.mutate(push.subscribe('old-tablet', 410))
    await client.staff.alerts.subscribe.mutate(push.subscribe('old-laptop', 404))
    const before = push.received.length
    const res = await post(server.url, { firstName: 'Gone', lastName: 'Tablet', email: 'gone@example.com' })
    const { id } = (await res.json()) as { id: number }
    await expect.poll(() => push.received.length - before, { timeout: 10_000 }).toBe(2)
    await expect
      .poll(async () => (await server.db.sql`select 1 from push_subscriptions where endpoint like ${'%/push/old-%'}`).length, { timeout: 10_000 })
      .toBe(0)
    // The outbox rows are settled after the push service has answered: polled, as the two above.
    const unsent = async () => [...(await server.db.sql`select kind from outbox_messages where inquiry_id = ${id} and sent_at is null and kind like ${'%push'}`)]
    await expect.poll(unsent, { timeout: 10_000 }).toEqual([])
  })

  it('sends each lead’s dealer email within 5 seconds while 20 browsers’ push services never answer', async () => {
    for (const username of ['sam', 'lee']) {
      await server.runtime.services.staff.accounts.add(username, staffPassword, { role: 'sales', email: `${username}@dealer.example` })
    }
    // Every account of the site takes leads (no routing set), and has silent browsers: 20 in all,
    // at most 10 an account (maria keeps her two working ones besides).
    const accounts = (await server.db.sql<{ username: string }[]>`select username from users where not disabled order by id`).map((a) => a.username)
    expect(accounts).toEqual(['maria', 'sam', 'lee'])
    const clients = await Promise.all(accounts.map(async (username) => (await signedInClient(server, username)).client))
    for (let i = 0; i < 20; i++) await clients[i % clients.length]!.staff.alerts.subscribe.mutate(push.subscribe(`silent-${i}`, 'never'))
    const [{ browsers }] = await server.db.sql<[{ browsers: number }]>`select max(n)::int as browsers from (select count(*) as n from push_subscriptions group by user_id) counts`
    expect(browsers).toBeLessThanOrEqual(10)

    const dealerEmail = (lastName: string) =>
      smtp.messages.find((m) => m.to?.some((to) => to.address === 'leads@dealer.example') && m.subject?.startsWith(`New lead: Silent ${lastName}`))
    const waiting = () => push.held.filter((held) => held.open).length
    for (const lastName of ['One', 'Two', 'Three']) {
      const res = await post(server.url, { firstName: 'Silent', lastName, email: `silent.${lastName.toLowerCase()}@example.com` })
      expect(res.status).toBe(201)
      await expect.poll(() => dealerEmail(lastName), { timeout: 10_000, interval: 20 }).toBeDefined()
      // The first lead's pushes are held, unanswered, by the time the next lead arrives: the
      // next leads' emails go while every push lane waits on a push service that never answers.
      if (lastName === 'One') await expect.poll(waiting, { timeout: 5000, interval: 20 }).toBeGreaterThanOrEqual(8)
      else expect(waiting()).toBeGreaterThanOrEqual(8)
    }
  })
})

describe('a lead alert across a crash (kill -9 between storing the lead and sending its push)', () => {
  const running: ServerProcess[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')))
  })

  it.each(backends)('is delivered exactly once after the restart, on %s', async (backend) => {
    const push = await startPushService()
    const subscription = push.subscribe('phone')
    // The push service is down while the lead is stored: nothing can be sent before the kill.
    await push.stop()
    const database = backend === 'postgres' ? await createTestDatabase('postgres') : undefined
    const env: Record<string, string> = {
      // Not a story of a fresh folder: the embedded database starts from the template (no initdb).
      DATA_DIR: backend === 'pglite' ? templateDataDir('gc-alerts-') : mkdtempSync(join(tmpdir(), 'gc-alerts-')),
      ...(database?.url ? { DATABASE_URL: database.url } : {}),
      NODE_EXTRA_CA_CERTS: push.caFile,
      PUSH_SERVICE_HOSTS: push.host,
      OUTBOX_POLL_MS: '100',
      OUTBOX_RETRY_BASE_MS: '100',
      // A claim the killed process held lapses after 3 s instead of a minute.
      OUTBOX_LEASE_MS: '3000',
    }
    try {
      const first = await startServerProcess(env)
      running.push(first)
      await promisify(execFile)(process.execPath, npmCommandArgs('staff', ['add', 'maria', '--email', 'maria@dealer.example']), {
        env: { ...process.env, ...env, STAFF_PASSWORD: staffPassword },
      })
      const { client } = await signedInClient({ url: first.url } as TestServer, 'maria')
      await client.staff.alerts.subscribe.mutate(subscription)
      const res = await post(first.url, { firstName: 'Crash', lastName: 'Test', email: 'crash@example.com' })
      expect(res.status).toBe(201)
      const { id } = (await res.json()) as { id: number }
      await first.stop('SIGKILL')

      await push.start()
      const second = await startServerProcess(env)
      running.push(second)
      // On PostgreSQL another process may be alive, so a claim the killed one held waits out its
      // lease instead of being released at start.
      await expect.poll(() => push.received.length, { timeout: 20_000 }).toBe(1).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${first.output().slice(-3000)}\n${second.output().slice(-3000)}`)
      })
      // Recorded sent by the one process left: no claim can take it again.
      await expect.poll(() => logLines(second.output(), 'lead notification sent').filter((l) => l.kind === 'staff-push').length).toBe(1)
      expect(push.received.map((p) => p.payload.url)).toEqual([`/staff/leads/${id}`])
    } finally {
      await push.stop()
      await database?.close()
    }
  }, 180_000)
})
