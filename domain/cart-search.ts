import { showroomKeys } from './business.ts'
import { batteries, type BatteryKind } from './cart-values.ts'
import { type CartFacets, type CartSearch, priceCeilings, searchWords, seatChoices } from './cart-query.ts'
import type { GolfCart } from './golf-cart.ts'

/**
 * The inventory's search run over the listed carts held in memory (api/carts/listed-carts.ts):
 * the filters, the words, the sort, the page and every choice's count (PRODUCT.md, "search").
 * The only place these rules are written. What each cart is searched by is its stored columns
 * with what staff left empty read from the title as its page reads it (domain/cart-facts.ts,
 * `searchFacts`), and the search text of migration 0014.
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
 *
 * One pass over the carts the words leave: each cart's failed filters as the bits of a mask. A
 * cart with none is found, and counts for every filter's choices; a cart that fails exactly one
 * filter counts for that filter's choices alone (what choosing otherwise there would find); any
 * other cart counts nowhere. At 10,000 carts this replaced a pass per filter and per choice,
 * which made twenty shoppers at once wait on the server's CPU (issue #31, `npm run bench -- crowd`).
 */
export function searchListedCarts(
  listed: readonly ListedCart[],
  query: CartSearch & { limit?: number; offset?: number; facets?: boolean },
): CartSearchPage {
  const words = searchWords(query.q).map((word) => ` ${word}`)
  const base = words.length ? listed.filter((c) => words.every((word) => c.searchText.includes(word))) : listed
  const tests = filterTests(query)
  const counts = query.facets ? facetCounter() : undefined
  const found: ListedCart[] = []
  for (const cart of base) {
    let failed = 0
    for (let i = 0; i < tests.length; i++) if (!tests[i]![1](cart)) failed |= 1 << i
    if (failed === 0) {
      found.push(cart)
      counts?.addToAll(cart)
    } else if (counts && (failed & (failed - 1)) === 0) {
      counts.addTo(tests[31 - Math.clz32(failed)]![0], cart)
    }
  }
  found.sort(comparator(query.sort))
  const offset = query.offset ?? 0
  const page = found.slice(offset, query.limit === undefined ? undefined : offset + query.limit)
  const result: CartSearchPage = { carts: page.map((c) => c.cart), total: found.length }
  if (counts) result.facets = counts.facets()
  return result
}

/** Each filter's choices counted as carts are added to them (see searchListedCarts). */
function facetCounter() {
  const categories = new Map<string, number>()
  // Each make key once, labelled as most of its carts spell it (ties: the first spelling in order).
  const makes = new Map<string, { count: number; spellings: Map<string, number> }>()
  const seats = seatChoices.map(() => 0)
  const batteryCounts = batteries.map(() => 0)
  const locations = showroomKeys.map(() => 0)
  const ceilings = priceCeilings.map(() => 0)
  let streetLegal = 0
  let lifted = 0

  const adders: Record<Facet, (c: ListedCart) => void> = {
    category: (c) => void categories.set(c.category, (categories.get(c.category) ?? 0) + 1),
    make: (c) => {
      if (c.makeKey === null) return
      const make = makes.get(c.makeKey) ?? { count: 0, spellings: new Map<string, number>() }
      make.count++
      if (c.make !== null) make.spellings.set(c.make, (make.spellings.get(c.make) ?? 0) + 1)
      makes.set(c.makeKey, make)
    },
    seats: (c) => {
      if (c.seats === null) return
      for (let i = 0; i < seatChoices.length; i++) if (c.seats >= seatChoices[i]!) seats[i]!++
    },
    battery: (c) => {
      const i = c.battery === null ? -1 : batteries.indexOf(c.battery)
      if (i >= 0) batteryCounts[i]!++
    },
    streetLegal: (c) => void (c.streetLegal && streetLegal++),
    lifted: (c) => void (c.lifted && lifted++),
    location: (c) => {
      const i = showroomKeys.indexOf(c.location)
      if (i >= 0) locations[i]!++
    },
    // No choices of its own: its test narrows every other filter's counts.
    minPrice: () => {},
    maxPrice: (c) => {
      for (let i = 0; i < priceCeilings.length; i++) if (c.price <= priceCeilings[i]!) ceilings[i]!++
    },
  }
  const all = Object.values(adders)
  const label = (spellings: Map<string, number>) => [...spellings].sort(([a, m], [b, n]) => n - m || byText(a, b))[0]?.[0] ?? ''

  return {
    addToAll(cart: ListedCart) {
      for (const add of all) add(cart)
    },
    addTo(facet: Facet, cart: ListedCart) {
      adders[facet](cart)
    },
    facets(): CartFacets {
      return {
        category: [...categories].sort(([a], [b]) => byText(a, b)).map(([value, n]) => ({ value, count: n })),
        make: [...makes]
          .map(([value, make]) => ({ value, label: label(make.spellings), count: make.count }))
          .sort((a, b) => byText(a.label, b.label)),
        seats: seatChoices.map((value, i) => ({ value, count: seats[i]! })),
        battery: batteries.map((value, i) => ({ value, count: batteryCounts[i]! })),
        streetLegal,
        lifted,
        location: showroomKeys.map((value, i) => ({ value, count: locations[i]! })),
        maxPrice: priceCeilings.map((value, i) => ({ value, count: ceilings[i]! })),
      }
    },
  }
}
