import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'csv-parse/sync'
import { formatAddress, mapsSearchUrl, showroomByKey, showrooms } from '../../domain/business.ts'
import { paths } from '../../domain/site-paths.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { fetchPage, parsePage } from '../../tests/support/html.ts'
import { addStaff, signedInClient, staffClient } from '../../tests/support/staff.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { migrate, readMigrations } from '../../api/db/migrate.ts'
import { cartAsValues } from '../staff/cart-form.tsx'

/**
 * Where each cart stands (issue #32, PRODUCT.md "cart location"): the migration that places the
 * carts a database already has, and the location through the import and export, the console's
 * form, filter and API, on both databases.
 */
const locationMigration = (version: string) => /^\d{4}_cart_location$/.test(version)

describe.each(backends)('the cart location migration on %s', (backend) => {
  let db: TestDatabase

  beforeAll(async () => {
    db = await createTestDatabase(backend)
    const all = await readMigrations()
    const at = all.findIndex((m) => locationMigration(m.version))
    expect(at).toBeGreaterThan(0)
    await migrate(db.sql, all.slice(0, at))
    await db.sql`
      insert into golf_carts (slug, alternative_slug, title, description, price, image_url, status)
      values ('2025-denago-ev-city', '2025-denago-ev-city', '2025 Denago EV City', 'A', 8995, '/a.svg', 'available'),
             ('2025-evolution-d5-ranger-4', '2025-evolution-d5-ranger-4', '2025 Evolution D5 Ranger 4', 'B', 9995, '/b.svg', 'sold')
    `
    await migrate(db.sql, all.slice(at))
  })
  afterAll(() => db?.close())

  it('places every cart the database had at Ocean View, the showroom every feed named for them until now', async () => {
    const rows = await db.sql<{ location: string }[]>`select location from golf_carts order by id`
    expect(rows.map((r) => r.location)).toEqual(['ocean-view', 'ocean-view'])
    expect(showrooms[0]!.id).toBe('ocean-view')
  })

  it('refuses a location that is not a showroom key in shape', async () => {
    await expect(db.sql`update golf_carts set location = 'Ocean View' where id = 1`).rejects.toThrow(/check constraint/)
  })
})

