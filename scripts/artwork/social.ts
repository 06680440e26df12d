/**
 * The 1200x630 social card (og:image). It carries lettering, so it is only ever shipped as a
 * PNG rendered by Chromium with the system's Liberation Sans / DejaVu Sans fonts.
 * Ink on yellow and yellow on ink are both above 11:1 contrast.
 */
import { BRAND_YELLOW, INK } from './color.ts'
import { logoMark } from './logo.ts'
import { Scene } from './scene.ts'

export const TAGLINE = 'Electric golf carts · Sales · Rentals · Service · New Jersey'
const FONT = `font-family="'Liberation Sans','DejaVu Sans',Arial,Helvetica,sans-serif"`

export function socialCardSvg(): string {
  const scene = new Scene(1200, 630, `Jersey Cart Co. ${TAGLINE}`)
  const cart = scene.cart('2025 Evolution D6 Max GT4', 770, 512, 0.74)
  const body = [
    `<rect width="1200" height="630" fill="${BRAND_YELLOW}"/>`,
    `<circle cx="960" cy="330" r="250" fill="#FDE68A"/>`,
    `<rect x="80" y="110" width="132" height="132" rx="30" fill="${INK}"/>`,
    `<g transform="translate(80 110) scale(.33)">${logoMark(BRAND_YELLOW, INK)}</g>`,
    `<text x="76" y="372" ${FONT} font-size="84" font-weight="700" fill="${INK}" letter-spacing="-1">Jersey Cart Co.</text>`,
    cart.markup,
    `<rect y="540" width="1200" height="90" fill="${INK}"/>`,
    `<text x="80" y="597" ${FONT} font-size="33" font-weight="700" fill="${BRAND_YELLOW}">${TAGLINE}</text>`,
  ]
  return scene.document(body.join(''))
}
