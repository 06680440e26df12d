import { showroomKeys, showrooms } from './business.ts'
import { batteries, type BatteryKind } from './cart-values.ts'
import { slugify } from './slug.ts'
import { controlCharacter } from './plain-text.ts'

/**
 * The inventory's search (PRODUCT.md, "search"): the filters and the sort that `/inventory`,
 * `GET /api/golf-carts`, tRPC's `cart.list` and `<gc-inventory>` all take, read by one function.
 * No zod here, so `<gc-inventory>` can read its attributes with it and stay small; the API's
 * schema (domain/cart-query-schema.ts) wraps this reader, so the rules are written once.
 */
export const cartSorts = ['price-asc', 'price-desc', 'newest'] as const
export type CartSort = (typeof cartSorts)[number]

export const sortLabels: Readonly<Record<CartSort | 'default', string>> = {
  default: 'Recommended',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  newest: 'Newest listed',
}

/** What a buyer can narrow the inventory to. Every field is optional: none means every cart. */
export interface CartFilters {
  /** SPEC's category (the condition); an unknown one lists nothing, as SPEC says. */
  category?: string
  /** Make keys (`denago`, `club-car`), any of them. */
  make?: string[]
  /** At least this many seats. */
  seats?: number
  battery?: BatteryKind
  streetLegal?: true
  lifted?: true
  /** The key of the showroom the cart stands at (domain/business.ts, PRODUCT.md "cart location"). */
  location?: string
  minPrice?: number
  maxPrice?: number
  /** Words, each found in the title, description or stock number (a word's start is enough). */
  q?: string
}

export interface CartSearch extends CartFilters {
  /** Absent: the inventory's own order (the order carts were added), holds last. */
  sort?: CartSort
}

export type CartSearchField = keyof CartSearch

/** In the order they appear in an address, so one search has one URL. */
export const cartSearchFields = [
  'category',
  'make',
  'seats',
  'battery',
  'streetLegal',
  'lifted',
  'location',
  'minPrice',
  'maxPrice',
  'q',
  'sort',
] as const satisfies readonly CartSearchField[]

/** The seat counts offered as "at least" choices. */
export const seatChoices = [2, 4, 6, 8] as const
/** The price ceilings offered as choices ("Under $15,000"); any other is typed in. */
export const priceCeilings = [10_000, 15_000, 20_000, 25_000] as const

export const searchLimits = { q: 100, category: 50, make: 60, makes: 10, price: 10_000_000, seats: 12 } as const

export interface SearchIssue {
  path: string
  message: string
}

export interface ReadSearch {
  /** The search, without the values that were refused. */
  search: CartSearch
  issues: SearchIssue[]
}

/** A value as it arrives: text from an address or an attribute, or typed from a tRPC client. */
type Raw = unknown

/**
 * Reads a search from an address's query, a custom element's attributes or a tRPC input. Text
 * and typed values both count (`"6"` and `6`, `"true"` and `true`); an empty value is no filter.
 * Each refused value is named in `issues` and left out of `search`: the API refuses the request,
 * the page shows the rest and says what it ignored.
 */
