import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPushService, type PushService } from '../../tests/support/push-service.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { staffPassword } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { createRuntime } from '../runtime.ts'
import { createContextInner } from '../trpc/context.ts'
import { createCaller } from '../trpc/router.ts'

/**
 * Follow-ups (issue #51; PRODUCT.md "follow-ups"): a task alerts its lead's owner at its due time,
 * by email and push, once, and not before. The time is given to the upkeep (as every process's
 * timer gives it the clock's), so the test stands before and at each due time. Two processes
 * looking at once alert each task once: the claim is in the database, which is also what leaves a
 * task a killed process never reached to the next start (a crash between the claim and the send
 * is the outbox's, api/leads/restart.test.ts and api/crash.test.ts).
 */
const post = (url: string, body: Record<string, unknown>) =>
  fetch(`${url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe.each(backends)('follow-ups on %s', (backend) => {
  let smtp: SmtpSink
  let push: PushService
  let server: TestServer

  beforeAll(async () => {
    ;[smtp, push] = await Promise.all([startSmtpSink(), startPushService()])
    server = await startTestServer(
      backend,
      {
        SMTP_URL: smtp.url,
        LEADS_TO: 'leads@dealer.example',
        PUSH_SERVICE_HOSTS: push.host,
        OUTBOX_POLL_MS: '100',
        OUTBOX_RETRY_BASE_MS: '100',
        LOG_LEVEL: 'silent',
      },
      { pushAgent: push.agent },
    )
  })
  afterAll(async () => {
    await push?.stop()
    await server?.close()
    await smtp?.stop()
  })

  it('a task alerts its lead’s owner at its time, by email and push, once, also when two processes look at once', { timeout: 120_000 }, async () => {
    const { staff } = server.runtime.services
    const maria = await staff.accounts.add('maria', staffPassword, { role: 'owner', email: 'maria@dealer.example' })
    const { token } = await staff.sessions.start(maria, {})
    const caller = createCaller(createContextInner(server.runtime.services, { staffToken: token, sameOrigin: true }))
    await caller.staff.alerts.subscribe(push.subscribe('phone'))
    const res = await post(server.url, { firstName: 'Call', lastName: 'Back', email: 'callback@example.com', phone: '(609) 555-0177' })
    const { id: leadId } = (await res.json()) as { id: number }
    await caller.staff.lead.assign({ id: leadId, ownerId: maria.id })

    // A due time that is not a time is refused beside its field; a lead that is not there is not found.
    await expect(caller.staff.task.create({ leadId, dueAt: 'Tuesday', note: 'x' })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await expect(caller.staff.task.create({ leadId: 999_999, dueAt: new Date().toISOString(), note: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' })

    const now = Date.now()
    const at = (minutes: number) => new Date(now + minutes * 60_000)
    const soon = await caller.staff.task.create({ leadId, dueAt: at(60).toISOString(), note: 'Call about the 6-seater' })
    const later = await caller.staff.task.create({ leadId, dueAt: at(120).toISOString(), note: 'Send the brochure' })
    const alertsOf = (taskId: number) => smtp.messages.filter((m) => m.messageId?.startsWith(`<lead-${leadId}-task-alert-${taskId}-`))
    const pushesOf = (note: string) => push.received.filter((p) => String(p.payload.body).includes(note))
    const { followUps } = server.runtime

    // Not before its time.
    expect((await followUps.run(at(59))).alerted).toEqual([])
    // At its time, from two processes at once: one alerts.
    const quiet = { debug() {}, info() {}, warn() {}, error() {} }
    const other = await createRuntime(server.db, server.env, quiet, { soleWorker: false, pushAgent: push.agent })
    try {
      const both = await Promise.all([followUps.run(at(60)), other.followUps.run(at(60))])
      expect(both.flatMap((r) => r.alerted)).toEqual([soon.id])
      await expect.poll(() => alertsOf(soon.id).length, { timeout: 10_000 }).toBe(1)
      const email = alertsOf(soon.id)[0]!
      expect(email.to?.map((t) => t.address)).toEqual(['maria@dealer.example'])
      expect(email.subject).toBe(`Follow up now: Call Back (lead #${leadId})`)
      expect(email.text).toContain('“Call about the 6-seater”')
      expect(email.text).toContain(`/staff/leads/${leadId}`)
      await expect.poll(() => pushesOf('Call about the 6-seater').length, { timeout: 10_000 }).toBe(1)
      expect(pushesOf('Call about the 6-seater')[0]!.payload.url).toBe(`/staff/leads/${leadId}`)
      expect(alertsOf(later.id)).toHaveLength(0)

      // The later task, found by the other process at its time.
      expect((await other.followUps.run(at(120))).alerted).toEqual([later.id])
      expect((await followUps.run(at(180))).alerted).toEqual([])
      await expect.poll(() => alertsOf(later.id).length, { timeout: 10_000 }).toBe(1)
      await expect.poll(() => pushesOf('Send the brochure').length, { timeout: 10_000 }).toBe(1)
      // Every message recorded sent and a look of each worker begun after that done: nothing again.
      await expect.poll(async () => (await server.db.sql`select 1 from outbox_messages where sent_at is null`).length, { timeout: 10_000 }).toBe(0)
      await Promise.all([server.runtime.worker!.checkNow(), other.worker!.checkNow()])
      expect([alertsOf(soon.id).length, alertsOf(later.id).length, pushesOf('Call about the 6-seater').length, pushesOf('Send the brochure').length]).toEqual([1, 1, 1, 1])
    } finally {
      await other.stop()
    }

    // The first page's list: overdue tasks of this account until they are done.
    const endOfToday = at(180).toISOString()
    expect((await caller.staff.task.due({ endOfToday })).map((t) => t.note)).toEqual(['Call about the 6-seater', 'Send the brochure'])
    await caller.staff.task.done({ id: soon.id })
    expect((await caller.staff.task.due({ endOfToday })).map((t) => t.note)).toEqual(['Send the brochure'])
  })
})
