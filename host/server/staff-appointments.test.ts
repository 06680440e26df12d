import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newJerseyDay } from '../../domain/appointments.ts'
import { leadPaths, staffPaths } from '../../domain/staff-paths.ts'
import { parsePage } from '../../tests/support/html.ts'
import { addStaff, followWithNotice, signIn } from '../../tests/support/staff.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * The console's side of appointments and follow-ups (issue #51) as staff use it without a script:
 * `/staff/appointments` by day and week per showroom with Showed and No-show; follow-ups on the
 * lead page (add, done); the first page's tasks due today and overdue; the dashboard's bookings and
 * no-show rate. Who may do what is api/staff/staff-access.test.ts's.
 */
let server: TestServer
let sales: string
let manager: string

beforeAll(async () => {
  server = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
  await addStaff(server, 'sam', undefined, 'sales')
  await addStaff(server, 'mona', undefined, 'manager')
  sales = (await signIn(server, 'sam')).cookie!
  manager = (await signIn(server, 'mona')).cookie!
}, 120_000)
afterAll(() => server?.close())

const open = async (cookie: string, path: string) => {
  const res = await fetch(`${server.url}${path}`, { headers: { cookie } })
  return parsePage(res.status, await res.text())
}
const post = (cookie: string, path: string, fields: Record<string, string>) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie },
    body: new URLSearchParams(fields),
  })

async function book(showroom: string, firstName: string, index = 0) {
  const slots = (await (await fetch(`${server.url}/api/appointments/slots?showroom=${showroom}&kind=test-drive&days=14`)).json()) as { slots: { startsAt: string }[] }
  const startsAt = slots.slots[index]!.startsAt
  const res = await fetch(`${server.url}/api/appointments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ showroom, kind: 'test-drive', startsAt, firstName, lastName: 'Visitor', email: `${firstName.toLowerCase()}@example.com`, phone: '(609) 555-0188' }),
  })
  expect(res.status).toBe(201)
  return (await res.json()) as { id: number; leadId: number; startsAt: string }
}

describe('appointments in the console', () => {
  it('lists a day and a week per showroom, phone first, and marks a past visit showed or no-show', async () => {
    const ann = await book('bayville', 'Ann')
    const bob = await book('waretown', 'Bob')
    const day = newJerseyDay(Date.parse(ann.startsAt))
    const page = await open(sales, `${staffPaths.appointments}?day=${day}`)
    expect(page.status).toBe(200)
    expect(page.document.querySelector(`nav a[href="${staffPaths.appointments}"]`)?.textContent).toBe('Appointments')
    const card = page.document.querySelector(`#appointment-${ann.id}`)!
    expect(card.textContent).toContain('Test drive or showroom visit · Bayville')
    expect(card.querySelector('a[href^="tel:"]')?.textContent).toBe('Call (609) 555-0188')
    expect(card.querySelector(`a[href="${leadPaths.lead(ann.leadId)}"]`)?.textContent).toBe('Ann Visitor')
    // Not yet come: nothing to mark.
    expect(card.querySelector('button[value="showed"]')).toBeNull()
    // One showroom's day leaves the others out; the week has its seven days.
    const bayville = await open(sales, `${staffPaths.appointments}?day=${day}&showroom=bayville`)
    expect(bayville.document.querySelector(`#appointment-${ann.id}`)).not.toBeNull()
    expect(bayville.document.querySelector(`#appointment-${bob.id}`)).toBeNull()
    const week = await open(sales, `${staffPaths.appointments}?view=week&day=${day}`)
    expect(week.document.querySelectorAll('.appointments-day')).toHaveLength(7)
    expect(week.document.querySelector(`#appointment-${ann.id}`)).not.toBeNull()

    // A future visit cannot be marked; once its time has come, it can.
    const early = await post(sales, staffPaths.appointments, { id: String(ann.id), status: 'showed', day })
    expect(early.status).toBe(409)
    await server.db.sql`update appointments set starts_at = now() - interval '2 hours' where id in (${ann.id}, ${bob.id})`
    const today = newJerseyDay(Date.now() - 2 * 3_600_000)
    const marked = await post(sales, staffPaths.appointments, { id: String(ann.id), status: 'showed', day: today })
    expect(marked.status).toBe(303)
    expect(marked.headers.get('location')).toBe(`${staffPaths.appointments}?day=${today}#appointment-${ann.id}`)
    expect(parsePage(200, (await followWithNotice(server, sales, marked)).html).text('[role="status"]')).toBe('Marked showed.')
    await post(sales, staffPaths.appointments, { id: String(bob.id), status: 'no-show', day: today })
    const after = await open(sales, `${staffPaths.appointments}?day=${today}`)
    expect(after.document.querySelector(`#appointment-${ann.id} .appointment__status`)?.textContent).toBe('Showed')
    expect(after.document.querySelector(`#appointment-${bob.id} .appointment__status`)?.textContent).toBe('No-show')
    expect(after.document.querySelector(`#appointment-${bob.id} button[value="booked"]`)?.textContent).toBe('Undo')

    // The dashboard (managers): bookings per week and the no-show rate of the visits marked.
    const dashboard = await open(manager, leadPaths.dashboard)
    const section = dashboard.document.querySelector('section[aria-labelledby="bookings"]')!
    expect(section.textContent).toContain('No-show rate: 50% (1 no-show of 2 marked')
    expect(section.querySelectorAll('tbody tr').length).toBeGreaterThan(0)
  })

  it('keeps follow-ups on the lead page and lists today’s and overdue ones on the first page', async () => {
    const { leadId } = await book('pleasantville', 'Cara', 3)
    const lead = leadPaths.lead(leadId)
    const refused = await post(sales, lead, { action: 'task', dueAt: 'someday', note: 'Call her' })
    expect(refused.status).toBe(400)
    expect(parsePage(400, await refused.text()).document.querySelector('#task-due-error')?.textContent).toContain('Enter the due date and time')
    const overdue = await post(sales, lead, { action: 'task', dueAt: new Date(Date.now() - 3_600_000).toISOString(), note: 'Call about the brochure' })
    expect(overdue.status).toBe(303)
    expect(overdue.headers.get('location')).toBe(`${lead}#follow-ups`)
    await post(sales, lead, { action: 'task', dueAt: '2099-01-05T10:00', note: 'Ask about the spring' })
    const page = await open(sales, lead)
    const items = page.all('#follow-ups .staff-task__what')
    expect(items).toHaveLength(2)
    expect(items[0]).toContain('(overdue): Call about the brochure')
    expect(items[1]).toBe('Mon, Jan 5, 10:00 AM: Ask about the spring')

    // The first page: the account's own (Sam wrote them; the lead is nobody's), today and overdue only.
    const first = await open(sales, staffPaths.console)
    expect(first.document.querySelector('#follow-ups-heading')?.textContent).toBe('Your follow-ups today (1 overdue)')
    expect(first.all('.staff-follow-ups .staff-task__what')).toEqual([expect.stringContaining('Call about the brochure')])
    expect((await open(manager, staffPaths.console)).all('.staff-follow-ups .staff-task__what')).toEqual([])

    const taskId = page.document.querySelector<HTMLInputElement>('#follow-ups input[name="task"]')!.value
    expect((await post(sales, lead, { action: 'task-done', task: taskId })).status).toBe(303)
    expect((await open(sales, staffPaths.console)).document.querySelector('.staff-follow-ups')?.textContent).toContain('Nothing due today.')
  })
})
