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

/**
 * The listed carts as columns, made once for each list kept (the list is replaced, never changed,
 * when a cart changes; api/carts/listed-carts.ts): each fact as a number in a typed array, and
 * each sort's order. A search then reads numbers in sort order instead of sorting the carts it
 * finds and calling a test per filter per cart. At 10,000 carts that was a third of the server's
 * busy time under twenty shoppers at once (issue #31, `npm run bench -- crowd`; ADR 0029).
 */
interface Columns {
  carts: readonly ListedCart[]
  id: Int32Array
  /** 1: on hold. */
  hold: Uint8Array
  listedAt: Float64Array
  price: Float64Array
  /** -1: not known. */
  seats: Int16Array
  /** Index into `batteries`, -1: not known. */
  battery: Int8Array
  /** Index into `showroomKeys`, -1: another. */
  location: Int8Array
  /** Index into `categories`. */
  category: Int32Array
  categories: string[]
  /** Index into `makeKeys`, -1: no make. */
  make: Int32Array
  makeKeys: string[]
  /** Index into `spellings`, -1: no make; each spelling belongs to one make key (`spellingKey`). */
  spelling: Int32Array
  spellings: string[]
  spellingKey: Int32Array
  streetLegal: Uint8Array
  lifted: Uint8Array
  orders: Map<string, Int32Array>
}

const columnsOf = new WeakMap<readonly ListedCart[], Columns>()

function columns(listed: readonly ListedCart[]): Columns {
  const made = columnsOf.get(listed)
  if (made) return made
  const n = listed.length
  const indexer = () => {
    const values: string[] = []
    const index = new Map<string, number>()
    const of = (value: string) => {
      let i = index.get(value)
      if (i === undefined) index.set(value, (i = values.push(value) - 1))
      return i
    }
    return { values, of }
  }
  const categories = indexer()
  const makeKeys = indexer()
  const spellings = indexer()
  const spellingKey: number[] = []
  const c: Columns = {
    carts: listed,
    id: new Int32Array(n),
    hold: new Uint8Array(n),
    listedAt: new Float64Array(n),
    price: new Float64Array(n),
    seats: new Int16Array(n),
    battery: new Int8Array(n),
    location: new Int8Array(n),
    category: new Int32Array(n),
    categories: categories.values,
    make: new Int32Array(n),
    makeKeys: makeKeys.values,
    spelling: new Int32Array(n),
    spellings: spellings.values,
    spellingKey: new Int32Array(0),
    streetLegal: new Uint8Array(n),
    lifted: new Uint8Array(n),
    orders: new Map(),
  }
  for (let i = 0; i < n; i++) {
    const cart = listed[i]!
    c.id[i] = cart.cart.id
    c.hold[i] = cart.status === 'hold' ? 1 : 0
    c.listedAt[i] = cart.listedAt
    c.price[i] = cart.price
    c.seats[i] = cart.seats ?? -1
    c.battery[i] = cart.battery === null ? -1 : batteries.indexOf(cart.battery)
    c.location[i] = showroomKeys.indexOf(cart.location)
    c.category[i] = categories.of(cart.category)
    c.make[i] = cart.makeKey === null ? -1 : makeKeys.of(cart.makeKey)
    if (cart.makeKey === null || cart.make === null) c.spelling[i] = -1
    else {
      const s = (c.spelling[i] = spellings.of(cart.make))
      spellingKey[s] = c.make[i]!
    }
    c.streetLegal[i] = cart.streetLegal ? 1 : 0
    c.lifted[i] = cart.lifted ? 1 : 0
  }
  c.spellingKey = Int32Array.from(spellingKey)
  columnsOf.set(listed, c)
  return c
}

/**
 * The carts' indexes in a sort's order, made once for each list and sort: holds after available
 * carts, whatever the sort (PRODUCT.md), then the sort's own key, ties broken by id.
 */
