import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { staffPaths } from '../../domain/staff-paths.ts'
import { parsePage } from '../../tests/support/html.ts'
import { addStaff, followWithNotice, signIn } from '../../tests/support/staff.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { idsOf } from '../staff/inventory.tsx'

/**
 * The inventory list's bulk changes as a browser without the console's script uses them (issue
 * #30, point 6): tick rows, choose a change, apply; a sale and a deletion ask first on a page
 * naming every cart. The procedures' rules, on both databases, are in api/staff/bulk-changes.test.ts.
 */
describe('bulk changes from the inventory list', () => {
  let server: TestServer
  const cookies = { sales: '', manager: '' }

  beforeAll(async () => {
    server = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
    await addStaff(server, 'sales-sue', undefined, 'sales')
    await addStaff(server, 'manager-max', undefined, 'manager')
    cookies.sales = (await signIn(server, 'sales-sue')).cookie!
    cookies.manager = (await signIn(server, 'manager-max')).cookie!
  })
  afterAll(() => server?.close())

  const open = async (path: string, as: keyof typeof cookies) => {
    const res = await fetch(`${server.url}${path}`, { redirect: 'manual', headers: { cookie: cookies[as] } })
    return parsePage(res.status, await res.text())
  }
  const post = (path: string, form: Record<string, string> | [string, string][], as: keyof typeof cookies) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie: cookies[as] },
      body: new URLSearchParams(form),
    })
  const statuses = async (ids: number[]) =>
    (await server.db.sql<{ status: string }[]>`select status from golf_carts where id in ${server.db.sql(ids)} order by id`).map((row) => row.status)
  const available = async (count: number) =>
    (await server.db.sql<{ id: number }[]>`select id from golf_carts where status = 'available' order by id limit ${count}`).map((row) => row.id)
  /** The ticked boxes as a browser posts them: `ids=4&ids=12`. */
  const ticked = (ids: number[]) => ids.map((id) => ['ids', String(id)] as [string, string])

  it('reads a confirmation page\'s list from its address, and nothing else', () => {
    expect(idsOf(new URLSearchParams('ids=4&ids=12&ids=x&ids=0&ids=4&action=hold'))).toEqual([4, 12])
    expect(idsOf(new URLSearchParams())).toEqual([])
  })

  it('gives each row a labelled box and the list one change for them all; Delete only to managers', async () => {
    const sales = await open('/staff?sort=oldest', 'sales')
    const boxes = sales.document.querySelectorAll('input[type=checkbox][form="bulk-change"]')
    expect(boxes.length).toBe(sales.all('.staff-table__cart a').length)
    const first = boxes[0]!
    expect(sales.text(`label[for="${first.id}"]`)).toBe(`Select ${sales.all('.staff-table__cart a')[0]}`)
    expect(sales.all('#bulk-action option')).toEqual(['Choose a change', 'Mark available', 'Put on hold', 'Mark sold…', 'Back to draft', 'Feature', 'Stop featuring'])
    expect((await open('/staff', 'manager')).all('#bulk-action option')).toContain('Delete…')
  })

  it('puts the ticked carts on hold in one press and says how many', async () => {
    const ids = await available(3)
    const res = await post(staffPaths.bulkChange, [['action', 'hold'], ['back', '/staff?sort=oldest'], ...ticked(ids)], 'sales')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/staff?sort=oldest')
    expect(await statuses(ids)).toEqual(['hold', 'hold', 'hold'])
    const shown = await followWithNotice(server, cookies.sales, res)
    expect(parsePage(200, shown.html).text('[role="status"]')).toBe('3 carts put on hold.')
    await post(staffPaths.bulkChange, [['action', 'available'], ...ticked(ids)], 'sales')
    expect(await statuses(ids)).toEqual(['available', 'available', 'available'])
  })

  it('says what is missing, keeping the ticks and the choice, when no cart or no change was chosen', async () => {
    const none = await post(staffPaths.bulkChange, { action: 'feature', back: '/staff' }, 'sales')
    expect(none.status).toBe(400)
    const page = parsePage(none.status, await none.text())
    expect(page.text('[role="alert"]')).toBe('Select at least one cart first: tick the box beside each cart to change.')
    expect(page.document.querySelector<HTMLSelectElement>('#bulk-action option[selected]')?.value).toBe('feature')
    const [id] = await available(1)
    const noChange = await post(staffPaths.bulkChange, [['action', ''], ['back', '/staff?sort=oldest'], ...ticked([id!])], 'sales')
    expect(noChange.status).toBe(400)
    const again = parsePage(noChange.status, await noChange.text())
    expect(again.text('[role="alert"]')).toBe('Choose a change to apply to the selected carts.')
    expect(again.document.querySelector<HTMLInputElement>(`#pick-${id}`)?.hasAttribute('checked')).toBe(true)
  })

  it('asks before selling, naming every cart, and sells them all on yes', async () => {
    const ids = await available(2)
    const asked = await post(staffPaths.bulkChange, [['action', 'sold'], ['back', '/staff'], ...ticked(ids)], 'sales')
    expect(asked.status).toBe(303)
    expect(await statuses(ids)).toEqual(['available', 'available'])
    const question = await open(asked.headers.get('location')!, 'sales')
    expect(question.status).toBe(200)
    expect(question.text('h1')).toBe('Mark 2 carts as sold?')
    const titles = await server.db.sql<{ title: string }[]>`select title from golf_carts where id in ${server.db.sql(ids)} order by id`
    expect(question.all('.staff-bulk__carts li').map((item) => item.split(' · ')[0])).toEqual(titles.map((row) => row.title))
    const form = [...question.document.querySelectorAll<HTMLInputElement>('form[method=post] input[type=hidden]')].map((input) => [input.name, input.value] as [string, string])
    const sold = await post(staffPaths.bulkChange, form, 'sales')
    expect(sold.headers.get('location')).toBe('/staff')
    expect(parsePage(200, (await followWithNotice(server, cookies.sales, sold)).html).text('[role="status"]')).toBe('2 carts marked sold.')
    expect(await statuses(ids)).toEqual(['sold', 'sold'])
    await post(staffPaths.bulkChange, [['action', 'available'], ...ticked(ids)], 'sales')
  })

  it('lets a manager delete the ticked carts after a question, and refuses sales the question and the post', async () => {
    const ids = await available(2)
    const handedOn = await post(staffPaths.bulkChange, [['action', 'delete'], ['back', '/staff'], ...ticked(ids)], 'manager')
    expect(handedOn.status).toBe(303)
    const question = handedOn.headers.get('location')!
    expect(question.startsWith(`${staffPaths.bulkDelete}?`)).toBe(true)
    expect((await open(question, 'sales')).status).toBe(403)
    const refused = await post(staffPaths.bulkDelete, [...ticked(ids), ['confirm', 'yes']], 'sales')
    expect(refused.status).toBe(403)
    expect(await statuses(ids)).toHaveLength(2)
    const page = await open(question, 'manager')
    expect(page.text('h1')).toBe('Delete 2 carts?')
    const deleted = await post(staffPaths.bulkDelete, [...ticked(ids), ['confirm', 'yes'], ['back', '/staff']], 'manager')
    expect(deleted.headers.get('location')).toBe('/staff')
    expect(await statuses(ids)).toEqual([])
    expect(parsePage(200, (await followWithNotice(server, cookies.manager, deleted)).html).text('[role="status"]')).toBe('2 carts deleted.')
  })
})
