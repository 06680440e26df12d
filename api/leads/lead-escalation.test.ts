import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPushService, type PushService } from '../../tests/support/push-service.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { signedInClient, staffPassword } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Escalation (issue #28, point 4; PRODUCT.md "escalation"): a lead still New after
 * LEAD_ESCALATE_MINUTES (15) of business hours (Mon-Sat 9-5, Sunday closed, New Jersey time)
 * alerts the managers and owners once, by email and push. Time is fake: the leads are dated on
 * a weekend in January 2027 (EST, UTC-5) and the check is run as of given moments; being in the
 * future, the server's own check on its timer never finds them due.
 */
const post = (url: string, body: Record<string, unknown>) =>
  fetch(`${url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

const fridayEvening = '2027-01-08T23:30:00Z' // Fri 18:30: due Saturday 9:15
const saturdayClosing = '2027-01-09T21:50:00Z' // Sat 16:50: 10 minutes Saturday, Sunday closed, due Monday 9:05

describe.each(backends)('escalation on %s', (backend) => {
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
    const { accounts } = server.runtime.services.staff
    await accounts.add('olga', staffPassword, { role: 'owner', email: 'olga@dealer.example' })
    await accounts.add('mike', staffPassword, { role: 'manager', email: 'mike@dealer.example' })
    await accounts.add('sam', staffPassword, { role: 'sales', email: 'sam@dealer.example' })
    await accounts.add('dora', staffPassword, { role: 'manager', email: 'dora@dealer.example' })
    await server.db.sql`update users set disabled = true where username = 'dora'`
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
    await push?.stop()
  })

  async function leadAt(receivedAt: string, firstName: string): Promise<number> {
    const res = await post(server.url, { firstName, lastName: 'Waiting', email: `${firstName.toLowerCase()}@example.com`, phone: '609-555-0100' })
    expect(res.status).toBe(201)
    const { id } = (await res.json()) as { id: number }
    await server.db.sql`update contact_inquiries set created_at = ${new Date(receivedAt)} where id = ${id}`
    return id
  }

  it('alerts managers and owners once, at opening plus 15 business minutes, across a weekend', async () => {
    const { client } = await signedInClient(server, 'mike')
    await client.staff.alerts.subscribe.mutate(push.subscribe('mike-phone'))
    const { escalation } = server.runtime
    const friday = await leadAt(fridayEvening, 'Fran')
    const saturday = await leadAt(saturdayClosing, 'Sally')
    const answered = await leadAt(saturdayClosing, 'Andy')
    const marked = await leadAt(saturdayClosing, 'Stella')
    const spam = await leadAt(saturdayClosing, 'Spammy')
    await server.db.sql`update contact_inquiries set spam_reason = 'honeypot' where id = ${spam}`
    const ours = (ids: number[]) => ids.filter((id) => [friday, saturday, answered, marked, spam].includes(id)).sort((a, b) => a - b)

    expect(escalation.dueAt(new Date(fridayEvening)).toISOString()).toBe('2027-01-09T14:15:00.000Z')
    expect(escalation.dueAt(new Date(saturdayClosing)).toISOString()).toBe('2027-01-11T14:05:00.000Z')

    expect(ours(await escalation.run(new Date('2027-01-09T14:14:59Z')))).toEqual([])
    expect(ours(await escalation.run(new Date('2027-01-09T14:15:00Z')))).toEqual([friday])
    // All of Sunday: the Saturday lead has had 10 business minutes.
    expect(ours(await escalation.run(new Date('2027-01-10T23:00:00Z')))).toEqual([])
    // Andy is called on Monday at 9:01 (a logged call is a first response). Stella is marked
    // Contacted and given a note, with no reply and no call: neither is one (issue #50).
    await client.staff.lead.logCall.mutate({ id: answered, outcome: 'voicemail', note: 'Left the price' })
    await client.staff.lead.setStatus.mutate({ id: marked, status: 'contacted' })
    await client.staff.lead.addNote.mutate({ id: marked, text: 'Will call back' })
    expect(ours(await escalation.run(new Date('2027-01-11T14:04:00Z')))).toEqual([])
    // Two processes checking at the same moment: one escalates each.
    const both = await Promise.all([escalation.run(new Date('2027-01-11T14:05:00Z')), escalation.run(new Date('2027-01-11T14:05:00Z'))])
    expect(ours(both.flat())).toEqual([saturday, marked])
    // And never again.
    expect(ours(await escalation.run(new Date('2027-01-12T14:05:00Z')))).toEqual([])

    for (const [id, name] of [
      [friday, 'Fran'],
      [saturday, 'Sally'],
      [marked, 'Stella'],
    ] as const) {
      const subject = `Still waiting: lead #${id}, ${name} Waiting`
      await expect.poll(() => smtp.messages.filter((m) => m.subject === subject).length, { timeout: 10_000 }).toBe(2)
      await expect.poll(() => push.received.filter((p) => p.payload.title === subject).length, { timeout: 10_000 }).toBe(1)
      const to = smtp.messages.filter((m) => m.subject === subject).flatMap((m) => m.to?.map((t) => t.address))
      expect(to.sort()).toEqual(['mike@dealer.example', 'olga@dealer.example'])
      const pushed = push.received.find((p) => p.payload.title === subject)!
      expect(pushed.subscription).toBe('mike-phone')
      expect(pushed.payload.url).toBe(`/staff/leads/${id}`)
      expect(pushed.headers.topic).toBe(`lead-${id}-e`)
    }
    const [row] = await server.db.sql<{ n: number }[]>`
      select count(*)::int as n from outbox_messages where kind like 'escalation-%' and inquiry_id in ${server.db.sql([answered, spam])}
    `
    expect(row?.n).toBe(0)
    // Spam let in by "Not spam" counts from then, not from when it was sent (a week before).
    const letIn = await leadAt('2027-01-01T15:00:00Z', 'Lettie')
    await server.db.sql`update contact_inquiries set spam_reason = 'honeypot', created_at = now() - interval '7 days' where id = ${letIn}`
    const owner = (await signedInClient(server, 'olga')).client
    await owner.staff.lead.notSpam.mutate({ id: letIn })
    const [{ enteredInboxAt }] = await server.db.sql<[{ enteredInboxAt: Date }]>`select entered_inbox_at from contact_inquiries where id = ${letIn}`
    const due = escalation.dueAt(new Date(enteredInboxAt))
    expect(due.getTime() - new Date(enteredInboxAt).getTime()).toBeGreaterThanOrEqual(15 * 60_000)
    expect(await escalation.run(new Date(due.getTime() - 1000))).not.toContain(letIn)
    // (A millisecond on: the database keeps microseconds, a Date milliseconds.)
    expect(await escalation.run(new Date(due.getTime() + 1))).toContain(letIn)

    // Nothing more arrives after the outbox is empty and a look begun after that is done: each alert went once.
    await expect.poll(async () => (await server.db.sql`select 1 from outbox_messages where sent_at is null and kind like 'escalation-%'`).length).toBe(0)
    await server.runtime.worker!.checkNow()
    expect(smtp.messages.filter((m) => m.subject?.startsWith('Still waiting:') && /Fran|Sally|Stella/.test(m.subject)).length).toBe(6)
    expect(push.received.filter((p) => /^Still waiting: .*(Fran|Sally|Stella)/.test(p.payload.title)).length).toBe(3)
  })

  it('leaves a lead with a follow-up not yet due, and escalates it once the follow-up is due and nobody answered', async () => {
    const { escalation } = server.runtime
    const lead = await leadAt(fridayEvening, 'Tasha')
    const [olga] = await server.db.sql<{ id: number }[]>`select id from users where username = 'olga'`
    // "Call her back Saturday at 11" (EST): someone has said when.
    await server.runtime.services.staff.tasks.create({ id: olga!.id, name: 'olga' }, { leadId: lead, dueAt: new Date('2027-01-09T16:00:00Z'), note: 'Call her back' })
    expect((await escalation.run(new Date('2027-01-09T14:30:00Z'))).filter((id) => id === lead)).toEqual([])
    expect((await escalation.run(new Date('2027-01-09T15:59:00Z'))).filter((id) => id === lead)).toEqual([])
    expect((await escalation.run(new Date('2027-01-09T16:01:00Z'))).filter((id) => id === lead)).toEqual([lead])
  })
})