function order(c: Columns, sort: CartSearch['sort']): Int32Array {
  const key = sort ?? ''
  let indexes = c.orders.get(key)
  if (!indexes) {
    const { hold, price, listedAt, id } = c
    const compare: (a: number, b: number) => number =
      sort === 'price-asc'
        ? (a, b) => hold[a]! - hold[b]! || price[a]! - price[b]! || id[a]! - id[b]!
        : sort === 'price-desc'
          ? (a, b) => hold[a]! - hold[b]! || price[b]! - price[a]! || id[a]! - id[b]!
          : sort === 'newest'
            ? (a, b) => hold[a]! - hold[b]! || listedAt[b]! - listedAt[a]! || id[b]! - id[a]!
            : (a, b) => hold[a]! - hold[b]! || id[a]! - id[b]!
    indexes = Int32Array.from(c.carts.keys()).sort(compare)
    c.orders.set(key, indexes)
  }
  return indexes
}

/**
 * The search's filters that have choices with counts, each a bit of a cart's mask of the filters
 * it fails; the words narrow every count alike.
 */
const Bit = { category: 1, make: 2, seats: 4, battery: 8, streetLegal: 16, lifted: 32, location: 64, minPrice: 128, maxPrice: 256 } as const

const anyCategory = (category: string | undefined) => !category || category === 'all'

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * One page of the carts a search finds, their number and, with `facets`, for each choice of each
 * filter the number of carts it would leave (every other filter applied, its own not).
 *
 * One pass over the carts in the sort's order: each cart's failed filters as the bits of a mask.
 * A cart with none is found, and counts for every filter's choices; a cart that fails exactly one
 * filter counts for that filter's choices alone (what choosing otherwise there would find); any
 * other cart counts nowhere. At 10,000 carts this replaced a pass per filter and per choice,
 * which made twenty shoppers at once wait on the server's CPU (issue #31, `npm run bench -- crowd`).
 */
export function searchListedCarts(
  listed: readonly ListedCart[],
  query: CartSearch & { limit?: number; offset?: number; facets?: boolean },
): CartSearchPage {
  const c = columns(listed)
  const words = searchWords(query.q).map((word) => ` ${word}`)
  // Each filter as the index a cart's column is held to; -2 where no cart can match.
  const indexOf = (values: readonly string[], value: string) => {
    const i = values.indexOf(value)
    return i < 0 ? -2 : i
  }
  const category = anyCategory(query.category) ? undefined : indexOf(c.categories, query.category!)
  const makes = query.make?.length ? new Uint8Array(c.makeKeys.length) : undefined
  for (const key of query.make ?? []) {
    const i = c.makeKeys.indexOf(key)
    if (makes && i >= 0) makes[i] = 1
  }
  const { seats, minPrice, maxPrice, streetLegal, lifted } = query
  const battery = query.battery ? indexOf(batteries, query.battery) : undefined
  const location = query.location ? indexOf(showroomKeys, query.location) : undefined
  const counts = query.facets ? new FacetCounts(c) : undefined
  const offset = query.offset ?? 0
  const end = query.limit === undefined ? Infinity : offset + query.limit
  const page: GolfCart[] = []
  let total = 0
  for (const i of order(c, query.sort)) {
    if (words.length && !words.every((word) => listed[i]!.searchText.includes(word))) continue
    let failed = 0
    if (category !== undefined && c.category[i] !== category) failed |= Bit.category
    if (makes && (c.make[i]! < 0 || !makes[c.make[i]!])) failed |= Bit.make
    if (seats !== undefined && (c.seats[i]! < 0 || c.seats[i]! < seats)) failed |= Bit.seats
    if (battery !== undefined && c.battery[i] !== battery) failed |= Bit.battery
    if (streetLegal && !c.streetLegal[i]) failed |= Bit.streetLegal
    if (lifted && !c.lifted[i]) failed |= Bit.lifted
    if (location !== undefined && c.location[i] !== location) failed |= Bit.location
    if (minPrice !== undefined && c.price[i]! < minPrice) failed |= Bit.minPrice
    if (maxPrice !== undefined && c.price[i]! > maxPrice) failed |= Bit.maxPrice
    if (failed === 0) {
      if (total >= offset && total < end) page.push(listed[i]!.cart)
      total++
      counts?.addToAll(i)
    } else if (counts && (failed & (failed - 1)) === 0) {
      counts.addTo(failed, i)
    }
  }
  const result: CartSearchPage = { carts: page, total }
  if (counts) result.facets = counts.facets()
  return result
}

