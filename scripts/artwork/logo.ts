/**
 * The Jersey Cart Co. mark: a bold golf cart silhouette on golf-cart yellow, built from a few
 * thick shapes so it still reads at 32px. Yellow outlines carve the gaps between the parts.
 */
import { BRAND_YELLOW, INK } from './color.ts'

/** The cart silhouette in a 400x400 box; `ink` draws, `paper` carves the gaps. */
export function logoMark(ink = INK, paper = BRAND_YELLOW): string {
  const gap = `stroke="${paper}" stroke-width="12" stroke-linejoin="round"`
  return (
    `<g fill="${ink}">` +
    `<rect x="72" y="94" width="240" height="32" rx="16"/>` +
    `<rect x="86" y="112" width="22" height="130"/>` +
    `<path d="M276 112L320 244" stroke="${ink}" stroke-width="22" stroke-linecap="round"/>` +
    `<rect x="132" y="140" width="34" height="100" rx="15" transform="rotate(-8 149 240)" ${gap}/>` +
    `<rect x="134" y="202" width="104" height="30" rx="14" ${gap}/>` +
    `<path d="M62 300V254Q62 236 80 236H296Q336 238 346 276V300Z" ${gap}/>` +
    `<circle cx="130" cy="302" r="46" ${gap}/><circle cx="290" cy="302" r="46" ${gap}/>` +
    `<circle cx="130" cy="302" r="15" fill="${paper}"/><circle cx="290" cy="302" r="15" fill="${paper}"/>` +
    `</g>`
  )
}

export function logoSvg(): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400" role="img" aria-labelledby="t">` +
    `<title id="t">Jersey Cart Co.</title><rect width="400" height="400" rx="88" fill="${BRAND_YELLOW}"/>` +
    `${logoMark()}</svg>\n`
  )
}

/** The same cart with fewer, thicker parts on a 64 grid, for browser tabs. */
export function faviconSvg(): string {
  const gap = `stroke="${BRAND_YELLOW}" stroke-width="2.5" stroke-linejoin="round"`
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<title>Jersey Cart Co.</title><rect width="64" height="64" rx="14" fill="${BRAND_YELLOW}"/>` +
    `<g fill="${INK}"><rect x="9" y="11" width="40" height="7" rx="3.5"/>` +
    `<rect x="13" y="15" width="5" height="24"/>` +
    `<path d="M43 15L51 39" stroke="${INK}" stroke-width="5" stroke-linecap="round"/>` +
    `<path d="M7 50V40Q7 36 11 36H47Q54 36 56 43V50Z" ${gap}/>` +
    `<circle cx="19" cy="49" r="8.5" ${gap}/><circle cx="45" cy="49" r="8.5" ${gap}/>` +
    `<circle cx="19" cy="49" r="2.8" fill="${BRAND_YELLOW}"/><circle cx="45" cy="49" r="2.8" fill="${BRAND_YELLOW}"/></g></svg>\n`
  )
}
