import { showroomKeys } from './business.ts'
import { batteries, type BatteryKind } from './cart-values.ts'
import { type CartFacets, type CartSearch, priceCeilings, searchWords, seatChoices } from './cart-query.ts'
import type { GolfCart } from './golf-cart.ts'

/**
 * The inventory's search run over the listed carts held in memory (api/carts/listed-carts.ts):
 * the filters, the words, the sort, the page and every choice's count (PRODUCT.md, "search").
 * The only place these rules are written. What each cart is searched by comes from the database
 * as stored (the effective facts of migration 0010 and the search text of migration 0014), so
 * the title's seats and battery are still read in one place.
 */
export interface ListedCart {
  /** The cart as lists answer it. */
  cart: GolfCart
  status: 'available' | 'hold'
  price: number
  /** When it was listed, in ms since the epoch (the "newest" sort). */
  listedAt: number
  category: string
  /** The make as a key (`club-car`), and as most carts of that key spell it. */
  makeKey: string | null
  make: string | null
  seats: number | null
  battery: BatteryKind | null
  streetLegal: boolean
  lifted: boolean
  location: string
  /** Lower-case words of title, description and stock number, each with a space before and after. */
  searchText: string
}

export interface CartSearchPage {
  carts: GolfCart[]
  total: number
  facets?: CartFacets
}

/** The search's filters that have choices with counts; the words narrow every count alike. */
type Facet = 'category' | 'make' | 'seats' | 'battery' | 'streetLegal' | 'lifted' | 'location' | 'minPrice' | 'maxPrice'

const anyCategory = (category: string | undefined) => !category || category === 'all'

/** Each filter of the search as a test of one cart. */
function filterTests(search: CartSearch): [Facet, (cart: ListedCart) => boolean][] {
  const tests: [Facet, (cart: ListedCart) => boolean][] = []
  if (!anyCategory(search.category)) tests.push(['category', (c) => c.category === search.category])
  if (search.make?.length) {
    const makes = new Set(search.make)
    tests.push(['make', (c) => c.makeKey !== null && makes.has(c.makeKey)])
  }
  const { seats, battery, location, minPrice, maxPrice } = search
  if (seats !== undefined) tests.push(['seats', (c) => c.seats !== null && c.seats >= seats])
  if (battery) tests.push(['battery', (c) => c.battery === battery])
  if (search.streetLegal) tests.push(['streetLegal', (c) => c.streetLegal])
  if (search.lifted) tests.push(['lifted', (c) => c.lifted])
  if (location) tests.push(['location', (c) => c.location === location])
  if (minPrice !== undefined) tests.push(['minPrice', (c) => c.price >= minPrice])
  if (maxPrice !== undefined) tests.push(['maxPrice', (c) => c.price <= maxPrice])
  return tests
}

/** Holds after available carts, whatever the sort (PRODUCT.md); ties broken by id. */
function comparator(sort: CartSearch['sort']): (a: ListedCart, b: ListedCart) => number {
  const holdsLast = (a: ListedCart, b: ListedCart) => Number(a.status === 'hold') - Number(b.status === 'hold')
  switch (sort) {
    case 'price-asc':
      return (a, b) => holdsLast(a, b) || a.price - b.price || a.cart.id - b.cart.id
    case 'price-desc':
      return (a, b) => holdsLast(a, b) || b.price - a.price || a.cart.id - b.cart.id
    case 'newest':
      return (a, b) => holdsLast(a, b) || b.listedAt - a.listedAt || b.cart.id - a.cart.id
    default:
      return (a, b) => holdsLast(a, b) || a.cart.id - b.cart.id
  }
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * One page of the carts a search finds, their number and, with `facets`, for each choice of each
 * filter the number of carts it would leave (every other filter applied, its own not).
 */
export function searchListedCarts(
  listed: readonly ListedCart[],
  query: CartSearch & { limit?: number; offset?: number; facets?: boolean },
): CartSearchPage {
  const words = searchWords(query.q).map((word) => ` ${word}`)
  const base = words.length ? listed.filter((c) => words.every((word) => c.searchText.includes(word))) : listed
  const tests = filterTests(query)
  const found = base.filter((c) => tests.every(([, test]) => test(c))).sort(comparator(query.sort))
  const offset = query.offset ?? 0
  const page = found.slice(offset, query.limit === undefined ? undefined : offset + query.limit)
  const result: CartSearchPage = { carts: page.map((c) => c.cart), total: found.length }
  if (query.facets) result.facets = facetsOf(base, tests)
  return result
}

function facetsOf(base: readonly ListedCart[], tests: [Facet, (cart: ListedCart) => boolean][]): CartFacets {
  /** The carts every filter but one leaves: what a choice of that filter would leave. */
  const but = (facet: Facet) => {
    const others = tests.filter(([f]) => f !== facet)
    return others.length ? base.filter((c) => others.every(([, test]) => test(c))) : base
  }
  const count = <T>(facet: Facet, choices: readonly T[], has: (cart: ListedCart, choice: T) => boolean) => {
    const carts = but(facet)
    return choices.map((value) => ({ value, count: carts.reduce((n, c) => n + Number(has(c, value)), 0) }))
  }

  const categories = new Map<string, number>()
  for (const c of but('category')) categories.set(c.category, (categories.get(c.category) ?? 0) + 1)

  // Each make key once, labelled as most of its carts spell it (ties: the first spelling in order).
  const makes = new Map<string, { count: number; spellings: Map<string, number> }>()
  for (const c of but('make')) {
    if (c.makeKey === null) continue
    const make = makes.get(c.makeKey) ?? { count: 0, spellings: new Map<string, number>() }
    make.count++
    if (c.make !== null) make.spellings.set(c.make, (make.spellings.get(c.make) ?? 0) + 1)
    makes.set(c.makeKey, make)
  }
  const label = (spellings: Map<string, number>) =>
    [...spellings].sort(([a, m], [b, n]) => n - m || byText(a, b))[0]?.[0] ?? ''

  return {
    category: [...categories].sort(([a], [b]) => byText(a, b)).map(([value, n]) => ({ value, count: n })),
    make: [...makes]
      .map(([value, make]) => ({ value, label: label(make.spellings), count: make.count }))
      .sort((a, b) => byText(a.label, b.label)),
    seats: count('seats', seatChoices, (c, n) => c.seats !== null && c.seats >= n),
    battery: count('battery', batteries, (c, b) => c.battery === b),
    streetLegal: but('streetLegal').filter((c) => c.streetLegal).length,
    lifted: but('lifted').filter((c) => c.lifted).length,
    location: count('location', showroomKeys, (c, key) => c.location === key),
    maxPrice: count('maxPrice', priceCeilings, (c, p) => c.price <= p),
  }
}