/** Each filter's choices counted as carts are added to them (see searchListedCarts), by the carts' indexes. */
class FacetCounts {
  readonly #c: Columns
  readonly #categories: Int32Array
  readonly #makes: Int32Array
  readonly #spellings: Int32Array
  readonly #seats = new Int32Array(seatChoices.length)
  readonly #batteries = new Int32Array(batteries.length)
  readonly #locations = new Int32Array(showroomKeys.length)
  readonly #ceilings = new Int32Array(priceCeilings.length)
  #streetLegal = 0
  #lifted = 0

  constructor(c: Columns) {
    this.#c = c
    this.#categories = new Int32Array(c.categories.length)
    this.#makes = new Int32Array(c.makeKeys.length)
    this.#spellings = new Int32Array(c.spellings.length)
  }

  addToAll(i: number) {
    for (let facet: number = Bit.category; facet <= Bit.maxPrice; facet <<= 1) this.addTo(facet, i)
  }

  /** `facet`: the filter's bit (`Bit`). */
  addTo(facet: number, i: number) {
    const c = this.#c
    switch (facet) {
      case Bit.category:
        this.#categories[c.category[i]!]!++
        break
      case Bit.make:
        if (c.make[i]! >= 0) this.#makes[c.make[i]!]!++
        if (c.spelling[i]! >= 0) this.#spellings[c.spelling[i]!]!++
        break
      case Bit.seats:
        for (let s = 0; s < seatChoices.length; s++) if (c.seats[i]! >= seatChoices[s]!) this.#seats[s]!++
        break
      case Bit.battery:
        if (c.battery[i]! >= 0) this.#batteries[c.battery[i]!]!++
        break
      case Bit.streetLegal:
        this.#streetLegal += c.streetLegal[i]!
        break
      case Bit.lifted:
        this.#lifted += c.lifted[i]!
        break
      case Bit.location:
        if (c.location[i]! >= 0) this.#locations[c.location[i]!]!++
        break
      // Bit.minPrice: no choices of its own; its test narrows every other filter's counts.
      case Bit.maxPrice:
        for (let p = 0; p < priceCeilings.length; p++) if (c.price[i]! <= priceCeilings[p]!) this.#ceilings[p]!++
        break
    }
  }

  facets(): CartFacets {
    const c = this.#c
    // Each make key once, labelled as most of its carts spell it (ties: the first in text order).
    const labels = new Map<number, { label: string; count: number }>()
    c.spellings.forEach((label, s) => {
      const count = this.#spellings[s]!
      const best = labels.get(c.spellingKey[s]!)
      if (count > 0 && (!best || count > best.count || (count === best.count && byText(label, best.label) < 0))) labels.set(c.spellingKey[s]!, { label, count })
    })
    return {
      category: c.categories
        .map((value, i) => ({ value, count: this.#categories[i]! }))
        .filter((choice) => choice.count > 0)
        .sort((a, b) => byText(a.value, b.value)),
      make: c.makeKeys
        .map((value, i) => ({ value, label: labels.get(i)?.label ?? '', count: this.#makes[i]! }))
        .filter((choice) => choice.count > 0)
        .sort((a, b) => byText(a.label, b.label)),
      seats: seatChoices.map((value, i) => ({ value, count: this.#seats[i]! })),
      battery: batteries.map((value, i) => ({ value, count: this.#batteries[i]! })),
      streetLegal: this.#streetLegal,
      lifted: this.#lifted,
      location: showroomKeys.map((value, i) => ({ value, count: this.#locations[i]! })),
      maxPrice: priceCeilings.map((value, i) => ({ value, count: this.#ceilings[i]! })),
    }
  }
}