describe.each(backends)('a cart location through the console, the import and the export on %s', (backend) => {
  let server: TestServer
  let cookie: string
  let staff: Awaited<ReturnType<typeof signedInClient>>['client']

  beforeAll(async () => {
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' }, { site: true })
    await addStaff(server)
    const signedIn = await signedInClient(server)
    staff = signedIn.client
    cookie = signedIn.cookie
  })
  afterAll(() => server?.close())

  const located = async () =>
    Object.fromEntries(
      (await server.db.sql<{ stockNumber: string; location: string }[]>`select stock_number, location from golf_carts`).map((r) => [r.stockNumber, r.location]),
    )
  const post = (path: string, form: Record<string, string>) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie },
      body: new URLSearchParams(form),
    })

  it('seeds the starting inventory over all four showrooms, as its catalogue says', async () => {
    const counts = await server.db.sql<{ location: string; n: number }[]>`select location, count(*)::int as n from golf_carts group by location order by location`
    expect(counts.map((c) => c.location).sort()).toEqual(showrooms.map((s) => s.id).sort())
    expect(counts.every((c) => c.n > 0)).toBe(true)
  })

  it('offers the four showrooms in the cart form, the first chosen for a new cart, the stored one for a cart', async () => {
    const fresh = parsePage(200, await (await fetch(`${server.url}${staffPaths.newCart}`, { headers: { cookie } })).text())
    const options = [...fresh.document.querySelectorAll('#field-location option')].map((o) => [o.getAttribute('value'), o.textContent])
    expect(options).toEqual(showrooms.map((s) => [s.id, s.name]))
    expect(fresh.document.querySelector('#field-location option[selected]')?.getAttribute('value')).toBe('ocean-view')
    expect(fresh.document.querySelector('label[for="field-location"]')?.textContent).toBe('Location')

    const [cart] = await server.db.sql<{ id: number; location: string }[]>`select id, location from golf_carts where location = 'waretown' order by id limit 1`
    const page = parsePage(200, await (await fetch(`${server.url}${staffPaths.cart(cart!.id)}`, { headers: { cookie } })).text())
    expect(page.document.querySelector('#field-location option[selected]')?.getAttribute('value')).toBe('waretown')
  })

  it('saves the location posted with the form, records it in the history, and refuses a place that is no showroom beside the field', async () => {
    const cart = (await server.runtime.services.staff.cartRecords.get(1))!
    // The form as the page sends it: every field of the cart as stored.
    const form = Object.fromEntries(Object.entries(cartAsValues(cart)).filter(([, value]) => value !== ''))
    const refused = await post(staffPaths.cart(1), { ...form, location: 'atlantic-city' })
    expect(refused.status).toBe(400)
    const html = await refused.text()
    expect(parsePage(400, html).text('#field-location-error')).toMatch(/^Location must be one of the showrooms: ocean-view \(Ocean View\)/)
    expect((await server.runtime.services.staff.cartRecords.get(1))!.location).toBe(cart.location)

    const to = cart.location === 'pleasantville' ? 'bayville' : 'pleasantville'
    const saved = await post(staffPaths.cart(1), { ...form, location: to })
    expect(saved.status).toBe(303)
    expect((await server.runtime.services.staff.cartRecords.get(1))!.location).toBe(to)
    const changes = await staff.staff.audit.forCart.query({ id: 1, limit: 5 })
    expect(changes.filter((c) => c.at === changes[0]!.at)).toEqual([expect.objectContaining({ field: 'location', before: cart.location, after: to })])
    const page = parsePage(200, await (await fetch(`${server.url}${staffPaths.cart(1)}`, { headers: { cookie } })).text())
    const names = Object.fromEntries(showrooms.map((s) => [s.id, s.name]))
    expect(page.all('.staff-history li')[0]).toContain(`changed Location from ${names[cart.location]} to ${names[to]}`)
  })

  it('filters the console\'s table and staff.cart.list by showroom, and refuses an unknown one', async () => {
    const expected = await server.db.sql<{ title: string }[]>`select title from golf_carts where location = 'bayville' order by listed_at desc, id desc`
    const { carts, total } = await staff.staff.cart.list.query({ location: 'bayville', limit: 200 })
    expect(total).toBe(expected.length)
    expect(carts.map((c) => c.title)).toEqual(expected.map((c) => c.title))
    expect(carts.every((c) => c.location === 'bayville')).toBe(true)
    await expect(staff.staff.cart.list.query({ location: 'atlantic-city' })).rejects.toThrow(/Location must be one of the showrooms/)

    const page = parsePage(200, await (await fetch(`${server.url}/staff?location=bayville`, { headers: { cookie } })).text())
    expect(page.text('#inventory-count')).toBe(`1–${Math.min(50, expected.length)} of ${expected.length} carts`)
    expect(page.all('.staff-table__cart .staff-muted').every((text) => text.includes('Bayville'))).toBe(true)
    expect(page.document.querySelector('#inventory-location option[selected]')?.getAttribute('value')).toBe('bayville')
    // An unknown showroom in the address is ignored, as the table's other unknown values are.
    const every = parsePage(200, await (await fetch(`${server.url}/staff?location=nowhere`, { headers: { cookie } })).text())
    expect(every.text('#inventory-count')).toMatch(/of \d+ carts$/)
  })

  it('moves carts with the import\'s location column, by key or name, and keeps a cart\'s location when the file has no such column', async () => {
    const before = await located()
    const [first, second] = Object.keys(before)
    const inventory = server.runtime.services.staff.inventory
    const actor = { id: null, name: 'location test' }
    const moved = await inventory.importCsv(`stockNumber,title,description,price,location\n${await row(first!)},Pleasantville\n${await row(second!)},waretown\n`, actor, { filesAllowed: false })
    expect(moved).toMatchObject({ ok: true, applied: { updated: expect.any(Number) } })
    expect(await located()).toMatchObject({ [first!]: 'pleasantville', [second!]: 'waretown' })

    const without = await inventory.importCsv(`stockNumber,title,description,price\n${await row(first!)}\n`, actor, { filesAllowed: false })
    expect(without).toMatchObject({ ok: true })
    expect((await located())[first!]).toBe('pleasantville')

    const refused = await inventory.importCsv(`stockNumber,title,description,price,location\n${await row(first!)},Atlantic City\n`, actor, { filesAllowed: false })
    expect(refused).toMatchObject({ ok: false, problems: [{ line: 2, field: 'location', message: expect.stringMatching(/^Location must be one of the showrooms/) }] })
  })

  it('writes the location column in the export, which imports again changing nothing', async () => {
    const csv = await server.runtime.services.staff.inventory.exportCsv()
    const [header, ...rows]: string[][] = parse(csv)
    const at = header!.indexOf('location')
    expect(at).toBeGreaterThan(header!.indexOf('status'))
    const stored = await located()
    expect(Object.fromEntries(rows.map((r) => [r[0], r[at]]))).toEqual(stored)
    const again = await server.runtime.services.staff.inventory.importCsv(csv, { id: null, name: 'round trip' }, { dryRun: true, filesAllowed: false })
    expect(again).toMatchObject({ ok: true, plan: { adds: [], updates: [] } })
  })

  /** A cart's stock number, title, description and price as CSV cells. */
  async function row(stockNumber: string): Promise<string> {
    const [cart] = await server.db.sql<{ title: string; description: string; price: number }[]>`
      select title, description, price::float8 as price from golf_carts where stock_number = ${stockNumber}
    `
    const cell = (text: string) => `"${text.replaceAll('"', '""')}"`
    return [stockNumber, cell(cart!.title), cell(cart!.description), cart!.price].join(',')
  }

  it('is refused by staff procedures without a session, like every other field', async () => {
    await expect(staffClient(server, undefined).staff.cart.list.query({ location: 'bayville' })).rejects.toThrow(/Sign in/)
  })
})

