import { TRPCClientError } from '@trpc/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ValidInquiry } from '../../domain/inquiry.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { addStaff, signedInClient, type staffClient } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import type { AppRouter } from '../trpc/router.ts'

/**
 * No lead silently lost (issue #28, PRODUCT.md "Running the dealership"): whatever a visitor is
 * told was sent is stored; spam waits in the Spam view with its rule, emailed to nobody, until
 * "Not spam" sends it; spam goes after 30 days; a second lead from the same person is linked.
 */
const lead = (over: Partial<ValidInquiry>): ValidInquiry => ({ firstName: 'Dana', lastName: 'Whitaker', email: 'dana@example.com', ...over })

const post = (server: TestServer, body: Record<string, unknown>) =>
  fetch(`${server.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe.each(backends)('leads nobody may lose, on %s', (backend) => {
  let smtp: SmtpSink
  let server: TestServer
  let client: ReturnType<typeof staffClient>
  const add = (over: Partial<ValidInquiry>) => server.runtime.services.inquiries.add(lead(over)).then((r) => r.id)
  const subjects = () => smtp.messages.map((m) => m.subject ?? '')

  beforeAll(async () => {
    smtp = await startSmtpSink()
    server = await startTestServer(backend, {
      SMTP_URL: smtp.url,
      LEADS_TO: 'leads@dealer.example',
      LEADS_FROM: 'website@dealer.example',
      OUTBOX_POLL_MS: '100',
      LOG_LEVEL: 'silent',
    })
    await addStaff(server)
    ;({ client } = await signedInClient(server))
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
  })

  it('puts a form sent one second after the page opened in the inbox and emails it', async () => {
    const res = await post(server, { firstName: 'Quick', lastName: 'Autofill', email: 'quick@example.com', elapsedMs: 1000 })
    expect(res.status).toBe(201)
    const { id } = (await res.json()) as { id: number }
    expect((await client.staff.lead.list.query()).leads.map((l) => l.id)).toContain(id)
    // The outbox looked at once the lead is stored: everything due is sent by the end of that look.
    await server.runtime.worker!.checkNow()
    expect(subjects()).toContain('New lead: Quick Autofill')
  })

  it('keeps a honeypot lead in the Spam view with its rule, emailed to nobody, and "Not spam" sends it', async () => {
    const res = await post(server, { firstName: 'Maybe', lastName: 'Human', email: 'maybe@example.com', website: 'https://shop.example', message: 'Do you rent 6 seaters?' })
    expect(res.status).toBe(201)
    const { id } = (await res.json()) as { id: number }

    const spam = await client.staff.lead.spam.query()
    expect(spam.leads.map((l) => ({ id: l.id, rule: l.rule, message: l.message }))).toEqual([
      { id, rule: 'honeypot', message: 'Do you rent 6 seaters?' },
    ])
    expect(spam.total).toBe(1)
    expect((await client.staff.lead.list.query()).leads.map((l) => l.id)).not.toContain(id)
    expect(await server.db.sql`select 1 from outbox_messages where inquiry_id = ${id}`).toHaveLength(0)
    // The outbox looked at and everything due sent: nothing went for it.
    await server.runtime.worker!.checkNow()
    expect(subjects()).not.toContain('New lead: Maybe Human')

    await client.staff.lead.notSpam.mutate({ id })
    expect((await client.staff.lead.spam.query()).total).toBe(0)
    const moved = await client.staff.lead.get.query({ id })
    expect(moved.status).toBe('new')
    expect(moved.history[0]).toMatchObject({ actor: 'maria', field: 'spam', before: 'honeypot', after: null })
    await server.runtime.worker!.checkNow()
    expect(subjects()).toContain('New lead: Maybe Human')
    expect(subjects().filter((s) => s === 'New lead: Maybe Human')).toHaveLength(1)

    // Said twice (a second tab): the lead is no longer in the Spam view.
    const again = (await client.staff.lead.notSpam.mutate({ id }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>
    expect(again.data?.httpStatus).toBe(404)
  })

  it('deletes spam 30 days after it arrived and keeps younger spam and every real lead', async () => {
    const oldSpam = await add({ email: 'old-bot@example.com', website: 'x' })
    const youngSpam = await add({ email: 'young-bot@example.com', website: 'x' })
    const oldLead = await add({ email: 'old-customer@example.com' })
    await server.db.sql`update contact_inquiries set created_at = now() - interval '31 days' where id in (${oldSpam}, ${oldLead})`
    await server.db.sql`update contact_inquiries set created_at = now() - interval '29 days' where id = ${youngSpam}`

    expect(await server.runtime.services.staff.spam.purge()).toBe(1)
    const left = await server.db.sql<{ id: number }[]>`select id from contact_inquiries where id in (${oldSpam}, ${youngSpam}, ${oldLead}) order by id`
    expect(left.map((r) => r.id)).toEqual([youngSpam, oldLead])
  })

  it('marks a lead with the same email or phone as one of the last 30 days as its repeat, and links both ways', async () => {
    const first = await add({ email: 'Jo.Repeat@Example.com', phone: '(609) 555-0142' })
    const byEmail = await add({ email: 'jo.repeat@example.com' })
    const byPhone = await add({ email: 'jo.other@example.com', phone: '+1 609.555.0142' })
    const stranger = await add({ email: 'someone.else@example.com', phone: '(609) 555-0199' })

    const { leads } = await client.staff.lead.list.query({ q: 'repeat' })
    expect(leads.find((l) => l.id === first)?.repeatOf).toBeNull()
    expect(leads.find((l) => l.id === byEmail)?.repeatOf?.id).toBe(first)
    // Linked to the most recent earlier lead of that person (the one by email came later).
    expect((await client.staff.lead.get.query({ id: byPhone })).repeatOf?.id).toBe(first)
    expect((await client.staff.lead.get.query({ id: stranger })).repeatOf).toBeNull()
    expect((await client.staff.lead.get.query({ id: first })).repeats.map((r) => r.id)).toEqual([byEmail, byPhone])

    const fourth = await add({ email: 'jo.repeat@example.com' })
    expect((await client.staff.lead.get.query({ id: fourth })).repeatOf?.id).toBe(byEmail)
  })

  it('does not count a lead older than 30 days, or spam, as the earlier lead', async () => {
    const old = await add({ email: 'returning@example.com' })
    await server.db.sql`update contact_inquiries set created_at = now() - interval '31 days' where id = ${old}`
    await add({ email: 'botlike@example.com', website: 'x' })
    const back = await add({ email: 'returning@example.com' })
    const afterSpam = await add({ email: 'botlike@example.com' })
    expect((await client.staff.lead.get.query({ id: back })).repeatOf).toBeNull()
    expect((await client.staff.lead.get.query({ id: afterSpam })).repeatOf).toBeNull()
  })

  it('links a lead moved out of spam to the earlier lead of when it arrived', async () => {
    const earlier = await add({ email: 'twice@example.com' })
    const caught = await add({ email: 'twice@example.com', website: 'x' })
    await client.staff.lead.notSpam.mutate({ id: caught })
    expect((await client.staff.lead.get.query({ id: caught })).repeatOf?.id).toBe(earlier)
  })
})
