import type { Interest } from './inquiry.ts'
import type { CartType, PlanKey } from './rental-plans.ts'
import { countyValues } from './counties.ts'
import { type CartSearch, cartSearchParams } from './cart-query.ts'
import { shortlistHref, shortlistPages } from './shortlist.ts'

/**
 * Every address of the dealer's site, each written once (docs/PRODUCT.md, "Pages and
 * addresses"). A pattern names its parameter in braces, as the product documents do:
 * `/vehicle/{slug}`. From this table come the matcher the site's router uses
 * (`matchSitePath`), the links every page, widget, lead email and structured-data block builds
 * (`paths`), and the sitemap's list (`everySitePath`). The order is the order paths are tried.
 */
export const sitePaths = {
  home: '/',
  inventory: '/inventory',
  rentals: '/rentals',
  rentalRequest: '/rentals/request',
  services: '/services',
  serviceRequest: '/services/request',
  financing: '/financing',
  about: '/about',
  contact: '/contact',
  compare: shortlistPages.compare,
  saved: shortlistPages.saved,
  vehicle: '/vehicle/{slug}',
  watchConfirm: '/alerts/confirm',
  watchStop: '/alerts/unsubscribe',
  appointmentManage: '/appointments/manage',
  privacy: '/privacy-policy',
  terms: '/terms-of-service',
  countySales: '/{county}-county-golf-carts',
  countyRentals: '/rentals/{county}-county-golf-cart-rentals',
} as const

export type SitePage = keyof typeof sitePaths

/**
 * Pages only a link in an email opens (a price alert's confirmation and unsubscribe, a booking's
 * page to move or cancel it, with the link's token in the query: never indexed), and a shopper's
 * own lists (compare, saved: indexable, their canonical address the page without the list).
 * None is in the sitemap.
 */
const unlistedPages: ReadonlySet<SitePage> = new Set(['watchConfirm', 'watchStop', 'appointmentManage', 'compare', 'saved'])

/**
 * The values a parameter takes. A county is one of the 21, so `/paris-county-golf-carts` is no
 * page; a slug is any one path segment, and the carts in the database say which exist.
 */
const parameterValues: Readonly<Record<string, readonly string[]>> = { county: countyValues }

/** A fixed path is its own link; a path with a parameter is a function of its value. */
type Link<Pattern extends string> = Pattern extends `${string}{${string}}${string}` ? (value: string) => string : Pattern

interface Compiled {
  page: SitePage
  pattern: string
  parameter?: string
  regex: RegExp
}

/** The patterns as regular expressions, made on first use (the widgets build links only). */
let compiledPaths: readonly Compiled[] | undefined
function compiled(): readonly Compiled[] {
  compiledPaths ??= (Object.keys(sitePaths) as SitePage[]).map((page) => {
    const pattern: string = sitePaths[page]
    const parameter = /\{(\w+)\}/.exec(pattern)?.[1]
    const source = pattern
      .split(/\{\w+\}/)
      .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('([^/]+)')
    return { page, pattern, parameter, regex: new RegExp(`^${source}$`) }
  })
  return compiledPaths
}

function fill(pattern: string, value: string): string {
  return pattern.replace(/\{\w+\}/, encodeURIComponent(value))
}

/** Each page's link, by the same names as the table. */
function linksOf<Table extends Readonly<Record<string, string>>>(table: Table): { readonly [Page in keyof Table]: Link<Table[Page]> }
function linksOf(table: Readonly<Record<string, string>>): Record<string, string | ((value: string) => string)> {
  return Object.fromEntries(
    Object.entries(table).map(([page, pattern]) => [page, pattern.includes('{') ? (value: string) => fill(pattern, value) : pattern]),
  )
}

/**
 * The contact page's form panel. A post without JavaScript goes to the page at this anchor, and
 * its thank-you redirect keeps it, so the visitor lands on the notice, not on the hero. Get Quote
 * buttons land on it too.
 */
export const contactFormAnchor = 'send-message'

/** The rental and service request pages' form panel: their posts and thank-yous land on it too. */
export const requestFormAnchor = 'request'
/** The vehicle page's booking, where its reloads without JavaScript land (docs/decisions/0046). */
export const testDriveAnchor = 'test-drive'
/** The service form's drop-off time, where its day's reload lands. */
export const dropOffAnchor = 'drop-off'

/**
 * The links: `paths.contact` is "/contact", `paths.vehicle(slug)` "/vehicle/<slug>".
 * `paths.quote(slug)` is the contact page with that cart chosen (the address a quote's post comes
 * back to); `paths.quoteForm(slug)` is what Get Quote links to: the same page, landed on its form,
 * so the first field and "Quote for: ..." are in view, not two screens down on a phone.
 */
