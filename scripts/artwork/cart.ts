/**
 * `drawGolfCart(options)`: a flat side view of an electric golf cart as a standalone SVG
 * document (800x600). `cartParts` gives the same drawing as pieces so scenes can place
 * several carts in one document.
 */
import { INK, n, tint } from './color.ts'
import { layoutCart, type CartOptions, type CartLayout } from './cart-layout.ts'
import {
  TRIM, TYRE, arcPath, benchDef, benchId, sharedBack, wellPath, wheelDef, wheelId,
} from './cart-parts.ts'
import { cartFront } from './cart-front.ts'

export type { CartOptions } from './cart-layout.ts'

export const CART_STYLE = `.o{stroke:${INK};stroke-width:3;stroke-linejoin:round}`

export interface CartParts {
  /** `<defs>` entries by id; scenes merge these maps. */
  defs: Map<string, string>
  /** The cart, rear at x = 0, standing on y = 480. */
  body: string
  length: number
}

export function cartParts(o: CartOptions): CartParts {
  const k = layoutCart(o)
  const { length: L, floor: b, wheelRadius: r, ground } = k
  const body = o.bodyColour
  const cy = ground - r
  const defs = new Map([
    [wheelId(r, o.lifted), wheelDef(r, o.lifted)],
    [benchId(body), benchDef(body)],
  ])
  const pair = k.benches.some((bench) => bench.facing === 'rear')
  if (pair) defs.set(benchId(body, false), benchDef(body, false))
  const out: string[] = []
  out.push(`<ellipse cx="${n(L / 2)}" cy="${ground + 2}" rx="${n(L / 2 + 26)}" ry="11" fill="${INK}" opacity=".15"/>`)
  for (const x of [k.rearWheelX, k.frontWheelX]) {
    out.push(`<ellipse cx="${x}" cy="${ground}" rx="${n(r * 0.9)}" ry="5" fill="${INK}" opacity=".25"/>`)
  }
  for (const x of k.struts) {
    out.push(`<path d="M${x} ${b - 56}L${x - 4} ${b - 258}" stroke="${TRIM}" stroke-width="8"/>`)
  }
  out.push(rearEnd(k, body))
  k.benches.forEach((bench, i) => {
    const backToBack = pair && i < 2
    const href = `href="#${benchId(body, !backToBack)}"`
    out.push(
      bench.facing === 'forward'
        ? `<use ${href} x="${bench.x}" y="${b}"/>`
        : `<use ${href} transform="translate(${bench.x + 100} ${b}) scale(-1 1)"/>`,
    )
  })
  if (pair) out.push(sharedBack(body, (k.benches[0]!.x + 100 + k.benches[1]!.x) / 2, b))
  out.push(cartFront(o.style, L, b, body))
  const rockerStart = k.rearEnd === 'step' ? 30 : 4
  out.push(`<rect class="o" x="${rockerStart}" y="${b}" width="${L - 6 - rockerStart}" height="16" rx="4" fill="${TRIM}"/>`)
  if (o.lifted) {
    out.push(`<rect x="${k.rearWheelX}" y="${b + 16}" width="${k.frontWheelX - k.rearWheelX}" height="9" fill="${TYRE}"/>`)
  }
  for (const x of [k.rearWheelX, k.frontWheelX]) {
    out.push(`<path d="${wellPath(x, cy, r + 8, b + 16)}" fill="#1F2328"/>`)
    if (o.lifted) {
      out.push(`<path d="${arcPath(x, cy, r + 11, 192, 348)}" fill="none" stroke="${TYRE}" stroke-width="10" stroke-linecap="round"/>`)
    }
    out.push(`<use href="#${wheelId(r, o.lifted)}" x="${x}" y="${cy}"/>`)
  }
  out.push(cockpit(k, o))
  return { defs, body: out.join(''), length: L }
}

