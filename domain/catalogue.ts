import { slugify } from './slug.ts'

/**
 * The dealer's cart catalogue: the models the site knows, with the manufacturer page behind each,
 * and the body colours the drawings know. The vehicle page's "View Dealership Source" button
 * (domain/dealership-sources.ts) reads the models. The starting inventory itself is a spreadsheet,
 * `domain/starting-inventory.csv` (the import's columns): the seed imports it and the artwork
 * generator draws each row. Adding a cart to it is one row, then
 * `node --import tsx scripts/artwork/generate.ts` to draw its picture.
 */

/**
 * The manufacturer page of each model (37 model names; docs/PRODUCT.md, "Dealership sources"). Data the dealer edits
 * when a manufacturer moves a page or a new model arrives; a cart whose title names no model
 * here shows no "View Dealership Source" button.
 */
export const manufacturerPages: Readonly<Record<string, string>> = {
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

/** The body colours the artwork can draw (scripts/artwork/color.ts holds their shades). */
export type BodyColour =
  | 'white'
  | 'black'
  | 'silver'
  | 'red'
  | 'blue'
  | 'green'
  | 'champagne'
  | 'grey'
  | 'navy'
  | 'sky'
  | 'orange'
  | 'burgundy'

/** Each body colour as the record's `color` names it (the starting inventory's colour column). */
export const bodyColourNames: Readonly<Record<BodyColour, string>> = {
  white: 'White',
  black: 'Black',
  silver: 'Silver',
  red: 'Red',
  blue: 'Blue',
  green: 'Green',
  champagne: 'Champagne',
  grey: 'Grey',
  navy: 'Navy',
  sky: 'Sky Blue',
  orange: 'Orange',
  burgundy: 'Burgundy',
}

/** The drawing a colour name asks for, if the artwork has it. */
export function bodyColourNamed(name: string | null | undefined): BodyColour | undefined {
  return (Object.keys(bodyColourNames) as BodyColour[]).find((c) => bodyColourNames[c].toLowerCase() === name?.trim().toLowerCase())
}

/** A cart's drawn picture, named after its title's slug (800x600 SVG, with a PNG beside it). */
export function drawnImageUrl(title: string): string {
  return `/images/carts/${slugify(title)}.svg`
}
