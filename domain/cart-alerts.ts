import { listInWords, showroomByKey } from './business.ts'
import { batteryLabels } from './cart-facts.ts'
import { type CartSearch, cartSearchParams } from './cart-query.ts'
import { categoryLabel, formatPrice } from './golf-cart.ts'

/**
 * Shoppers watching a cart or a search (PRODUCT.md, "watching a cart or a search" and "what
 * watchers get"): the rules and the words the buttons say, shared by the site, the widgets and
 * the API. The request's schema (`alert.watch`, `POST /api/alerts`) is domain/cart-alerts-schema.ts:
 * a partner's page loads these words with its first carts, and zod only when a shopper opens the
 * alert's form.
 */
export const alertRules = {
  /** An email watch's confirmation link works this long; a watch never confirmed is then deleted. */
  confirmWithinDays: 7,
  /** A shopper's address is deleted this long after their last alert (or the confirmation, if none came). */
  keepDays: 365,
  /** One address hears about one cart at most once in this long; one search sends at most one digest in it. */
  onceEveryHours: 24,
  /** Confirmation emails to one address in a day at most, however many watches it is given. */
  confirmationsPerDay: 5,
  /**
   * New matches of a search gather this long before its digest goes (well inside the 60 seconds
   * PRODUCT.md allows), so carts published one after another land in one email, not the first alone.
   */
  gatherSeconds: 20,
} as const

export const dayMs = alertRules.onceEveryHours * 60 * 60 * 1000

/** The buttons' words (PRODUCT.md): a cart's page, and the inventory's list. */
export const watchWords = {
  cart: 'Tell me if the price drops',
  search: 'Tell me about new carts like these',
} as const

/** What a watched search keeps: the filters, never the sort (it changes nothing about which carts match). */
export type WatchedSearch = Omit<CartSearch, 'sort'>

export function watchedSearch(search: CartSearch): WatchedSearch {
  const { sort: _sort, ...filters } = search
  return filters
}

/** One search, one key: the filters as an address's query writes them, in their one order. */
export function searchKey(search: WatchedSearch): string {
  return cartSearchParams(search).toString()
}

/** `club-car` as "Club Car": a make key in words, as an email or a page names it. */
function makeWords(key: string): string {
  return key
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ')
}

/**
 * A watched search in words, for its confirmation, its digests and its pages: "Denago or
 * Evolution, at least 6 seats, lithium battery, under $15,000"; "every cart" when nothing narrows it.
 */
export function describeSearch(search: WatchedSearch): string {
  const parts = [
    search.category ? `${categoryLabel(search.category).toLowerCase()}` : undefined,
    search.make ? listInWords(search.make.map(makeWords), 'or') : undefined,
    search.seats ? `at least ${search.seats} seats` : undefined,
    search.battery ? `${batteryLabels[search.battery].toLowerCase()} battery` : undefined,
    search.streetLegal ? 'street legal' : undefined,
    search.lifted ? 'lifted' : undefined,
    search.location ? `at ${showroomByKey(search.location)?.name ?? search.location}` : undefined,
    search.minPrice !== undefined && search.maxPrice !== undefined
      ? `${formatPrice(search.minPrice)} to ${formatPrice(search.maxPrice)}`
      : search.minPrice !== undefined
        ? `from ${formatPrice(search.minPrice)}`
        : search.maxPrice !== undefined
          ? `up to ${formatPrice(search.maxPrice)}`
          : undefined,
    search.q ? `matching "${search.q}"` : undefined,
  ].filter((part): part is string => Boolean(part))
  return parts.length > 0 ? parts.join(', ') : 'every cart'
}
