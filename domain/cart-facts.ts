import { batteryLabels, type BatteryKind } from './cart-values.ts'
import { modelForTitle } from './dealership-sources.ts'
import { type Range, type Specifications, specificationsFor } from './specifications.ts'

/**
 * The facts of a cart record that visitors' pages and the widgets read: statuses and their
 * words, conditions, batteries, and the specifications where stored values win over the title's.
 * Kept apart from the record's schema (domain/cart-record.ts) so the widgets' bundles carry no zod.
 */
// The values of the record's enumerated fields are in domain/cart-values.ts (no imports, so the
// /inventory search script reads the batteries without the specifications), and this module's too.
export * from './cart-values.ts'

/** How long a sold cart's page stays up, saying Sold, before it answers 410 (PRODUCT.md). */
export const defaultSoldVisibleDays = 14

/** What the record's optional facts are when staff left them empty, read from the title. */
export interface DerivedFacts {
  year: number | null
  make: string | null
  model: string | null
  seats: Specifications['seats']
  battery: BatteryKind
}

export function derivedFacts(title: string): DerivedFacts {
  const spec = specificationsFor(title)
  const year = /\b(?:19|20)\d{2}\b/.exec(title)?.[0]
  const model = modelForTitle(title)
  return {
    year: year ? Number(year) : null,
    make: spec.brand === 'Other' ? null : spec.brand,
    model: model ? model.model.replace(/^(Evolution|Denago) /, '') : null,
    seats: spec.seats,
    battery: spec.battery === 'Lithium Ion' ? 'lithium' : 'lead-acid',
  }
}

/** The facts that change a cart's specifications, as stored (null: not stored). */
export interface SpecificationFacts {
  title: string
  make?: string | null
  model?: string | null
  seats?: number | null
  battery?: BatteryKind | null
}

/**
 * The specifications a visitor sees: SPEC section 3's figures for the cart's platform, with the
 * stored seats and battery winning over the title's. A title that names no brand takes its
 * platform from the stored make and model.
 */
export function cartSpecifications(cart: SpecificationFacts): Specifications {
  let spec = specificationsFor(cart.title)
  if (spec.brand === 'Other' && cart.make) {
    spec = specificationsFor([cart.make, cart.model, cart.title].filter(Boolean).join(' '))
  }
  return {
    ...spec,
    ...(cart.seats ? { seats: { min: cart.seats, max: cart.seats } } : {}),
    ...(cart.battery ? { battery: batteryLabels[cart.battery] } : {}),
  }
}

/**
 * What every card shows of a cart beside its price (PRODUCT.md, "cards"): its page's seating,
 * range and battery, so a shopper compares carts without opening each one.
 */
export interface CardSpecs {
  seats: Range
  rangeMiles: Range
  battery: BatteryKind
}

export function cardSpecs(cart: SpecificationFacts): CardSpecs {
  const spec = cartSpecifications(cart)
  return {
    seats: spec.seats,
    rangeMiles: spec.rangeMiles,
    battery: spec.battery === batteryLabels.lithium ? 'lithium' : 'lead-acid',
  }
}

/** What the inventory's filters read of a cart: what its page shows (`cartSpecifications`). */
export interface SearchFacts {
  /** The stored make, else the brand the title names (null: neither). */
  make: string | null
  /** The most people it seats. */
  seats: number
  battery: BatteryKind
}

/**
 * The one home of these facts for the search (issue #25): the listed carts are read with their
 * stored columns and this fills in what staff left empty, as the vehicle page does. Until
 * migration 0033 the database computed them a second time in SQL (migrations 0010 and 0015).
 */
export function searchFacts(cart: SpecificationFacts): SearchFacts {
  const spec = cartSpecifications(cart)
  return {
    // With no stored make, `spec` is the title's, so its brand is the title's.
    make: cart.make ?? (spec.brand === 'Other' ? null : spec.brand),
    seats: spec.seats.max,
    battery: spec.battery === batteryLabels.lithium ? 'lithium' : 'lead-acid',
  }
}

/** Whether a sold cart's page has passed its `SOLD_VISIBLE_DAYS` and now answers 410. */
export function soldPageExpired(soldAt: Date | string | null, soldVisibleDays: number, now = new Date()): boolean {
  if (!soldAt) return false
  return new Date(soldAt).getTime() + soldVisibleDays * 86_400_000 <= now.getTime()
}
