import type { Specifications } from './specifications.ts'

/**
 * The values of a cart record's enumerated fields and their words: statuses, conditions,
 * batteries. Nothing but a type is imported, so the /inventory search script (domain/cart-query.ts)
 * takes the batteries without the specifications; domain/cart-facts.ts re-exports all of it.
 */
export const cartStatuses = ['draft', 'available', 'hold', 'sold'] as const
export type CartStatus = (typeof cartStatuses)[number]
/**
 * What visitors can meet: a draft (a cart still being listed, PRODUCT.md "drafts") is in the
 * console only, so no visitor's list, page, feed or widget ever holds one.
 */
export type PublicStatus = Exclude<CartStatus, 'draft'>
/** The statuses every list shows (holds after available carts); sold carts only keep their page. */
export const listedStatuses = ['available', 'hold'] as const

/** What visitors (and, for a draft, staff) read for each status. */
export const statusLabels: Readonly<Record<CartStatus, string>> = {
  draft: 'Draft',
  available: 'In Stock',
  hold: 'On Hold',
  sold: 'Sold',
}

/** SPEC's `category` is the cart's condition; the console offers these two. */
export const conditions = ['new', 'used'] as const
export type Condition = (typeof conditions)[number]
/** A condition as visitors and staff read it. */
export const conditionLabels: Readonly<Record<Condition, string>> = { new: 'New', used: 'Used' }

export const batteries = ['lithium', 'lead-acid'] as const
export type BatteryKind = (typeof batteries)[number]

export const batteryLabels: Readonly<Record<BatteryKind, Specifications['battery']>> = {
  lithium: 'Lithium Ion',
  'lead-acid': 'Lead Acid',
}

