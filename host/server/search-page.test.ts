import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CartSearch, cartSearchParams } from '../../domain/cart-query.ts'
import { showroomByKey, showrooms } from '../../domain/business.ts'
import { paths } from '../../domain/site-paths.ts'
import { fetchPage } from '../../tests/support/html.ts'
import { expectedOrder, type SearchableCart, searchableColumns } from '../../tests/support/search-facts.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

type Cart = SearchableCart & { slug: string; listedAt: number }

/**
 * `/inventory` as the server renders it, before any script (PRODUCT.md, "search"): every filter
 * and sort on both databases, the counts beside each choice, links for every choice, the
 * canonical address. Expected lists are computed from the carts the database holds.
 */
describe.each(backends)('the inventory page searched, server-rendered, on %s', (backend) => {
  let server: TestServer
  let carts: Cart[]
  const open = (search: CartSearch, page = 0) => fetchPage(`${server.url}${paths.inventorySearch(search, page)}`)
  const titles = (search: CartSearch) => expectedOrder(carts, search).map((c) => c.title)

  beforeAll(async () => {
    server = await startTestServer(backend, { CART_CACHE_MS: '0', LOG_LEVEL: 'silent' }, { site: true })
    const { sql } = server.db
    // Beside the seed: facts staff stored over the titles', so every filter finds something.
    await sql`update golf_carts set street_legal = true where id in (select id from golf_carts order by id limit 5)`
    await sql`update golf_carts set lifted = true, seats = 8 where id in (select id from golf_carts order by id desc limit 3)`
    await sql`update golf_carts set status = 'hold', listed_at = now() + interval '1 day' where id = (select min(id) from golf_carts)`
    carts = [...(await sql.unsafe<Cart[]>(`select ${searchableColumns} from golf_carts`))]
  })
  afterAll(() => server?.close())

  it.each<[string, CartSearch]>([
    ['category', { category: 'new' }],
    ['make', { make: ['evolution'] }],
    ['seats', { seats: 6 }],
    ['battery', { battery: 'lead-acid' }],
    ['street legal', { streetLegal: true }],
    ['lifted', { lifted: true }],
    ['location', { location: 'waretown' }],
    ['price range', { minPrice: 10000, maxPrice: 14000 }],
    ['words', { q: 'denago xl' }],
    ['price-asc', { sort: 'price-asc' }],
    ['price-desc', { sort: 'price-desc' }],
    ['newest', { sort: 'newest' }],
    ['the buyer', { battery: 'lithium', seats: 6, maxPrice: 15000, sort: 'price-asc' }],
  ])('renders the carts of a search by %s, in order, with their number', async (_name, search) => {
    const page = await open(search)
    expect(page.status).toBe(200)
    const expected = titles(search)
    expect(expected.length).toBeGreaterThan(0)
    expect(page.all('.gc-inventory .gc-card h2')).toEqual(expected.slice(0, 24))
    expect(page.text('.gc-inventory__count')).toMatch(new RegExp(`^${expected.length} golf carts?`))
  })

  it('puts the number of carts each choice would leave beside it, as a link to that search', async () => {
    const search: CartSearch = { battery: 'lithium', sort: 'price-asc' }
    const page = await open(search)
    const choices = Array.from(page.document.querySelectorAll<HTMLAnchorElement>('.gc-filters a.gc-filters__choice'))
    expect(choices.length).toBeGreaterThan(8)
    for (const choice of choices) {
      const href = choice.getAttribute('href')!
      const count = choice.querySelector('.gc-filters__count')?.textContent
      const chosen = Object.fromEntries(new URL(href, server.url).searchParams)
      expect(chosen.sort).toBe('price-asc')
      if (count === undefined || count === null) continue
      const searched = (await import('../../domain/cart-query.ts')).readCartSearch(chosen).search
      expect(Number(count), href).toBe(titles(searched).length)
    }
  })

  it('offers each showroom as a Location link with its count, names each card\'s showroom, and keeps the rest of the search', async () => {
    const search: CartSearch = { battery: 'lithium', sort: 'price-asc' }
    const page = await open(search)
    const group = Array.from(page.document.querySelectorAll('.gc-filters__group')).find((g) => g.querySelector('legend')?.textContent === 'Location')
    expect(group).toBeDefined()
    const choices = Array.from(group!.querySelectorAll<HTMLAnchorElement>('a.gc-filters__choice'))
    expect(choices.map((c) => c.querySelector('.gc-filters__label')?.textContent)).toEqual(['Any showroom', ...showrooms.map((s) => s.name)])
    for (const [i, showroom] of showrooms.entries()) {
      const choice = choices[i + 1]!
      expect(Object.fromEntries(new URL(choice.getAttribute('href')!, server.url).searchParams)).toEqual({ battery: 'lithium', location: showroom.id, sort: 'price-asc' })
      expect(Number(choice.querySelector('.gc-filters__count')?.textContent)).toBe(titles({ ...search, location: showroom.id }).length)
    }
    const located = Object.fromEntries(carts.map((c) => [paths.vehicle(c.slug), c.location]))
    const cards = Array.from(page.document.querySelectorAll('.gc-inventory .gc-card'))
    expect(cards.length).toBe(Math.min(24, titles(search).length))
    for (const card of cards) {
      const href = card.querySelector('a')?.getAttribute('href') ?? ''
      expect(card.querySelector('.gc-card__location')?.textContent).toBe(`${showroomByKey(located[href]!)!.name} showroom`)
    }

    const chosen = await open({ ...search, location: 'bayville' })
    expect(chosen.all('.gc-inventory .gc-card .gc-card__location').every((text) => text === 'Bayville showroom')).toBe(true)
    expect(chosen.all('.gc-inventory .gc-card h2')).toEqual(titles({ ...search, location: 'bayville' }).slice(0, 24))
    expect(chosen.all('.gc-filters a[aria-current="true"] .gc-filters__label')).toContain('Bayville')
    // The words box, prices and sort keep the showroom when they are sent without JavaScript.
    expect(chosen.document.querySelector('.gc-filters__form input[type="hidden"][name="location"]')?.getAttribute('value')).toBe('bayville')
  })

  it('shows on every card its seats, range, battery and monthly price, and badges only what sets a cart apart', async () => {
    const search: CartSearch = { lifted: true, seats: 8, sort: 'price-asc' }
    const page = await open(search)
    const cards = Array.from(page.document.querySelectorAll('.gc-inventory .gc-card'))
    const lifted = expectedOrder(carts, search)
    expect(lifted.filter((c) => c.seats === 8).length).toBe(3)
    expect(cards.length).toBe(lifted.length)
    for (const [i, card] of cards.entries()) {
      const cart = lifted[i]!
      const specs = Array.from(card.querySelectorAll('.gc-card__specs li')).map((li) => li.textContent)
      // Seats as staff stored them (8) over the title's, as the search read them; range and battery as the cart's page has them.
      expect(specs[0]).toBe('8 seats')
      expect(specs[1]).toMatch(/^\d+-\d+ mi range$/)
      expect(specs[2]).toMatch(/^(Lithium Ion|Lead Acid)$/)
      expect(card.querySelector('.gc-card__monthly')?.textContent).toBe(`From $${Math.ceil(cart.price / 36).toLocaleString('en-US')}/mo`)
    }
    // The starting inventory is no news: no badge on its cards. The one on hold says so, and,
    // listed a day ahead in this test, that it just arrived.
    expect((await open({})).all('.gc-inventory .gc-card .gc-badge')).toEqual([])
    const held = carts.find((c) => c.status === 'hold')!
    expect((await open({ q: held.stockNumber })).all('.gc-inventory .gc-card .gc-badge')).toEqual(['On Hold', 'Just arrived'])
  })

  it('takes a page number past the last to the last page, and an empty search\'s to the first', async () => {
    // The case: /inventory?page=9 of 5 said "Page 9 of 5" and "193 to 192 shown".
    const search: CartSearch = { sort: 'price-asc' }
    const last = Math.ceil(titles(search).length / 24)
    expect(last).toBeGreaterThan(1)
    const to = await fetch(`${server.url}${paths.inventorySearch(search, last + 3)}`, { redirect: 'manual' })
    expect(to.status).toBe(302)
    expect(to.headers.get('location')).toBe(paths.inventorySearch(search, last - 1))
    const landed = await fetchPage(new URL(to.headers.get('location')!, server.url).href)
    expect(landed.text('.gc-pager span')).toBe(`Page ${last} of ${last}`)
    const nothing = await fetch(`${server.url}/inventory?q=hovercraft&page=3`, { redirect: 'manual' })
    expect(nothing.status).toBe(302)
    expect(nothing.headers.get('location')).toBe('/inventory?q=hovercraft')
    expect((await open({}, 1)).status).toBe(200)
  })

  it('points filtered pages\' canonical link at the unfiltered inventory, and keeps SPEC\'s category pages', async () => {
    const canonical = async (search: CartSearch, page = 0) => (await open(search, page)).document.querySelector('link[rel="canonical"]')?.getAttribute('href')
    expect(await canonical({ seats: 6, sort: 'newest' })).toMatch(/\/inventory$/)
    expect(await canonical({ q: 'rover' })).toMatch(/\/inventory$/)
    expect(await canonical({ location: 'pleasantville' })).toMatch(/\/inventory$/)
    expect(await canonical({ category: 'new', sort: 'price-desc' })).toMatch(/\/inventory\?category=new$/)
  })

  it('ignores a value it does not understand, says so, and shows the rest', async () => {
    const page = await fetchPage(`${server.url}/inventory?battery=lithium&seats=lots&${cartSearchParams({ sort: 'newest' })}`)
    expect(page.status).toBe(200)
    expect(page.text('.gc-inventory__notice')).toContain('seats must be a whole number of seats from 1 to 12')
    const nowhere = await fetchPage(`${server.url}/inventory?battery=lithium&location=atlantic-city`)
    expect(nowhere.status).toBe(200)
    expect(nowhere.text('.gc-inventory__notice')).toContain('location must be one of the showrooms: ocean-view (Ocean View)')
    expect(nowhere.all('.gc-inventory .gc-card h2')).toEqual(titles({ battery: 'lithium' }).slice(0, 24))
    expect(page.all('.gc-inventory .gc-card h2')).toEqual(titles({ battery: 'lithium', sort: 'newest' }).slice(0, 24))
  })

  it('keeps SPEC\'s message for a category that has nothing, and does not speak of a category when a search has none', async () => {
    expect((await open({ category: 'used' })).text('.gc-empty')).toBe('No golf carts found in this category.')
    const page = await open({ q: 'hovercraft' })
    expect(page.text('.gc-empty')).toBe('No golf carts match this search.')
    expect(page.document.querySelector('.gc-inventory__clear')?.getAttribute('href')).toBe('/inventory')
  })
})
