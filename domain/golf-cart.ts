import type { BatteryKind, CardSpecs, PublicStatus } from './cart-facts.ts'
import { type Condition, conditionLabels, statusLabels } from './cart-values.ts'
import type { CartPhoto } from './photos.ts'
import { formatDollars } from './dollars.ts'

/** A cart as every list, card and page receives it (docs/CONTRACTS.md, "REST API"). */
export interface GolfCart {
  id: number
  slug: string
  title: string
  description: string
  price: number
  /** A drawing: the one staff chose, else its model's, else "photos coming" (domain/cart-pictures.ts). */
  imageUrl: string
  category: string
  /** Lists show `available` and `hold` carts (holds marked On Hold); sold ones only their page; drafts nothing. */
  status: PublicStatus
  /** The key of the showroom the cart stands at (domain/business.ts, `showroomByKey`). */
  location: string
  /** The cover photo; null for a cart with no photos, shown by its drawing (`imageUrl`). */
  photo: CartPhoto | null
  /** Seats, range and battery as its page shows them (stored values over the title's). */
  specs: CardSpecs
  /** ISO 8601: when it was listed (the "newest" sort, the Just arrived badge). */
  listedAt: string
}

/**
 * A cart with what only the vehicle page shows: the record's public facts (domain/cart-record.ts;
 * `null` where staff left them to the title's derivation) and, once sold, when.
 */
export interface GolfCartDetail extends GolfCart {
  featured: boolean
  available: boolean
  year: number | null
  make: string | null
  model: string | null
  trim: string | null
  vin: string | null
  stockNumber: string
  color: string | null
  seats: number | null
  battery: BatteryKind | null
  streetLegal: boolean
  lifted: boolean
  msrp: number | null
  /** ISO 8601. */
  soldAt: string | null
  /** ISO 8601: when a deposit's hold ends (PRODUCT.md, "holding a cart"); null unless on hold by one. */
  holdUntil: string | null
  /** Every photo in order, the cover first; empty for a cart shown by its drawing. */
  photos: CartPhoto[]
}

/** One category is shown, "new"; the inventory filter offers it next to "all". */
export const categoryOptions = [
  { value: 'all', label: 'All Categories' },
  { value: 'new', label: 'New Golf Carts' },
] as const

/** The badge text: NEW for new carts, otherwise the category upper-cased (docs/PRODUCT.md, "Inventory"). */
export function categoryLabel(category: string): string {
  return category === 'new' ? 'NEW' : category.toUpperCase()
}

/** "Used"; a category the console does not offer is shown as it is written, capitalised. */
export function conditionLabel(category: string): string {
  return conditionLabels[category as Condition] ?? category.charAt(0).toUpperCase() + category.slice(1)
}

/** How long a cart is "Just arrived" after it is listed (PRODUCT.md, "cards"). */
export const justArrivedDays = 14

export type CartBadge = { kind: 'hold' | 'sold' | 'condition' | 'new-arrival'; label: string }

/**
 * The badges a card shows: only what tells this cart apart (PRODUCT.md, "cards"), so a list of
 * new carts carries no NEW on every card. On Hold first: it changes what a shopper can do.
 */
export function cartBadges(cart: Pick<GolfCart, 'status' | 'category' | 'listedAt'>, now = Date.now()): CartBadge[] {
  const badges: CartBadge[] = []
  // Sold: only a shopper's saved list still shows such a card.
  if (cart.status === 'hold' || cart.status === 'sold') badges.push({ kind: cart.status, label: statusLabels[cart.status] })
  if (cart.category !== 'new') badges.push({ kind: 'condition', label: conditionLabel(cart.category) })
  else if (now - Date.parse(cart.listedAt) < justArrivedDays * 86_400_000) badges.push({ kind: 'new-arrival', label: 'Just arrived' })
  return badges
}

/** "$12,995": whole dollars with thousands separators; cents only when there are some. */
export function formatPrice(price: number): string {
  return formatDollars(price)
}

/**
 * What a buyer saves against the maker's suggested price: `msrp - price` when the cart is priced
 * below its MSRP, else null (no MSRP, or a price at or above it).
 */
export function msrpSaving(cart: { price: number; msrp: number | null }): number | null {
  return cart.msrp !== null && cart.msrp > cart.price ? Math.round((cart.msrp - cart.price) * 100) / 100 : null
}

/** How many carts the inventory grid and `gc-inventory` show per page (docs/PRODUCT.md, "Featured carts and paging"). */
export const inventoryPageSize = 24
/** How many featured carts the home and county pages show (docs/PRODUCT.md, "Featured carts and paging"). */
export const featuredCount = 3
