import { countyValues } from './counties.ts'
import { type CartSearch, cartSearchParams } from './cart-query.ts'

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
  services: '/services',
  financing: '/financing',
  about: '/about',
  contact: '/contact',
  vehicle: '/vehicle/{slug}',
  privacy: '/privacy-policy',
  terms: '/terms-of-service',
  countySales: '/{county}-county-golf-carts',
  countyRentals: '/rentals/{county}-county-golf-cart-rentals',
} as const

export type SitePage = keyof typeof sitePaths

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
 * The links: `paths.contact` is "/contact", `paths.vehicle(slug)` "/vehicle/<slug>".
 * `paths.quote(slug)` is Get Quote on a vehicle page: the contact form with that cart chosen.
 */
export const paths = {
  ...linksOf(sitePaths),
  quote: (slug?: string) => (slug ? `${sitePaths.contact}?cart=${encodeURIComponent(slug)}` : sitePaths.contact),
  /**
   * One search of the inventory and one of its pages (from 0): `/inventory?seats=6&sort=price-asc&page=2`.
   * The search's fields come in one fixed order (domain/cart-query.ts), so a search has one address.
   */
  inventorySearch: (search: CartSearch = {}, page = 0) => {
    const query = cartSearchParams(search)
    if (page > 0) query.set('page', String(page + 1))
    const text = query.toString()
    return text ? `${sitePaths.inventory}?${text}` : sitePaths.inventory
  },
}

/**
 * The contact page's form panel. A post without JavaScript goes to the page at this anchor, and
 * its thank-you redirect keeps it, so the visitor lands on the notice, not on the hero.
 */
export const contactFormAnchor = 'send-message'

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

/** Every path of every page, for the sitemap: fixed pages, one per county, one per slug given. */
export function everySitePath(slugs: readonly string[]): string[] {
  return compiled().flatMap(({ pattern, parameter }) => {
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
