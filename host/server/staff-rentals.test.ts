import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addDays, formatDay, newJerseyToday } from '../../domain/calendar-days.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { parsePage } from '../../tests/support/html.ts'
import { addStaff, followWithNotice, signIn } from '../../tests/support/staff.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * The rental calendar's page (issue #33, `/staff/rentals`) as staff use it without a script: the
 * fleet and the days, each request with Confirm, Decline and Change, a confirmation refused with
 * its day named when the fleet is full, and the fleet's form for managers only. The transaction
 * that refuses a double booking is tested on both databases in api/rentals/rental-requests.test.ts.
 */
let server: TestServer
let sales: string
let manager: string
const start = addDays(newJerseyToday(), 10)

beforeAll(async () => {
  server = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
  await addStaff(server, 'sam', undefined, 'sales')
  await addStaff(server, 'mona', undefined, 'manager')
  sales = (await signIn(server, 'sam')).cookie!
  manager = (await signIn(server, 'mona')).cookie!
})
afterAll(() => server?.close())

async function requestUtility(firstName: string, startDate: string): Promise<number> {
  const res = await fetch(`${server.url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName,
      lastName: 'Renter',
      email: `${firstName.toLowerCase()}@example.com`,
      phone: '(609) 555-0150',
      rental: { cartType: 'utility', plan: '3-day', startDate, pickup: 'showroom', showroom: 'waretown' },
    }),
  })
  expect(res.status).toBe(201)
  return ((await res.json()) as { id: number }).id
}

const post = (cookie: string, fields: Record<string, string>) =>
  fetch(`${server.url}${staffPaths.rentals}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie },
    body: new URLSearchParams(fields),
  })
const open = async (cookie: string, path: string = staffPaths.rentals) => {
  const res = await fetch(`${server.url}${path}`, { headers: { cookie } })
  return parsePage(res.status, await res.text())
}

describe('the rental calendar', () => {
  it('is in the navigation and shows the fleet, the days and each request with its details', async () => {
    const first = await requestUtility('Una', start)
    const page = await open(sales)
    expect(page.status).toBe(200)
    expect(page.document.querySelector(`nav a[href="${staffPaths.rentals}"]`)?.textContent).toBe('Rentals')
    expect(page.all('.rental-calendar tbody th')).toEqual(['4 Seater (6)', '6 Seater (4)', 'Utility (2)'])
    expect(page.document.querySelectorAll('.rental-calendar thead th')).toHaveLength(15)
    const card = page.document.querySelector(`.rental-request[data-lead-id="${first}"]`)!
    expect(card.textContent).toContain(`${formatDay(start)} to ${formatDay(addDays(start, 3))}`)
    expect(card.textContent).toContain('Pick up at Waretown')
    // Sales see the fleet but not its form: that is a manager's (PRODUCT.md's table).
    expect(page.document.querySelector('input[name="carts"]')).toBeNull()
    // The lead's own page says what was asked and leads back to its days in the calendar.
    const lead = await open(sales, card.querySelector('h3 a')!.getAttribute('href')!)
    expect(lead.text('.lead-facts')).toContain('Utility, 3 Day plan (3 days), $685')
    expect(lead.document.querySelector(`.lead-facts a[href="${staffPaths.rentals}?from=${start}"]`)).not.toBeNull()
  })

  it('confirms a request, and refuses one more than the fleet on its days, naming the day, until it is changed', async () => {
    expect((await post(manager, { action: 'fleet', cartType: 'utility', carts: '1' })).status).toBe(303)
    const [first] = await server.db.sql<{ id: number }[]>`select id from contact_inquiries where first_name = 'Una'`
    const second = await requestUtility('Vic', addDays(start, 1))

    const confirmed = await post(sales, { action: 'confirm', id: String(first!.id), from: newJerseyToday() })
    expect(confirmed.status).toBe(303)
    expect(confirmed.headers.get('location')).toBe(staffPaths.rentals)
    const after = parsePage(200, (await followWithNotice(server, sales, confirmed)).html)
    expect(after.text('.staff-alert--done')).toBe(`Confirmed lead ${first!.id}: a cart is reserved for its days. Call the renter to say so.`)
    // The utility row, the day after the start (the 12th day shown): Una's reservation and Vic's request.
    const cells = after.document.querySelectorAll('.rental-calendar tbody tr:nth-child(3) td')
    expect(cells[10]?.textContent).toBe('1/1 reserved, full')
    expect(cells[11]?.textContent).toBe('1/1 reserved, full+1 requested')

    const refused = await post(sales, { action: 'confirm', id: String(second), from: newJerseyToday() })
    expect(refused.status).toBe(409)
    const page = parsePage(refused.status, await refused.text())
    expect(page.text('.staff-alert--error')).toBe(
      `Lead ${second}: Not confirmed: all 1 Utility cart is already reserved on ${formatDay(addDays(start, 1))}. Change the dates or the cart, or decline the request.`,
    )

    const changed = await post(sales, { action: 'change', id: String(second), cartType: 'utility', plan: 'daily', startDate: addDays(start, 3) })
    expect(changed.status).toBe(303)
    expect((await post(sales, { action: 'confirm', id: String(second) })).status).toBe(303)
    const [row] = await server.db.sql<{ status: string; plan: string; price: number }[]>`
      select status, plan, price::float8 as price from rental_requests where inquiry_id = ${second}
    `
    expect(row).toEqual({ status: 'confirmed', plan: 'daily', price: 245 })
  })

  it('keeps the fleet a manager’s: a sales post is refused with the sentence, and a fleet below a day’s reservations with that day', async () => {
    const refused = await post(sales, { action: 'fleet', cartType: 'utility', carts: '9' })
    expect(refused.status).toBe(403)
    expect(parsePage(refused.status, await refused.text()).text('.staff-alert--error')).toMatch(/^Only managers and owners can change the rental fleet/)
    const below = await post(manager, { action: 'fleet', cartType: 'utility', carts: '0' })
    expect(below.status).toBe(409)
    expect(parsePage(below.status, await below.text()).text('.staff-alert--error')).toMatch(/^Not changed: 1 Utility reservations are confirmed on /)
  })

  it('declines a request, which then leaves the calendar', async () => {
    const id = await requestUtility('Wes', addDays(start, 20))
    const res = await post(sales, { action: 'decline', id: String(id), from: addDays(start, 14) })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${staffPaths.rentals}?from=${addDays(start, 14)}`)
    const page = await open(sales, `${staffPaths.rentals}?from=${addDays(start, 14)}`)
    expect(page.document.querySelector(`.rental-request[data-lead-id="${id}"]`)).toBeNull()
  })
})
