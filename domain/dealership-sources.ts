import { manufacturerPages } from './catalogue.ts'
import { slugify } from './slug.ts'

/**
 * The vehicle page's "View Dealership Source" button (docs/PRODUCT.md, "Dealership sources"): which model a cart's title
 * names, looked up in the catalogue's table of manufacturer pages (domain/catalogue.ts).
 */

export interface ModelMatch {
  /** "Evolution D5 Maverick 2+2" */
  model: string
  url: string
}

const models = Object.entries(manufacturerPages)
  .map(([model, url]) => ({ model, url, key: `-${slugify(model)}-` }))
  // Longest first, so "D5 Ranger 2+2 Plus" wins over "D5 Ranger 2+2".
  .sort((a, b) => b.key.length - a.key.length)

/**
 * The model a title names, matched on whole words anywhere in the title, so a model year or a
 * colour around the name ("2025 Evolution D6 Max GT4 Portimao Blue") does not hide it.
 */
export function modelForTitle(title: string): ModelMatch | undefined {
  const haystack = `-${slugify(title)}-`
  const found = models.find((m) => haystack.includes(m.key))
  return found && { model: found.model, url: found.url }
}

export function dealershipSourceFor(title: string): string | undefined {
  return modelForTitle(title)?.url
}
