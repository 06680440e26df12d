import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { minutes } from '../staff/leads/lead-dashboard.tsx'
import { parsePage } from '../../tests/support/html.ts'
import { addStaff, signedInClient } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Speed to lead (issue #28, point 4; docs/PRODUCT.md "First response"): per account, the median
 * and 90th percentile minutes from a lead's arrival to its first response (a reply or a logged
 * call, issue #50), counted for the account that gave it, over the dashboard's range; the leads it
 * owns still waiting; and the share answered within 5 minutes of business time. Fixed data in October 2026; spam and leads outside the range not counted.
 */
const figures = (accountId: number | null, account: string, answered: number, median: number | null, p90: number | null, waiting: number) => ({
  accountId,
  account,
  answered,
  medianMinutes: median,
  p90Minutes: p90 === null ? null : expect.closeTo(p90, 6),
  waiting,
})

describe.each(backends)('speed to lead on %s', (backend) => {
  let server: TestServer
  const ids: Record<string, number> = {}

  beforeAll(async () => {
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' }, { site: true })
    for (const [name, role] of [
      ['amy', 'sales'],
      ['ben', 'sales'],
      ['mona', 'manager'],
    ] as const) {
      await addStaff(server, name, undefined, role)
      const [row] = await server.db.sql<{ id: number }[]>`select id from users where username = ${name}`
      ids[name] = row!.id
    }
    const lead = async (receivedAt: string, answeredAfterMinutes: number | null, by: number | null, extra: { owner?: number; spam?: boolean } = {}) => {
      const at = new Date(receivedAt)
      const answered = answeredAfterMinutes === null ? null : new Date(at.getTime() + answeredAfterMinutes * 60_000)
      await server.db.sql`
        insert into contact_inquiries (first_name, last_name, email, created_at, first_response_at, first_response_by, owner_id, status, spam_reason)
        values ('Fixed', 'Lead', 'fixed@example.com', ${at}, ${answered}, ${by}, ${extra.owner ?? by}, ${answered ? 'contacted' : 'new'},
                ${extra.spam ? 'honeypot' : null})
      `
    }
    // Amy answered ten leads after 1, 2, ... 10 minutes: median 5.5, 90th percentile 9.1.
    for (let i = 1; i <= 10; i++) await lead(`2026-10-0${(i % 5) + 5}T14:00:00Z`, i, ids.amy!)
    // Ben answered two, after 30 and 90 minutes (median 60, 90th percentile 84), and has one waiting.
    await lead('2026-10-06T15:00:00Z', 30, ids.ben!)
    await lead('2026-10-07T15:00:00Z', 90, ids.ben!)
    await lead('2026-10-08T15:00:00Z', null, null, { owner: ids.ben! })
    // One waiting for nobody; spam Amy "answered" after 1000 minutes; one of Ben's out of the range.
    await lead('2026-10-09T15:00:00Z', null, null)
    await lead('2026-10-09T16:00:00Z', 1000, ids.amy!, { spam: true })
    await lead('2026-09-01T15:00:00Z', 5000, ids.ben!)
  })
  afterAll(() => server?.close())

  it('gives each account its median and 90th percentile minutes to first response, and its waiting leads', async () => {
    const dashboard = await server.runtime.services.staff.leadDashboard({ from: '2026-10-05', to: '2026-10-18' })
    expect(dashboard.speedToLead).toEqual([
      { ...figures(ids.amy!, 'amy', 10, 5.5, 9.1, 0), withinFiveMinutes: 5, measuredFiveMinutes: 10, shareWithinFiveMinutes: 0.5 },
      { ...figures(ids.ben!, 'ben', 2, 60, 84, 1), withinFiveMinutes: 0, measuredFiveMinutes: 3, shareWithinFiveMinutes: 0 },
      { ...figures(null, 'nobody', 0, null, null, 1), withinFiveMinutes: 0, measuredFiveMinutes: 1, shareWithinFiveMinutes: 0 },
    ])
    // Mona neither answered nor owns any, so she has no line.
  })

  it('counts an answer within 5 minutes of business time: a lead of Saturday evening answered on Monday at 9:04 is in time', async () => {
    // Saturday 2026-10-24 18:30 EDT (closed until Monday 9:00); answered Monday 9:04 by Mona.
    await server.db.sql`
      insert into contact_inquiries (first_name, last_name, email, created_at, first_response_at, first_response_by, owner_id, status)
      values ('Weekend', 'Lead', 'weekend@example.com', '2026-10-24T22:30:00Z', '2026-10-26T13:04:00Z', ${ids.mona!}, ${ids.mona!}, 'contacted'),
             ('Weekend', 'Late', 'late@example.com', '2026-10-24T22:30:00Z', '2026-10-26T13:06:00Z', ${ids.mona!}, ${ids.mona!}, 'contacted')
    `
    const dashboard = await server.runtime.services.staff.leadDashboard({ from: '2026-10-19', to: '2026-10-25' })
    expect(dashboard.speedToLead.find((line) => line.account === 'mona')).toMatchObject({ answered: 2, withinFiveMinutes: 1, measuredFiveMinutes: 2, shareWithinFiveMinutes: 0.5 })
  })

  it('records who gave the first response, and only the first', async () => {
    const res = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Quick', lastName: 'Answer', email: 'quick@example.com' }),
    })
    const { id } = (await res.json()) as { id: number }
    const mona = (await signedInClient(server, 'mona')).client
    const amy = (await signedInClient(server, 'amy')).client
    const by = async () => (await server.db.sql<{ firstResponseBy: number | null }[]>`select first_response_by from contact_inquiries where id = ${id}`)[0]!.firstResponseBy
    // A note and a status change are no response (issue #50).
    await amy.staff.lead.addNote.mutate({ id, text: 'Will call' })
    await amy.staff.lead.setStatus.mutate({ id, status: 'contacted' })
    expect(await by()).toBeNull()
    await mona.staff.lead.logCall.mutate({ id, outcome: 'voicemail', note: 'Called, left a message' })
    await amy.staff.lead.logCall.mutate({ id, outcome: 'reached' })
    expect(await by()).toBe(ids.mona)
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date())
    const line = (await server.runtime.services.staff.leadDashboard({ from: today, to: today })).speedToLead.find((l) => l.account === 'mona')
    expect(line).toMatchObject({ answered: 1, waiting: 0 })
    expect(line!.medianMinutes).toBeLessThan(1)
  })

  it('shows the figures on the dashboard page, in minutes and hours', async () => {
    const { cookie } = await signedInClient(server, 'mona')
    const res = await fetch(`${server.url}/staff/leads/dashboard?from=2026-10-05&to=2026-10-18`, { headers: { cookie } })
    const page = parsePage(res.status, await res.text())
    expect(page.status).toBe(200)
    const rows = [...page.document.querySelectorAll('section[aria-labelledby="speed-to-lead"] tbody tr')].map((tr) =>
      [...tr.querySelectorAll('th, td')].map((cell) => cell.textContent),
    )
    expect(page.text('#speed-to-lead')).toBe('Speed to lead, per account')
    const heads = [...page.document.querySelectorAll('section[aria-labelledby="speed-to-lead"] thead th')].map((th) => th.textContent)
    expect(heads).toEqual(['Account', 'Within 5 business minutes', 'Median', '90th percentile', 'Answered', 'Waiting'])
    expect(rows).toEqual([
      ['amy', '50% (5 of 10)', '5.5 min', '9.1 min', '10', '0'],
      ['ben', '0% (0 of 3)', '1 h 00 min', '1 h 24 min', '2', '1'],
      ['nobody', '0% (0 of 1)', '–', '–', '0', '1'],
    ])
    expect([minutes(0.25), minutes(38.4), minutes(125), minutes(null)]).toEqual(['0.3 min', '38 min', '2 h 05 min', '–'])
  })
})
