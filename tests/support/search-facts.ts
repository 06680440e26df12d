import { type BatteryKind, cartSpecifications, derivedFacts, type SpecificationFacts } from '../../domain/cart-facts.ts'
import { type CartSearch, makeKey, searchWords } from '../../domain/cart-query.ts'

/**
 * What a visitor reads on a cart's page, as the search filters on it: the stored fact, else the
 * title's (domain/cart-facts.ts). Tests compute expected results with this, from the carts the
 * database holds, so they hold whatever the seed is.
 */
export interface SearchableCart extends SpecificationFacts {
  id: number
  category: string
  description: string
  stockNumber: string
  price: number
  status: string
  streetLegal: boolean
  lifted: boolean
  location: string
}

export function effectiveFacts(cart: SpecificationFacts): { makeKey: string | null; seats: number; battery: BatteryKind } {
  const spec = cartSpecifications(cart)
  const make = cart.make ?? derivedFacts(cart.title).make
  return {
    makeKey: make ? makeKey(make) : null,
    seats: spec.seats.max,
    battery: spec.battery === 'Lithium Ion' ? 'lithium' : 'lead-acid',
  }
}

/** Whether a listed cart matches a search, read the long way. */
export function matches(cart: SearchableCart, search: CartSearch): boolean {
  const facts = effectiveFacts(cart)
  const text = `${cart.title} ${cart.description} ${cart.stockNumber}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return (
    cart.status !== 'sold' &&
    (!search.category || cart.category === search.category) &&
    (!search.make || (facts.makeKey !== null && search.make.includes(facts.makeKey))) &&
    (search.seats === undefined || facts.seats >= search.seats) &&
    (!search.battery || facts.battery === search.battery) &&
    (!search.streetLegal || cart.streetLegal) &&
    (!search.lifted || cart.lifted) &&
    (!search.location || cart.location === search.location) &&
    (search.minPrice === undefined || cart.price >= search.minPrice) &&
    (search.maxPrice === undefined || cart.price <= search.maxPrice) &&
    searchWords(search.q).every((word) => text.some((t) => t.startsWith(word)))
  )
}

/** The listed carts a search finds, in its order: holds last, then by the sort, then by id. */
/** `listedAt` in any unit that orders (the tests read microseconds since 1970). */
export function expectedOrder<T extends SearchableCart & { listedAt: number }>(carts: readonly T[], search: CartSearch): T[] {
  const key = (c: T): number[] => {
    const hold = c.status === 'hold' ? 1 : 0
    if (search.sort === 'price-asc') return [hold, c.price, c.id]
    if (search.sort === 'price-desc') return [hold, -c.price, c.id]
    if (search.sort === 'newest') return [hold, -c.listedAt, -c.id]
    return [hold, c.id]
  }
  const compare = (a: number[], b: number[]) => a.reduce((d, v, i) => d || v - (b[i] ?? 0), 0)
  return carts.filter((c) => matches(c, search)).sort((a, b) => compare(key(a), key(b)))
}

/** The listed and sold carts as the tests compare them: every fact the search reads. */
export const searchableColumns = `id, slug, title, description, stock_number, price::float8 as price, status, category,
  make, model, seats, battery, street_legal, lifted, location, (extract(epoch from listed_at) * 1000000)::float8 as listed_at`
