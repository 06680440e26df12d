import { sitePaths } from '../../domain/site-paths.ts'
import { shortlistHref as listHref, type ShortlistKind } from '../../domain/shortlist.ts'

/**
 * Addresses inside a widget. Cart images and page links are relative to the dealer's site; on a
 * partner's page they must point back to the dealer (the `api-base`), not to the partner.
 */
export function resolveUrl(apiBase: string, path: string): string {
  if (!apiBase || /^[a-z][a-z\d+.-]*:/i.test(path)) return path
  return `${apiBase.replace(/\/+$/, '')}${path.startsWith('/') ? '' : '/'}${path}`
}

/** An `api-base` as a partner may write it ("https://dealer.test/ "), without the trailing slash. */
export function trimApiBase(apiBase: unknown): string {
  return typeof apiBase === 'string' ? apiBase.trim().replace(/\/+$/, '') : ''
}

/** The `vehicle-href` template (docs/CONTRACTS.md): `{api-base}` and `{slug}` are filled in. */
export function fillVehicleHref(template: string, apiBase: string, slug: string): string {
  return template.replaceAll('{api-base}', apiBase.replace(/\/+$/, '')).replaceAll('{slug}', encodeURIComponent(slug))
}

/** The vehicle page's own pattern on the dealer's site: `{api-base}/vehicle/{slug}`. */
export const defaultVehicleHref = `{api-base}${sitePaths.vehicle}`


/**
 * A shopper's compare or saved list on the dealer's site, from a widget: the slugs travel in the
 * address, because each site's local storage is its own (the dealer's /saved keeps them).
 */
export function shortlistHref(apiBase: string) {
  return (kind: ShortlistKind, slugs: readonly string[]) => resolveUrl(apiBase, listHref(kind, slugs))
}
