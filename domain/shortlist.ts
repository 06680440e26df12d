/**
 * A shopper's shortlists (PRODUCT.md, "compare and save"): the carts chosen to compare, at most
 * `compareLimit`, and the carts saved in this browser. Both are lists of slugs; in an address
 * they are one comma-separated `carts` parameter (`/compare?carts=a,b,c`, `/saved?carts=a,b`).
 * No account and no cookie: the browser keeps them in its local storage (widgets/shared/shortlist.ts).
 */
export const shortlistKinds = ['compare', 'saved'] as const
/**
 * The lists' pages. Written here, not only in domain/site-paths.ts (which takes them from here),
 * so every page's own script reaches them without the whole table of addresses.
 */
export const shortlistPages = { compare: '/compare', saved: '/saved' } as const
export type ShortlistKind = (typeof shortlistKinds)[number]

/** Three carts side by side still read at 320 px. */
export const compareLimit = 3
/** A saved list long enough for any shopper, short enough for one address. */
export const savedLimit = 24

export const shortlistLimits: Readonly<Record<ShortlistKind, number>> = { compare: compareLimit, saved: savedLimit }

/** A slug as the site writes them: lower-case letters, digits and single hyphens. */
const slugShape = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/**
 * The slugs of a `carts` parameter: slug-shaped, each once, in order, at most the list's limit
 * (the first ones kept). Anything else is left out: an address is typed, shared and edited.
 */
export function readShortlist(kind: ShortlistKind, value: string | null | undefined): string[] {
  const slugs = (value ?? '').split(',').map((s) => s.trim()).filter((s) => s.length <= 200 && slugShape.test(s))
  return [...new Set(slugs)].slice(0, shortlistLimits[kind])
}

/**
 * A list with `slug` added, or taken out when it is there. A fourth cart to compare takes the
 * place of the first one chosen, so Compare always does what it says.
 */
export function toggleShortlist(kind: ShortlistKind, list: readonly string[], slug: string): string[] {
  if (list.includes(slug)) return list.filter((s) => s !== slug)
  return [...list, slug].slice(-shortlistLimits[kind])
}

/** What a shortlist's link says: "Compare 2 carts", "Saved carts (3)". */
export function shortlistLinkText(kind: ShortlistKind, count: number): string {
  return kind === 'compare' ? `Compare ${count} ${count === 1 ? 'cart' : 'carts'}` : `Saved carts (${count})`
}

/** A list's page with its carts: `/compare?carts=a,b,c` (slugs need no escaping), `/saved`. */
export function shortlistHref(kind: ShortlistKind, slugs: readonly string[]): string {
  return slugs.length ? `${shortlistPages[kind]}?carts=${slugs.join(',')}` : shortlistPages[kind]
}
