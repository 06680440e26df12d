import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CartFacets, type CartSearch, cartSearchParams, priceCeilings, seatChoices } from '../../domain/cart-query.ts'
import { showroomKeys } from '../../domain/business.ts'
import { batteries } from '../../domain/cart-facts.ts'
import { effectiveFacts, expectedOrder, matches, type SearchableCart, searchableColumns } from '../../tests/support/search-facts.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

type Cart = SearchableCart & { slug: string; listedAt: number }

/**
 * Search over HTTP (PRODUCT.md, "search"): every filter and sort on `GET /api/golf-carts` and
 * tRPC's `cart.list`, against carts whose expected answers are computed from what the database
 * holds, so the tests hold whatever the seed is. Beside the seed: carts with stored facts that
 * differ from their titles, a hold, a sold cart and a used one.
 */
describe.each(backends)('search on %s', (backend) => {
  let server: TestServer
  let carts: Cart[]
  const get = (path: string) => fetch(`${server.url}${path}`)
  const rest = async (search: CartSearch, extra = '') => {
    const res = await get(`/api/golf-carts?${cartSearchParams(search)}${extra}`)
    expect(res.status).toBe(200)
    return { slugs: ((await res.json()) as { slug: string }[]).map((c) => c.slug), total: Number(res.headers.get('x-total-count')) }
  }
  const trpc = async (input: unknown) => {
    const res = await get(`/trpc/cart.list?input=${encodeURIComponent(JSON.stringify(input))}`)
    return { status: res.status, body: await res.json() }
  }
  const expected = (search: CartSearch) => expectedOrder(carts, search).map((c) => c.slug)

  beforeAll(async () => {
    server = await startTestServer(backend, { CACHE_MB: '0' })
    const { sql } = server.db
    const add = (title: string, price: number, facts: Record<string, unknown> = {}) => sql`
      insert into golf_carts ${sql({ slug: title.toLowerCase().replace(/\W+/g, '-'), alternativeSlug: title.toLowerCase().replace(/\W+/g, '-'), title, description: `${title}, a cart for the search tests`, price, imageUrl: '/a.svg', category: 'new', ...facts })}
    `
    await add('Trade-in Club Car Onward', 7995, { make: 'Club Car', seats: 6, battery: 'lithium', streetLegal: true, category: 'used' })
    await add('Evolution D6 Max GT4 Lifted', 14500, { seats: 6, lifted: true, streetLegal: true })
    await add('Denago EV Rover XL Street', 12995, { battery: 'lead-acid', streetLegal: true, listedAt: new Date('2030-01-01') })
    await add('Denago EV Nomad XL On Hold', 11995, { status: 'hold' })
    await add('Denago EV City Sold', 10995, { status: 'sold' })
    await add('Icon i60L', 16995, { make: 'Icon', model: 'i60L', lifted: true, listedAt: new Date('2029-06-01') })
    carts = [...(await sql.unsafe<Cart[]>(`select ${searchableColumns} from golf_carts`))]
    expect(carts.filter((c) => c.status !== 'sold').length).toBeGreaterThan(24)
  })
  afterAll(() => server?.close())

  const searches: [string, CartSearch][] = [
    ['no filter', {}],
    ['category', { category: 'new' }],
    ['an unknown category (SPEC: nothing)', { category: 'spaceships' }],
    ['one make', { make: ['denago'] }],
    ['several makes', { make: ['club-car', 'evolution'] }],
    ['a make only stored, never in a title', { make: ['icon'] }],
    ['seats (at least)', { seats: 6 }],
    ['seats 8', { seats: 8 }],
    ['lithium', { battery: 'lithium' }],
    ['lead-acid', { battery: 'lead-acid' }],
    ['street legal', { streetLegal: true }],
    ['lifted', { lifted: true }],
    ['a showroom', { location: 'pleasantville' }],
    ['another showroom, with a make', { location: 'bayville', make: ['denago'] }],
    ['a lowest price', { minPrice: 12000 }],
    ['a highest price', { maxPrice: 15000 }],
    ['a price range', { minPrice: 9000, maxPrice: 13000 }],
    ['words of a title', { q: 'rover xl' }],
    ['the start of a word', { q: 'nom' }],
    ['a word of the description', { q: 'search tests' }],
    ['a stock number', { q: 'DN-25003' }],
    ['words nothing has', { q: 'hovercraft' }],
    ['price, low to high', { sort: 'price-asc' }],
    ['price, high to low', { sort: 'price-desc' }],
    ['newest', { sort: 'newest' }],
    ['the buyer: lithium six-seaters under $15,000 by price', { battery: 'lithium', seats: 6, maxPrice: 15000, sort: 'price-asc' }],
    ['everything at once', { category: 'new', make: ['denago', 'evolution'], seats: 4, battery: 'lithium', streetLegal: true, minPrice: 1000, maxPrice: 20000, q: 'max', sort: 'price-desc' }],
  ]

  it.each(searches)('GET /api/golf-carts finds by %s, holds last, with the total', async (_name, search) => {
    const { slugs, total } = await rest(search)
    expect(slugs).toEqual(expected(search))
    expect(total).toBe(slugs.length)
  })

  it('the searches above are not vacuous: each filter finds some carts but not all', () => {
    const listed = carts.filter((c) => c.status !== 'sold').length
    const everyOrNone = ['no filter', 'an unknown category (SPEC: nothing)', 'words nothing has', 'price, low to high', 'price, high to low', 'newest']
    for (const [name, search] of searches) {
      const found = expected(search).length
      if (everyOrNone.includes(name)) expect(found === 0 || found === listed, name).toBe(true)
      else expect(found > 0 && found < listed, name).toBe(true)
    }
    expect(expected({ battery: 'lithium', seats: 6, maxPrice: 15000 }).length).toBeGreaterThan(1)
  })

  it('pages a filtered, sorted list and keeps the total', async () => {
    const search: CartSearch = { battery: 'lithium', sort: 'price-desc' }
    const all = expected(search)
    const { slugs, total } = await rest(search, '&limit=3&offset=2')
    expect(slugs).toEqual(all.slice(2, 5))
    expect(total).toBe(all.length)
  })

  it('answers tRPC with the same carts, and counts each choice of each filter in the same answer', async () => {
    const search: CartSearch = { make: ['denago'], seats: 4, maxPrice: 15000, q: 'ev' }
    const { status, body } = await trpc({ ...search, facets: true, limit: 24 })
    expect(status).toBe(200)
    const { carts: found, total, facets } = body.result.data as { carts: { slug: string }[]; total: number; facets: CartFacets }
    expect(found.map((c) => c.slug)).toEqual(expected(search).slice(0, 24))
    expect(total).toBe(expected(search).length)

    const count = (change: CartSearch) => carts.filter((c) => matches(c, { ...search, ...change })).length
    const listed = carts.filter((c) => matches(c, { ...search, make: undefined }))
    const makeKeys = [...new Set(listed.map((c) => effectiveFacts(c).makeKey).filter((k) => k !== null))].sort()
    expect(facets.make.map((m) => [m.value, m.count]).sort()).toEqual(makeKeys.map((k) => [k, count({ make: [k] })]))
    expect(facets.make.find((m) => m.value === 'denago')?.label).toBe('Denago')
    expect(facets.seats).toEqual(seatChoices.map((value) => ({ value, count: count({ seats: value }) })))
    expect(facets.battery).toEqual(batteries.map((value) => ({ value, count: count({ battery: value }) })))
    expect(facets.streetLegal).toBe(count({ streetLegal: true }))
    expect(facets.lifted).toBe(count({ lifted: true }))
    expect(facets.location).toEqual(showroomKeys.map((value) => ({ value, count: count({ location: value }) })))
    expect(facets.location.filter((l) => l.count > 0).length).toBeGreaterThan(1)
    expect(facets.maxPrice).toEqual(priceCeilings.map((value) => ({ value, count: count({ maxPrice: value }) })))
    const categories = [...new Set(carts.filter((c) => c.status !== 'sold').map((c) => c.category))]
    expect(facets.category.filter((c) => c.count > 0).sort((a, b) => a.value.localeCompare(b.value))).toEqual(
      categories.map((value) => ({ value, count: count({ category: value }) })).filter((c) => c.count > 0).sort((a, b) => a.value.localeCompare(b.value)),
    )
  })

  it('takes typed values over tRPC', async () => {
    const { body } = await trpc({ make: ['Club Car'], seats: 6, streetLegal: true })
    expect(body.result.data.carts.map((c: { slug: string }) => c.slug)).toEqual(expected({ make: ['club-car'], seats: 6, streetLegal: true }))
  })

  it.each([
    ['seats=six', 'seats'],
    ['seats=4&seats=6', 'seats'],
    ['battery=diesel', 'battery'],
    ['streetLegal=yes', 'streetLegal'],
    ['lifted=false', 'lifted'],
    ['minPrice=-5', 'minPrice'],
    ['minPrice=20000&maxPrice=10000', 'maxPrice'],
    ['sort=cheapest', 'sort'],
    ['location=atlantic-city', 'location'],
    ['location=Bayville', 'location'],
    [`q=${'x'.repeat(101)}`, 'q'],
    ['category=a&category=b', 'category'],
  ])('GET /api/golf-carts?%s is refused with 400, naming %s', async (query, path) => {
    const res = await get(`/api/golf-carts?${query}`)
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.message).toMatch(/^Invalid input: /)
    expect(body.issues.map((i: { path: string }) => i.path)).toEqual([path])
  })

  it('says which showrooms there are when a location is not one of them', async () => {
    const res = await get('/api/golf-carts?location=atlantic-city&battery=lithium')
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      message: expect.stringMatching(/^Invalid input: /),
      issues: [{ path: 'location', message: 'location must be one of the showrooms: ocean-view (Ocean View), bayville (Bayville), waretown (Waretown), pleasantville (Pleasantville)' }],
    })
    const { status, body } = await trpc({ location: 'atlantic-city' })
    expect(status).toBe(400)
    expect(JSON.stringify(body)).toContain('location must be one of the showrooms: ocean-view (Ocean View)')
    expect((await trpc({ location: 7 })).status).toBe(400)
  })

  it('refuses a bad value over tRPC in the same shape', async () => {
    const { status, body } = await trpc({ sort: 'cheapest', seats: 'lots' })
    expect(status).toBe(400)
    expect(JSON.stringify(body)).toContain('sort must be price-asc, price-desc, newest')
  })

  it('still answers the plain list from the kept totals, with SPEC\'s shape', async () => {
    const res = await get('/api/golf-carts?category=new&sort=newest')
    const list = (await res.json()) as Record<string, unknown>[]
    expect(list.map((c) => c.slug)).toEqual(expected({ category: 'new', sort: 'newest' }))
    expect(Number(res.headers.get('x-total-count'))).toBe(list.length)
    expect(Object.keys(list[0]!).sort()).toEqual(['category', 'description', 'id', 'imageUrl', 'listedAt', 'location', 'photo', 'price', 'slug', 'specs', 'status', 'title'])
    const filtered = (await (await get('/api/golf-carts?battery=lithium')).json()) as Record<string, unknown>[]
    expect(Object.keys(filtered[0]!).sort()).toEqual(['category', 'description', 'id', 'imageUrl', 'listedAt', 'location', 'photo', 'price', 'slug', 'specs', 'status', 'title'])
    expect(typeof filtered[0]!.price).toBe('number')
    // The same cart reads the same whichever way the list was made.
    const plain: Record<string, unknown>[] = []
    for (let offset = 0; plain.length < carts.length; offset += 100) {
      const page = (await (await get(`/api/golf-carts?limit=100&offset=${offset}`)).json()) as Record<string, unknown>[]
      if (page.length === 0) break
      plain.push(...page)
    }
    for (const cart of filtered) expect(cart).toEqual(plain.find((c) => c.id === cart.id))
  })
})