export const paths = {
  ...linksOf(sitePaths),
  quote: (slug?: string) => (slug ? `${sitePaths.contact}?cart=${encodeURIComponent(slug)}` : sitePaths.contact),
  quoteForm: (slug?: string) => `${paths.quote(slug)}#${contactFormAnchor}`,
  /** The contact form, landed on, with an interest chosen: `/contact?interest=service#send-message`. */
  inquiryForm: (interest?: Interest) =>
    `${sitePaths.contact}${interest ? `?interest=${encodeURIComponent(interest)}` : ''}#${contactFormAnchor}`,
  /**
   * The rental request with a cart and plan chosen (a plan card's "Request these dates"), landed
   * on its form: `/rentals/request?cartType=6-seater&plan=weekly#request`. A county page adds its county.
   */
  rentalRequestFor: (choice: { cartType?: CartType; plan?: PlanKey; county?: string } = {}) => {
    const query = new URLSearchParams()
    if (choice.cartType) query.set('cartType', choice.cartType)
    if (choice.plan) query.set('plan', choice.plan)
    if (choice.county) query.set('county', choice.county)
    const text = query.toString()
    return `${sitePaths.rentalRequest}${text ? `?${text}` : ''}#${requestFormAnchor}`
  },
  /** A price alert's confirmation or unsubscribe link, as its emails give it. */
  watchLink: (kind: 'confirm' | 'unsubscribe', token: string) =>
    `${kind === 'confirm' ? sitePaths.watchConfirm : sitePaths.watchStop}?token=${encodeURIComponent(token)}`,
  /** A booking's signed link to move or cancel it, as its emails give it. */
  appointmentLink: (id: number, signature: string) => `${sitePaths.appointmentManage}?booking=${id}&sig=${encodeURIComponent(signature)}`,
  /** Every Schedule Service button: the service request, landed on its form. */
  serviceRequestForm: `${sitePaths.serviceRequest}#${requestFormAnchor}`,
  /**
   * One search of the inventory and one of its pages (from 0): `/inventory?seats=6&sort=price-asc&page=2`.
   * The search's fields come in one fixed order (domain/cart-query.ts), so a search has one address.
   */
  /** Carts side by side: `/compare?carts=a,b,c` (the slugs' commas as they are, readable). */
  compareCarts: (slugs: readonly string[]) => shortlistHref('compare', slugs),
  /** Saved carts, as a widget on another site hands them over: `/saved?carts=a,b`. */
  savedCarts: (slugs: readonly string[]) => shortlistHref('saved', slugs),
  inventorySearch: (search: CartSearch = {}, page = 0) => {
    const query = cartSearchParams(search)
    if (page > 0) query.set('page', String(page + 1))
    const text = query.toString()
    return text ? `${sitePaths.inventory}?${text}` : sitePaths.inventory
  },
}


/**
 * Where a path with trailing slashes redirects: the same path without them, and with one leading
 * slash, so that a path the URL parser normalised to `//evil.test/` (`/x/..//evil.test/`) is
 * never answered with `Location: //evil.test`, which a browser reads as another site (issue #26).
 * A loop, not a pattern: `/\/+$/` on a path of 15,000 slashes and a letter took seconds.
 */
export function withoutTrailingSlashes(pathname: string): string {
  let start = 0
  let end = pathname.length
  while (start < end && pathname[start] === '/') start++
  while (end > start && pathname[end - 1] === '/') end--
  return `/${pathname.slice(start, end)}`
}

export interface SitePathMatch {
  page: SitePage
  /** The parameter by name, decoded: `{ slug: "2025-evolution-d3-2-2" }`; empty for fixed paths. */
  params: Record<string, string>
}

/** Which page a path is, or null when it is none of them. */
export function matchSitePath(path: string): SitePathMatch | null {
  for (const { page, parameter, regex } of compiled()) {
    const found = regex.exec(path)
    if (!found) continue
    if (!parameter) return { page, params: {} }
    const value = decode(found[1] ?? '')
    if (value === undefined) continue
    const allowed = parameterValues[parameter]
    if (allowed && !allowed.includes(value)) continue
    return { page, params: { [parameter]: value } }
  }
  return null
}

/** Every path of every page for the sitemap (fixed pages, one per county, one per slug given), but the unlisted ones. */
export function everySitePath(slugs: readonly string[]): string[] {
  return compiled().flatMap(({ page, pattern, parameter }) => {
    if (unlistedPages.has(page)) return []
    if (!parameter) return [pattern]
    return (parameterValues[parameter] ?? slugs).map((value) => fill(pattern, value))
  })
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}
