import { slugify } from './slug.ts'

/**
 * The manufacturer page behind the vehicle page's "View Dealership Source" button (SPEC
 * section 2): 37 model names, one row each. This table is data the dealer edits when a
 * manufacturer moves a page or a new model arrives; a title matching no row shows no button.
 */
export const dealershipSources: Readonly<Record<string, string>> = {
  'Evolution Classic 2 Plus': 'https://evolutionevs.com/classic-2-plus',
  'Evolution Classic 2 Pro': 'https://evolutionevs.com/classic-2-pro',
  'Evolution Classic 4 Plus': 'https://evolutionevs.com/classic-4-plus',
  'Evolution Classic 4 Pro': 'https://evolutionevs.com/classic-4-pro',
  'Evolution Carrier 6 Plus': 'https://evolutionevs.com/carrier-6-plus',
  'Evolution Carrier 6 Pro': 'https://evolutionevs.com/carrier-6-pro',
  'Evolution Carrier 8 Plus': 'https://evolutionevs.com/carrier-8-plus',
  'Evolution Carrier 8 Pro': 'https://evolutionevs.com/carrier-8-pro',
  'Evolution D3 2+2': 'https://evolutionevs.com/d3-2-2',
  'Evolution D3 4': 'https://evolutionevs.com/d3-4',
  'Evolution D5 Maverick 2+2': 'https://evolutionevs.com/d5-maverick-2-2',
  'Evolution D5 Maverick 4': 'https://evolutionevs.com/d5-maverick-4',
  'Evolution D5 Maverick 4+2': 'https://evolutionevs.com/d5-maverick-4-2',
  'Evolution D5 Maverick 6': 'https://evolutionevs.com/d5-maverick-6',
  'Evolution D5 Ranger 2+2': 'https://evolutionevs.com/d5-ranger-2-2',
  'Evolution D5 Ranger 2+2 Plus': 'https://evolutionevs.com/d5-ranger-2-2-plus',
  'Evolution D5 Ranger 4': 'https://evolutionevs.com/d5-ranger-4',
  'Evolution D5 Ranger 4 Plus': 'https://evolutionevs.com/d5-ranger-4-plus',
  'Evolution D5 Ranger 6': 'https://evolutionevs.com/d5-ranger-6',
  'Evolution D5 Ranger 6 Plus': 'https://evolutionevs.com/d5-ranger-6-plus',
  'Evolution D6 Max GT4': 'https://evolutionevs.com/d6-max-gt4',
  'Evolution D6 Max GT6': 'https://evolutionevs.com/d6-max-gt6',
  'Evolution D6 Max XT4': 'https://evolutionevs.com/d6-max-xt4',
  'Evolution D6 Max XT6': 'https://evolutionevs.com/d6-max-xt6',
  'Evolution Forester 4 Plus': 'https://evolutionevs.com/forester-4-plus',
  'Evolution Forester 4 Pro': 'https://evolutionevs.com/forester-4-pro',
  'Evolution Forester 6 Plus': 'https://evolutionevs.com/forester-6-plus',
  'Evolution Forester 6 Pro': 'https://evolutionevs.com/forester-6-pro',
  'Evolution Turfman 200': 'https://evolutionevs.com/turfman-200',
  'Evolution Turfman 800': 'https://evolutionevs.com/turfman-800',
  'Evolution Turfman 1000': 'https://evolutionevs.com/turfman-1000',
  'Denago EV City': 'https://www.denagoev.com/ev-city',
  'Denago EV Nomad': 'https://www.denagoev.com/ev-nomad',
  'Denago EV Nomad XL': 'https://www.denagoev.com/ev-nomad-xl',
  'Denago EV Rover XL': 'https://www.denagoev.com/ev-rover-xl',
  'Denago EV Rover XL6': 'https://www.denagoev.com/ev-rover-xl6',
  'Denago EV Rover XXL': 'https://www.denagoev.com/ev-rover-xxl',
}

export interface ModelMatch {
  /** "Evolution D5 Maverick 2+2" */
  model: string
  url: string
}

const models = Object.entries(dealershipSources)
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
