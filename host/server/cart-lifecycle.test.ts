import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchPage } from '../../tests/support/html.ts'
import { addStaff, signedInClient, type staffClient } from '../../tests/support/staff.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { startingInventory } from '../../api/carts/starting-inventory.ts'
/** The seeded inventory's pages of 24, computed from the starting inventory, not remembered. */
const seededCarts = startingInventory().length
const seededPages = Math.ceil(seededCarts / 24)


/** The lifecycle on the pages visitors and search engines get (PRODUCT.md, issue #15). */
let server: TestServer
let staff: ReturnType<typeof staffClient>
const siteUrl = 'https://carts.example'

beforeAll(async () => {
  server = await startTestServer('pglite', { SITE_URL: siteUrl, LOG_LEVEL: 'silent' }, { site: true })
  await addStaff(server)
  staff = (await signedInClient(server)).client
})
afterAll(() => server?.close())

const get = (path: string) => fetchPage(`${server.url}${path}`)
const specRows = (page: Awaited<ReturnType<typeof get>>) =>
  Array.from(page.document.querySelectorAll('.gc-spec-row')).map(
    (row) => `${row.querySelector('dt')?.textContent}: ${row.querySelector('dd')?.textContent}`,
  )
const product = (page: Awaited<ReturnType<typeof get>>) =>
  page.jsonLd().find((d) => Array.isArray(d['@type']) && (d['@type'] as string[]).includes('Car')) as
    | { offers: { availability: string } }
    | undefined

describe('a cart on hold', () => {
  it('is listed after the available carts, marked On Hold, with Reserved availability', async () => {
    const { carts } = await staff.staff.cart.list.query({ sort: 'oldest', limit: 1 })
    const cart = carts[0]!
    await staff.staff.cart.setStatus.mutate({ id: cart.id, status: 'hold' })
    const inventory = await get(`/inventory?page=${seededPages}`)
    const titles = inventory.all('.gc-card__title')
    expect(titles.at(-1)).toBe(cart.title)
    expect(inventory.all('.gc-card .gc-badge--hold')).toEqual(['On Hold'])
    const page = await get(`/vehicle/${cart.slug}`)
    expect(page.status).toBe(200)
    expect(page.text('.gc-badge--hold')).toBe('On Hold')
    expect(specRows(page)).toContain('Availability: On Hold')
    expect(product(page)?.offers.availability).toBe('https://schema.org/Reserved')
    await staff.staff.cart.setStatus.mutate({ id: cart.id, status: 'available' })
  })
})

describe('a sold cart', () => {
  let cart: { id: number; slug: string; title: string }

  beforeAll(async () => {
    const home = await get('/')
    const featuredTitle = home.all('.gc-card__title')[0]!
    cart = (await staff.staff.cart.list.query({ q: featuredTitle })).carts.find((c) => c.title === featuredTitle)!
    await staff.staff.cart.setStatus.mutate({ id: cart.id, status: 'sold' })
  })

  it('leaves the home page\'s featured carts, the inventory and the sitemap at once', async () => {
    expect((await get('/')).all('.gc-card__title')).not.toContain(cart.title)
    const inventory = []
    for (let n = 1; n <= seededPages; n++) inventory.push(...(await get(`/inventory?page=${n}`)).all('.gc-card__title'))
    expect(inventory).not.toContain(cart.title)
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text()
    expect(sitemap).not.toContain(`/vehicle/${cart.slug}<`)
  })

  it('keeps its page, saying Sold, with similar carts, SoldOut availability and noindex', async () => {
    const page = await get(`/vehicle/${cart.slug}`)
    expect(page.status).toBe(200)
    expect(page.text('.gc-badge--sold')).toBe('Sold')
    expect(page.text('.gc-vehicle__notice')).toMatch(/This cart has been sold/)
    expect(specRows(page)).toContain('Availability: Sold')
    expect(page.all('h2')).toContain('Similar Golf Carts')
    expect(page.document.querySelectorAll('[part~="similar"] .gc-card')).toHaveLength(3)
    expect(product(page)?.offers.availability).toBe('https://schema.org/SoldOut')
    expect(page.meta('robots')).toBe('noindex, follow')
  })

  it('answers 410 once SOLD_VISIBLE_DAYS have passed', async () => {
    await server.db.sql`update golf_carts set sold_at = now() - interval '15 days' where id = ${cart.id}`
    const page = await get(`/vehicle/${cart.slug}`)
    expect(page.status).toBe(410)
    expect(page.all('h1')).toEqual(['Vehicle Not Found'])
    expect(page.meta('robots')).toBe('noindex, follow')
  })
})