export function readCartSearch(raw: Readonly<Partial<Record<CartSearchField, Raw>>>): ReadSearch {
  const search: CartSearch = {}
  const issues: SearchIssue[] = []
  const refuse = (path: CartSearchField, message: string) => issues.push({ path, message })

  const text = (field: CartSearchField, max: number): string | undefined => {
    const value = raw[field]
    if (value === undefined || value === null) return undefined
    if (typeof value !== 'string') return void refuse(field, `${field} must be text`)
    const trimmed = value.trim()
    if (trimmed.length > max) return void refuse(field, `${field} must be at most ${max} characters`)
    if (controlCharacter.test(trimmed)) return void refuse(field, `${field} cannot contain a control character (such as NUL or escape)`)
    return trimmed || undefined
  }
  const whole = (field: CartSearchField, min: number, max: number, what: string): number | undefined => {
    const value = raw[field]
    if (value === undefined || value === null || value === '') return undefined
    const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN
    if (!Number.isInteger(number) || number < min || number > max) return void refuse(field, `${field} must be ${what}`)
    return number
  }
  const yes = (field: 'streetLegal' | 'lifted') => {
    const value = raw[field]
    if (value === undefined || value === null || value === '') return
    if (value === true || value === 'true') search[field] = true
    else refuse(field, `${field} can only be true (leave it out for every cart)`)
  }

  const category = text('category', searchLimits.category)
  if (category && category !== 'all') search.category = category

  const makes = raw.make
  if (makes !== undefined && makes !== null) {
    const given: unknown[] = Array.isArray(makes) ? makes : [makes]
    // Measured before anything splits it: 100 kB of commas would be 100,000 makes to read.
    const length = given.reduce<number>((n, m) => n + (typeof m === 'string' ? m.length + 1 : 1), 0)
    const tooLong = length > searchLimits.makes * (searchLimits.make + 1)
    if (tooLong) refuse('make', `make can name at most ${searchLimits.makes} makes`)
    const list = tooLong ? [] : given.flatMap((m) => (typeof m === 'string' ? m.split(',') : [m]))
    const keys: string[] = []
    for (const make of list) {
      if (typeof make !== 'string') {
        refuse('make', 'make must be text, several separated by commas')
        continue
      }
      if (make.trim() === '') continue
      if (make.length > searchLimits.make) refuse('make', `each make must be at most ${searchLimits.make} characters`)
      else if (!keys.includes(makeKey(make))) keys.push(makeKey(make))
    }
    if (keys.length > searchLimits.makes) refuse('make', `make can name at most ${searchLimits.makes} makes`)
    else if (keys.length > 0) search.make = keys.sort()
  }

  const seats = whole('seats', 1, searchLimits.seats, `a whole number of seats from 1 to ${searchLimits.seats}`)
  if (seats !== undefined) search.seats = seats

  const battery = text('battery', 20)
  if (battery !== undefined) {
    if ((batteries as readonly string[]).includes(battery)) search.battery = battery as BatteryKind
    else refuse('battery', `battery must be ${batteries.join(' or ')}`)
  }

  yes('streetLegal')
  yes('lifted')

  const location = text('location', 60)
  if (location !== undefined) {
    if (showroomKeys.includes(location)) search.location = location
    else refuse('location', `location must be one of the showrooms: ${showrooms.map((s) => `${s.id} (${s.name})`).join(', ')}`)
  }

  const dollars = `a whole number of dollars from 0 to ${searchLimits.price}`
  const minPrice = whole('minPrice', 0, searchLimits.price, dollars)
  const maxPrice = whole('maxPrice', 0, searchLimits.price, dollars)
  if (minPrice !== undefined) search.minPrice = minPrice
  if (maxPrice !== undefined) search.maxPrice = maxPrice
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) {
    refuse('maxPrice', 'maxPrice must not be below minPrice')
    delete search.maxPrice
  }

  const q = text('q', searchLimits.q)
  if (q !== undefined) search.q = q.replace(/\s+/g, ' ')

  const sort = text('sort', 20)
  if (sort !== undefined) {
    if ((cartSorts as readonly string[]).includes(sort)) search.sort = sort as CartSort
    else refuse('sort', `sort must be ${cartSorts.join(', ')} (or left out)`)
  }

  return { search, issues }
}

/** `Club Car` is `club-car`: a make as a filter value, made as slugs are. */
export function makeKey(make: string): string {
  return slugify(make)
}

/** The words of `q` the database looks for: letters and digits, at most eight. */
export function searchWords(q: string | undefined): string[] {
  return (q?.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8)
}

/** Whether anything but the category and the sort narrows the list (the page's canonical link). */
export function narrowsBeyondCategory(search: CartSearch): boolean {
  return cartSearchFields.some((f) => f !== 'category' && f !== 'sort' && search[f] !== undefined)
}

/** The search as query parameters, in one fixed order, so one search has one address. */
export function cartSearchParams(search: CartSearch): URLSearchParams {
  const params = new URLSearchParams()
  for (const field of cartSearchFields) {
    const value = search[field]
    if (value === undefined) continue
    params.set(field, Array.isArray(value) ? value.join(',') : String(value))
  }
  return params
}

/** The search with one field changed (`undefined` removes it). */
export function withSearch(search: CartSearch, change: Partial<CartSearch>): CartSearch {
  const next: CartSearch = { ...search, ...change }
  for (const key of cartSearchFields) if (next[key] === undefined) delete next[key]
  return next
}

/** The same search with a make added or taken away (make is the one filter with several values). */
export function toggleMake(search: CartSearch, key: string): CartSearch {
  const makes = search.make ?? []
  const next = makes.includes(key) ? makes.filter((m) => m !== key) : [...makes, key].sort()
  return withSearch(search, { make: next.length ? next : undefined })
}

/** How many carts each choice would leave, given the rest of the search (the facets). */
export interface CartFacets {
  category: { value: string; count: number }[]
  make: { value: string; label: string; count: number }[]
  seats: { value: number; count: number }[]
  battery: { value: BatteryKind; count: number }[]
  streetLegal: number
  lifted: number
  /** Each showroom's key, in the business facts' order. */
  location: { value: string; count: number }[]
  maxPrice: { value: number; count: number }[]
}
