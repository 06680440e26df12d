import { TRPCClientError } from '@trpc/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ValidInquiry } from '../../domain/inquiry.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { addStaff, signedInClient, type staffClient } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import type { AppRouter } from '../trpc/router.ts'
import { textingNotSetUp } from '../leads/lead-replies.ts'

/** The staff's lead inbox through HTTP (issue #18): filters, search, working a lead, delivery, dashboard. */
const lead = (over: Partial<ValidInquiry>): ValidInquiry => ({
  firstName: 'Dana',
  lastName: 'Whitaker',
  email: 'dana@example.com',
  ...over,
})

const errorOf = async (promise: Promise<unknown>) => (await promise.catch((e: unknown) => e)) as TRPCClientError<AppRouter>

describe.each(backends)('the lead inbox on %s', (backend) => {
  let smtp: SmtpSink
  let server: TestServer
  let client: ReturnType<typeof staffClient>
  let devon: ReturnType<typeof staffClient>
  let devonId: number
  const ids: Record<string, number> = {}

  beforeAll(async () => {
    // The mail server is down at first: every notification fails, and is retried only in an hour.
    smtp = await startSmtpSink()
    await smtp.stop()
    server = await startTestServer(backend, {
      SMTP_URL: smtp.url,
      LEADS_TO: 'leads@dealer.example',
      LEADS_FROM: 'website@dealer.example',
      OUTBOX_POLL_MS: '100',
      OUTBOX_RETRY_BASE_MS: '3600000',
      LOG_LEVEL: 'silent',
    })
    await addStaff(server)
    devonId = (await addStaff(server, 'devon')).id
    ;({ client } = await signedInClient(server))
    ;({ client: devon } = await signedInClient(server, 'devon'))
    const add = (over: Partial<ValidInquiry>) => server.runtime.services.inquiries.add(lead(over)).then((r) => r.id)
    ids.old = await add({ firstName: 'Olive', lastName: 'Oldfield', email: 'olive@shore.example', interest: 'rentals', sourceLabel: 'rentals-landing' })
    ids.marisol = await add({
      firstName: 'Marisol',
      lastName: "O'Neill",
      email: 'marisol@example.com',
      phone: '(732) 555-0177',
      interest: 'evolution',
      message: 'Can you deliver to Toms River?',
      sourceUrl: 'https://network.example/nj/inventory',
      cartSlug: '2025-evolution-d6-max-gt4',
    })
    ids.sam = await add({ firstName: 'Sam', lastName: 'Patel', email: 'sam.patel@example.com', phone: '609.555.0123', interest: 'denago', sourceLabel: 'rentals-landing', message: 'x'.repeat(400) })
    ids.percent = await add({ firstName: 'Pat', lastName: '100%_Off', email: 'pat@example.com' })
    ids.spam = await add({ firstName: 'Bot', lastName: 'Spam', email: 'bot@example.com', website: 'https://spam.example' })
    // Olive wrote three weeks ago, New Jersey time.
    await server.db.sql`update contact_inquiries set created_at = now() - interval '21 days' where id = ${ids.old}`
    // Wait until the first attempt of every notification has failed.
    await vi.waitFor(
      async () => expect(await server.db.sql`select id from outbox_messages where last_error is null and sent_at is null`).toEqual([]),
      { timeout: 10_000, interval: 50 },
    )
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
  })

  const listed = async (filter: Parameters<typeof client.staff.lead.list.query>[0]) =>
    (await client.staff.lead.list.query(filter)).leads.map((l) => l.id)

  describe('the list', () => {
    it('shows every lead but spam, newest first, with its contact, interest, cart, source and owner', async () => {
      const { leads, total } = await client.staff.lead.list.query()
      expect(leads.map((l) => l.id)).toEqual([ids.percent, ids.sam, ids.marisol, ids.old])
      expect(total).toBe(4)
      const marisol = leads.find((l) => l.id === ids.marisol)!
      expect(marisol).toMatchObject({
        firstName: 'Marisol',
        email: 'marisol@example.com',
        phone: '(732) 555-0177',
        interest: 'evolution',
        message: 'Can you deliver to Toms River?',
        messageCut: false,
        cart: { slug: '2025-evolution-d6-max-gt4', title: expect.stringContaining('Evolution') },
        sourceUrl: 'https://network.example/nj/inventory',
        sourceLabel: null,
        source: 'network.example',
        status: 'new',
        owner: null,
        firstResponseAt: null,
      })
      const sam = leads.find((l) => l.id === ids.sam)!
      expect(sam.message).toHaveLength(300)
      expect(sam.messageCut).toBe(true)
      expect(sam.source).toBe('rentals-landing')
    })

    it('shows a failed delivery with why it failed and when it will be tried again', async () => {
      const [first] = (await client.staff.lead.list.query({ q: 'marisol' })).leads
      expect(first!.delivery).toBe('failed')
      const [dealerEmail] = first!.deliveries
      expect(dealerEmail).toMatchObject({ kind: 'dealer-email', state: 'failed', attempts: 1, sentAt: null })
      expect(dealerEmail!.lastError).toMatch(/^mail server: /)
      const retryIn = Date.parse(dealerEmail!.nextAttemptAt!) - Date.now()
      expect(retryIn).toBeGreaterThan(55 * 60_000)
      expect(retryIn).toBeLessThanOrEqual(60 * 60_000)
    })

    it('filters by status, owner, interest, source and date, and pages', async () => {
      expect(await listed({ interest: 'rentals' })).toEqual([ids.old])
      expect(await listed({ interest: 'none' })).toEqual([ids.percent])
      expect(await listed({ source: 'rentals-landing' })).toEqual([ids.sam, ids.old])
      expect(await listed({ source: 'network.example' })).toEqual([ids.marisol])
      expect(await listed({ source: 'none' })).toEqual([ids.percent])
      expect(await listed({ status: 'new' })).toHaveLength(4)
      expect(await listed({ status: 'won' })).toEqual([])
      expect(await listed({ owner: 'none' })).toHaveLength(4)
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date())
      const weekAgo = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date(Date.now() - 7 * 86_400_000))
      expect(await listed({ from: weekAgo })).toEqual([ids.percent, ids.sam, ids.marisol])
      expect(await listed({ to: weekAgo })).toEqual([ids.old])
      expect(await listed({ from: today, to: today })).toHaveLength(3)
      expect(await listed({ source: 'rentals-landing', interest: 'denago' })).toEqual([ids.sam])
      const page = await client.staff.lead.list.query({ limit: 2, offset: 2 })
      expect(page.leads.map((l) => l.id)).toEqual([ids.marisol, ids.old])
      expect(page.total).toBe(4)
    })

    it('searches names, emails and phone numbers however the number is written', async () => {
      expect(await listed({ q: 'marisol' })).toEqual([ids.marisol])
      expect(await listed({ q: "o'neill" })).toEqual([ids.marisol])
      expect(await listed({ q: 'PATEL' })).toEqual([ids.sam])
      expect(await listed({ q: 'shore.example' })).toEqual([ids.old])
      expect(await listed({ q: '(609) 555-0123' })).toEqual([ids.sam])
      expect(await listed({ q: '6095550123' })).toEqual([ids.sam])
      expect(await listed({ q: '0177' })).toEqual([ids.marisol])
      expect(await listed({ q: 'dana nobody' })).toEqual([])
      // % and _ are letters here, not wildcards; spam is never found.
      expect(await listed({ q: '100%_' })).toEqual([ids.percent])
      expect(await listed({ q: '0%' })).toEqual([ids.percent])
      expect(await listed({ q: 'bot@example.com' })).toEqual([])
    })

    it('refuses a filter it does not know, saying which', async () => {
      const error = await errorOf(client.staff.lead.list.query({ status: 'maybe' as never, from: '2026-02-30' }))
      expect(error.data).toMatchObject({ httpStatus: 400 })
      expect(error.shape?.issues).toEqual([
        { path: 'status', message: 'status must be one of: new, contacted, quoted, won, lost' },
        { path: 'from', message: 'from must be a real date' },
      ])
    })
  })

  describe('working a lead', () => {
    it('changes status, assigns and adds notes, each change in the audit log; none of them is the first response, a call is', async () => {
      const id = ids.marisol!
      const contacted = await client.staff.lead.setStatus.mutate({ id, status: 'contacted' })
      expect(contacted.status).toBe('contacted')
      expect(contacted.firstResponseAt).toBeNull()
      const assigned = await client.staff.lead.assign.mutate({ id, ownerId: devonId })
      expect(assigned.owner).toEqual({ id: devonId, username: 'devon' })
      const note = await client.staff.lead.addNote.mutate({ id, text: '  Called, wants a test drive Saturday.  ' })
      expect(note).toMatchObject({ author: 'maria', body: 'Called, wants a test drive Saturday.' })
      await devon.staff.lead.setStatus.mutate({ id, status: 'quoted' })

      expect((await devon.staff.lead.get.query({ id })).firstResponseAt).toBeNull()
      const called = Date.now()
      await devon.staff.lead.logCall.mutate({ id, outcome: 'reached', note: 'Wants Saturday at 10' })

      // Another signed-in member sees it all.
      const seen = await devon.staff.lead.get.query({ id })
      expect(seen).toMatchObject({ status: 'quoted', owner: { username: 'devon' } })
      expect(Date.parse(seen.firstResponseAt!)).toBeGreaterThanOrEqual(called - 1000)
      expect(seen.notes.map((n) => [n.author, n.body])).toEqual([['maria', 'Called, wants a test drive Saturday.']])
      expect(seen.history.map((e) => [e.actor, e.action, e.field, e.before, e.after])).toEqual([
        ['devon', 'update', 'status', 'contacted', 'quoted'],
        ['maria', 'create', 'note', null, 'Called, wants a test drive Saturday.'],
        ['maria', 'update', 'owner', null, 'devon'],
        ['maria', 'update', 'status', 'new', 'contacted'],
      ])
      expect(await listed({ owner: devonId })).toEqual([id])
      expect((await devon.staff.lead.list.query({ owner: 'me' })).leads.map((l) => l.id)).toEqual([id])
      expect(await listed({ status: 'quoted' })).toEqual([id])
    })

    it('a note alone is not the first response; setting the status it already has records nothing', async () => {
      const id = ids.old!
      await client.staff.lead.setStatus.mutate({ id, status: 'new' })
      expect((await client.staff.lead.get.query({ id })).firstResponseAt).toBeNull()
      await client.staff.lead.addNote.mutate({ id, text: 'Left a voicemail.' })
      const after = await client.staff.lead.get.query({ id })
      expect(after.firstResponseAt).toBeNull()
      expect(after.history.map((e) => e.field)).toEqual(['note'])
    })

    it('unassigns, and refuses an owner who is not a staff member, a blank note and a missing lead', async () => {
      const id = ids.marisol!
      expect((await client.staff.lead.assign.mutate({ id, ownerId: null })).owner).toBeNull()
      const noOwner = await errorOf(client.staff.lead.assign.mutate({ id, ownerId: 99_999 }))
      expect(noOwner.data).toMatchObject({ httpStatus: 400 })
      expect(noOwner.message).toBe('No staff account has the id 99999')
      const blank = await errorOf(client.staff.lead.addNote.mutate({ id, text: '   ' }))
      expect(blank.shape?.issues).toEqual([{ path: 'text', message: 'Write the note first' }])
      const missing = await errorOf(client.staff.lead.get.query({ id: 99_999 }))
      expect(missing.data).toMatchObject({ httpStatus: 404 })
      expect(missing.message).toBe('No lead has the id 99999')
      // Spam is not a lead of the inbox.
      expect((await errorOf(client.staff.lead.setStatus.mutate({ id: ids.spam!, status: 'won' }))).data).toMatchObject({ httpStatus: 404 })
    })

    it('sends a failed notification again now, once the mail server is back, and records who asked', async () => {
      const id = ids.sam!
      await smtp.start()
      const asked = await client.staff.lead.resend.mutate({ id, kind: 'dealer-email' })
      expect(asked.deliveries[0]).toMatchObject({ kind: 'dealer-email', state: expect.stringMatching(/queued|sending|sent/) })
      const [message] = await smtp.waitFor(1, 10_000)
      expect(message!.subject).toContain('Sam Patel')
      // Sent is recorded just after the mail server took it.
      await expect.poll(async () => (await client.staff.lead.get.query({ id })).delivery, { timeout: 5000, interval: 50 }).toBe('sent')
      const lead = await client.staff.lead.get.query({ id })
      expect(lead.deliveries[0]).toMatchObject({ state: 'sent', lastError: null, nextAttemptAt: null })
      expect(lead.history[0]).toMatchObject({ actor: 'maria', field: 'delivery', after: { kind: 'dealer-email', nextAttemptAt: 'now' } })
      expect((lead.history[0]!.before as { lastError: string }).lastError).toMatch(/^mail server: /)
      // Sent is sent: asking again is refused, and it goes out once.
      const again = await errorOf(client.staff.lead.resend.mutate({ id, kind: 'dealer-email' }))
      expect(again.data).toMatchObject({ httpStatus: 409 })
      expect((await errorOf(client.staff.lead.resend.mutate({ id, kind: 'crm-adf' }))).data).toMatchObject({ httpStatus: 400 })
      expect(smtp.messages.filter((m) => m.subject?.includes('Sam Patel'))).toHaveLength(1)
    })

    it('offers no texting without Twilio’s settings, says what to set, and has no webhook for texts', async () => {
      const lead = await client.staff.lead.get.query({ id: ids.sam! })
      expect(lead.texting).toEqual({ available: false, reason: textingNotSetUp })
      const refused = await errorOf(client.staff.lead.reply.mutate({ id: ids.sam!, channel: 'sms', body: 'Hi Sam' }))
      expect(refused.data).toMatchObject({ httpStatus: 400 })
      expect(refused.message).toBe(textingNotSetUp)
      const webhook = await fetch(`${server.url}/webhooks/twilio/sms`, { method: 'POST', body: new URLSearchParams({ From: '+16095550123', Body: 'hi' }) })
      expect(webhook.status).toBe(404)
    })

    it('offers every staff account as an owner and every source seen as a filter', async () => {
      expect(await client.staff.lead.choices.query()).toEqual({
        owners: [
          { id: devonId, username: 'devon' },
          { id: expect.any(Number), username: 'maria' },
        ],
        sources: ['network.example', 'rentals-landing'],
      })
    })
  })

  describe('the dashboard', () => {
    it('counts leads per week by source and by interest, the hour, and won versus lost', async () => {
      await client.staff.lead.logCall.mutate({ id: ids.sam!, outcome: 'reached' })
      await client.staff.lead.logCall.mutate({ id: ids.percent!, outcome: 'no-answer' })
      await client.staff.lead.setStatus.mutate({ id: ids.sam!, status: 'won' })
      await client.staff.lead.setStatus.mutate({ id: ids.percent!, status: 'lost' })
      // Olive, who wrote three weeks ago, was never answered (a note is no answer): not within the hour.
      const dashboard = await client.staff.lead.dashboard.query()
      expect(dashboard.weeks).toHaveLength(12)
      expect(dashboard.weeks.every((w) => new Date(`${w.week}T12:00:00Z`).getUTCDay() === 1)).toBe(true)
      expect(dashboard.totals).toEqual({
        leads: 4,
        won: 1,
        lost: 1,
        open: 2,
        answeredWithinHour: 3,
        // Marisol, Sam and Pat were called at once; Olive is over an hour old. Everyone is measured.
        measured: 4,
        shareWithinHour: 0.75,
      })
      const total = (series: { key: string; total: number }[]) => Object.fromEntries(series.map((s) => [s.key, s.total]))
      expect(total(dashboard.bySource)).toEqual({ 'rentals-landing': 2, 'network.example': 1, none: 1 })
      expect(dashboard.bySource.find((s) => s.key === 'none')!.label).toBe('not given')
      expect(total(dashboard.byInterest)).toEqual({ rentals: 1, evolution: 1, denago: 1, none: 1 })
      const thisWeek = dashboard.weeks.length - 1
      expect(dashboard.weeks[thisWeek]!.leads).toBe(3)
      expect(dashboard.bySource.find((s) => s.key === 'rentals-landing')!.counts[thisWeek]).toBe(1)
      expect(dashboard.weeks.reduce((n, w) => n + w.leads, 0)).toBe(4)
    })

    it('gives the same figures as CSV at a staff-only address', async () => {
      const anonymous = await fetch(`${server.url}/staff/leads/dashboard.csv`, { redirect: 'manual' })
      expect(anonymous.status).toBe(303)
      expect(anonymous.headers.get('location')).toBe('/staff/login?next=%2Fstaff%2Fleads%2Fdashboard.csv')
      const { cookie } = await signedInClient(server)
      const res = await fetch(`${server.url}/staff/leads/dashboard.csv`, { headers: { cookie } })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/)
      const lines = (await res.text()).trimEnd().split('\r\n')
      expect(lines[0]).toBe(
        'week starting,leads,source: rentals-landing,source: network.example,source: not given,' +
          'interest: Denago,interest: Evolution,interest: No interest given,interest: Rentals,' +
          'won,lost,answered within an hour,answered or over an hour old',
      )
      expect(lines).toHaveLength(14)
      expect(lines.at(-1)).toBe('total,4,2,1,1,1,1,1,1,1,1,3,4')
      const bad = await fetch(`${server.url}/staff/leads/dashboard.csv?from=2026-12-01&to=2026-11-01`, { headers: { cookie } })
      expect(bad.status).toBe(400)
      expect(await bad.json()).toEqual({ message: 'The range ends before it starts', issues: [] })
    })

    it('refuses a range longer than two years', async () => {
      const error = await errorOf(client.staff.lead.dashboard.query({ from: '2020-01-01', to: '2026-01-01' }))
      expect(error.data).toMatchObject({ httpStatus: 400 })
      expect(error.message).toBe('Choose a range of at most two years')
    })
  })
})