describe.each(backends)('a cart\'s showroom as visitors see it on %s', (backend) => {
  const siteUrl = 'https://carts.example'
  let server: TestServer
  let cart: { slug: string; title: string }

  beforeAll(async () => {
    server = await startTestServer(backend, { SITE_URL: siteUrl, CART_CACHE_MS: '0', LOG_LEVEL: 'silent' }, { site: true })
    const [moved] = await server.db.sql<{ slug: string; title: string }[]>`
      update golf_carts set location = 'waretown' where id = (select min(id) from golf_carts where status = 'available') returning slug, title
    `
    cart = moved!
  })
  afterAll(() => server?.close())

  const vehicle = () => fetchPage(`${server.url}${paths.vehicle(cart.slug)}`)
  const offerOf = (page: Awaited<ReturnType<typeof vehicle>>) =>
    (page.jsonLd().find((d) => Array.isArray(d['@type']) && (d['@type'] as string[]).includes('Car')) as { offers: Record<string, unknown> }).offers

  it('shows the showroom on the vehicle page, with its address as a map link and its phone', async () => {
    const page = await vehicle()
    expect(page.status).toBe(200)
    const waretown = showroomByKey('waretown')!
    expect(page.text('.gc-vehicle__location p')).toMatch(/^At our Waretown showroom/)
    expect(page.text('.gc-vehicle__location strong')).toBe('Waretown showroom')
    const links = Array.from(page.document.querySelectorAll('.gc-vehicle__location a')).map((a) => [a.getAttribute('href'), a.textContent])
    expect(links).toEqual([
      [mapsSearchUrl(waretown), `${formatAddress(waretown.address!)} (map, opens in a new tab)`],
      [`tel:${waretown.phone.tel}`, waretown.phone.display],
    ])
  })

  it('names that showroom, with its address, as the seller of the offer in the JSON-LD, a department of the dealer', async () => {
    const offer = offerOf(await vehicle())
    expect(offer.seller).toMatchObject({
      '@type': 'AutoDealer',
      '@id': `${siteUrl}/#showroom-waretown`,
      name: 'Jersey Cart Co. Waretown',
      telephone: '+16095550133',
      address: { '@type': 'PostalAddress', streetAddress: '526 US-9', addressLocality: 'Waretown', addressRegion: 'NJ', postalCode: '08758', addressCountry: 'US' },
      parentOrganization: { '@id': `${siteUrl}/#dealer` },
    })
    expect(offer.availableAtOrFrom).toEqual({ '@id': `${siteUrl}/#showroom-waretown` })
    // The same @id as the showroom among the dealer's departments on the home page.
    const home = await fetchPage(`${server.url}/`)
    const dealer = home.jsonLd().find((d) => d['@type'] === 'AutoDealer') as { department: { '@id': string; name: string }[] }
    expect(dealer.department.map((d) => d['@id'])).toEqual(showrooms.map((s) => `${siteUrl}/#showroom-${s.id}`))
  })

  it('follows the cart when staff move it: page, JSON-LD, card and filter', async () => {
    await server.db.sql`update golf_carts set location = 'pleasantville' where slug = ${cart.slug}`
    const page = await vehicle()
    expect(page.text('.gc-vehicle__location strong')).toBe('Pleasantville showroom')
    expect(offerOf(page).seller).toMatchObject({ name: 'Jersey Cart Co. Pleasantville', address: { streetAddress: '7000 Black Horse Pike' } })

    const listed = await fetchPage(`${server.url}${paths.inventorySearch({ location: 'pleasantville', q: cart.title }, 0)}`)
    const card = Array.from(listed.document.querySelectorAll('.gc-card')).find((c) => c.querySelector('a')?.getAttribute('href') === paths.vehicle(cart.slug))
    expect(card?.querySelector('.gc-card__location')?.textContent).toBe('Pleasantville showroom')
    const api = (await (await fetch(`${server.url}/api/golf-carts?location=waretown&limit=100`)).json()) as { slug: string; location: string }[]
    expect(api.map((c) => c.slug)).not.toContain(cart.slug)
    expect(api.every((c) => c.location === 'waretown')).toBe(true)
  })

  it('says a sold cart was at its showroom', async () => {
    await server.db.sql`update golf_carts set status = 'sold', sold_at = now() where slug = ${cart.slug}`
    expect((await vehicle()).text('.gc-vehicle__location strong')).toBe('Pleasantville showroom')
    expect((await vehicle()).text('.gc-vehicle__location p')).toMatch(/^Was at our Pleasantville showroom/)
  })
})
