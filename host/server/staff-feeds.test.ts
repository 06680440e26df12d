import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { staffPaths } from '../../domain/staff-paths.ts'
import { parsePage } from '../../tests/support/html.ts'
import { addStaff, signIn } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/** The console's feeds page (issue #17): which available carts each listing feed leaves out, and why. */
describe.each(backends)('the feeds page on %s', (backend) => {
  let server: TestServer
  let cookie: string

  beforeAll(async () => {
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' }, { site: true })
    await addStaff(server)
    cookie = (await signIn(server)).cookie!
  })
  afterAll(() => server?.close())

  it('names every available cart a feed leaves out, with its reasons and a link to its form', async () => {
    const res = await fetch(`${server.url}${staffPaths.feeds}`, { headers: { cookie } })
    expect(res.status).toBe(200)
    const page = parsePage(res.status, await res.text())
    expect(page.all('h1')).toEqual(['Listing feeds'])
    const withoutVin = await server.db.sql<{ id: number; title: string }[]>`
      select id, title from golf_carts where status = 'available' and vin is null order by id
    `
    expect(withoutVin.length).toBeGreaterThan(0)
    const google = page.document.querySelector('section[aria-labelledby="feed-google"]')!
    const rows = [...google.querySelectorAll('tbody tr')]
    expect(rows.map((row) => row.querySelector('a')?.getAttribute('href'))).toEqual(withoutVin.map((c) => staffPaths.cart(c.id)))
    expect(rows[0]!.textContent).toMatch(/No VIN/)
    const listed = (await server.db.sql`select count(*)::int as n from golf_carts where status = 'available' and vin is not null`)[0]!.n as number
    expect(google.textContent).toContain(`${listed} carts listed, ${withoutVin.length} left out`)
    expect(page.document.querySelector(`nav a[href="${staffPaths.feeds}"]`)?.textContent).toBe('Feeds')
  })

  it('reports the product feed: every available cart with or without a VIN, leaving out only one without a price or an image', async () => {
    const [free, bare] = await server.db.sql<{ id: number }[]>`
      select id from golf_carts where status = 'available' and vin is null order by id limit 2
    `
    await server.db.sql`update golf_carts set price = 0 where id = ${free!.id}`
    await server.db.sql`update golf_carts set image_url = null, title = 'Custom Build', make = null, model = null where id = ${bare!.id}`
    const res = await fetch(`${server.url}${staffPaths.feeds}`, { headers: { cookie } })
    const page = parsePage(res.status, await res.text())
    const products = page.document.querySelector('section[aria-labelledby="feed-products"]')!
    expect(products.querySelector('h2')?.textContent).toMatch(/Google Merchant Center/)
    expect(products.querySelector('a')?.getAttribute('href')).toBe('/feeds/products.xml')
    const available = (await server.db.sql`select count(*)::int as n from golf_carts where status = 'available'`)[0]!.n as number
    expect(products.textContent).toContain(`${available - 2} carts listed, 2 left out`)
    const rows = [...products.querySelectorAll('tbody tr')]
    expect(rows.map((row) => row.querySelector('a')?.getAttribute('href'))).toEqual([free, bare].map((c) => staffPaths.cart(c!.id)))
    expect(rows.map((row) => row.querySelector('li')?.textContent)).toEqual([expect.stringMatching(/^No price/), expect.stringMatching(/^No image/)])
    expect(products.textContent).not.toMatch(/VIN/)
  })

  it('sends anyone without a session to the sign-in page', async () => {
    const res = await fetch(`${server.url}${staffPaths.feeds}`, { redirect: 'manual' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${staffPaths.login}?next=%2Fstaff%2Ffeeds`)
  })
})
