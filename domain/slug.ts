/**
 * Vehicle slugs (docs/PRODUCT.md, "Slugs").
 *
 * The canonical reading lower-cases the title and turns every run of characters other than
 * letters and digits into one hyphen. The alternative reading drops punctuation instead, so
 * "D5 Maverick 2+2" is `d5-maverick-2-2` canonically and `d5-maverick-22` in the other
 * reading; links made with the other reading still have to find the cart.
 */
export function slugify(title: string): string {
  return foldAccents(title)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

export function alternativeSlug(title: string): string {
  return foldAccents(title)
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/** "Édition" becomes "Edition", so URLs stay plain ASCII instead of dropping the letter. */
function foldAccents(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
}

/** The base slug, or `base-2`, `base-3`, ... when the base is already taken. */
export function uniqueSlug(base: string, isTaken: (slug: string) => boolean): string {
  if (!isTaken(base)) return base
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`
    if (!isTaken(candidate)) return candidate
  }
}