/** Whatever sits behind the rearmost forward bench: a cargo bed, a golf bag or a step. */
function rearEnd(k: CartLayout, body: string): string {
  const b = k.floor
  const [x0, x1] = k.rearBody
  const shell =
    `<path class="o" d="M${x0} ${b + 10}V${b - 40}Q${x0} ${b - 60} ${x0 + 20} ${b - 60}H${x1}V${b + 10}Z" fill="${body}"/>` +
    `<path d="M${x0 + 20} ${b - 50}H${x1 - 10}" stroke="${tint(body, 0.4)}" stroke-width="3" stroke-linecap="round" opacity=".7"/>` +
    `<rect class="o" x="${x0 + 2}" y="${b - 44}" width="7" height="16" rx="2" fill="#D92D20"/>`
  if (k.rearEnd === 'bed') {
    return (
      `<rect class="o" x="4" y="${b - 88}" width="${x1}" height="96" rx="4" fill="#3D434C"/>` +
      `<rect class="o" x="0" y="${b - 94}" width="${x1 + 6}" height="10" rx="3" fill="${TRIM}"/>` +
      `<path d="M48 ${b - 80}V${b - 4}M94 ${b - 80}V${b - 4}M140 ${b - 80}V${b - 4}" stroke="#59616C" stroke-width="4"/>` +
      `<rect class="o" x="6" y="${b - 74}" width="7" height="16" rx="2" fill="#D92D20"/>`
    )
  }
  if (k.rearEnd === 'bag') {
    const bag = `transform="rotate(-12 30 ${b - 60})"`
    return (
      `<g ${bag}><path d="M22 ${b - 170}l-4 -22M30 ${b - 172}l2 -24M40 ${b - 170}l8 -20" stroke="#9CA3AF" stroke-width="4" stroke-linecap="round"/>` +
      `<rect class="o" x="14" y="${b - 176}" width="34" height="118" rx="12" fill="#1E3A5F"/>` +
      `<rect x="14" y="${b - 150}" width="34" height="10" fill="#FACC15"/></g>${shell}`
    )
  }
  if (k.rearEnd === 'step') {
    return `<path d="M2 ${b - 24}H40V${b - 12}H2Z" class="o" fill="${TRIM}"/><path d="M14 ${b - 12}L36 ${b + 6}" stroke="${TRIM}" stroke-width="6"/>${shell}`
  }
  return `${shell}<rect class="o" x="0" y="${b - 2}" width="14" height="20" rx="5" fill="${TRIM}"/>`
}

/** Windscreen, steering wheel and roof, drawn over the body. */
function cockpit(k: CartLayout, o: CartOptions): string {
  const L = k.length
  const b = k.floor
  const [r0, r1] = k.roof
  const top = b - 272
  const parts = [
    `<path d="M${L - 150} ${b - 92}L${L - 180} ${b - 256}L${L - 196} ${b - 256}L${L - 166} ${b - 92}Z" fill="#CDEBFA" opacity=".85"/>`,
    `<path d="M${L - 172} ${b - 120}L${L - 186} ${b - 200}" stroke="#FFFFFF" stroke-width="3" stroke-linecap="round" opacity=".8"/>`,
    `<path d="M${L - 150} ${b - 92}L${L - 180} ${b - 258}" stroke="${TRIM}" stroke-width="8" stroke-linecap="round"/>`,
    `<path d="M${L - 158} ${b - 86}L${L - 196} ${b - 148}" stroke="${TRIM}" stroke-width="6" stroke-linecap="round"/>`,
    `<path d="M${L - 178} ${b - 161}L${L - 218} ${b - 136}" stroke="${INK}" stroke-width="8" stroke-linecap="round"/>`,
    `<rect class="o" x="${r0}" y="${top}" width="${r1 - r0}" height="18" rx="7" fill="${TRIM}"/>`,
    `<path d="M${r0 + 10} ${top + 5}H${r1 - 10}" stroke="#4A515B" stroke-width="3" stroke-linecap="round"/>`,
  ]
  if (o.lifted) {
    parts.push(
      `<rect class="o" x="${L - 214}" y="${top - 11}" width="56" height="11" rx="3" fill="${TRIM}"/>`,
      `<path d="M${L - 208} ${top - 5.5}H${L - 164}" stroke="#FFF7CC" stroke-width="4"/>`,
    )
  }
  return parts.join('')
}

export function drawGolfCart(o: CartOptions): string {
  const { defs, body, length } = cartParts(o)
  const scale = Math.min(1, 700 / length)
  const tx = (800 - length * scale) / 2
  const ty = 480 * (1 - scale)
  const transform = scale === 1 ? `translate(${n(tx)} 0)` : `translate(${n(tx)} ${n(ty)}) scale(${n3(scale)})`
  const title = o.title.replace(/&/g, '&amp;').replace(/</g, '&lt;')
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600" role="img" aria-labelledby="t">` +
    `<title id="t">${title}</title><defs><style>${CART_STYLE}</style>` +
    `<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#FFFBEB"/><stop offset="1" stop-color="#F1F3F6"/></linearGradient>` +
    `${[...defs.values()].join('')}</defs>` +
    `<rect width="800" height="600" fill="url(#bg)"/><circle cx="400" cy="280" r="240" fill="#FEF3C7"/>` +
    `<rect y="480" width="800" height="120" fill="#E7EAEE"/>` +
    `<g transform="${transform}">${body}</g></svg>\n`
  )
}

function n3(x: number): string {
  return String(Math.round(x * 1000) / 1000)
}
