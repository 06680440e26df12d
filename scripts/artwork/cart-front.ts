/**
 * The nose of the cart: front cowl, headlight, bumper. Three shapes by style: the rounded
 * Evolution Classic, the sleek Evolution D-series and the squarer Denago.
 */
import { INK, tint } from './color.ts'
import type { CartOptions } from './cart-layout.ts'
import { TRIM } from './cart-parts.ts'

export function cartFront(style: CartOptions['style'], L: number, b: number, body: string): string {
  const back = `M${L - 174} ${b + 10}V${b - 4}L${L - 162} ${b - 86}Q${L - 158} ${b - 96} ${L - 148} ${b - 96}`
  const light = tint(body, 0.45)
  const lamp = '#FFF7CC'
  if (style === 'classic') {
    return (
      `<path class="o" d="${back}L${L - 112} ${b - 90}C${L - 40} ${b - 88} ${L + 4} ${b - 62} ${L} ${b - 12}V${b + 10}Z" fill="${body}"/>` +
      `<path d="M${L - 140} ${b - 84}L${L - 100} ${b - 82}" stroke="${light}" stroke-width="4" stroke-linecap="round" opacity=".8"/>` +
      `<circle class="o" cx="${L - 16}" cy="${b - 44}" r="9" fill="${lamp}"/>` +
      `<rect class="o" x="${L - 12}" y="${b - 2}" width="18" height="20" rx="6" fill="#C9CED6"/>`
    )
  }
  if (style === 'denago') {
    return (
      `<path class="o" d="${back}L${L - 34} ${b - 82}Q${L - 10} ${b - 80} ${L - 6} ${b - 62}L${L + 2} ${b - 10}V${b + 10}Z" fill="${body}"/>` +
      `<path d="M${L - 140} ${b - 88}L${L - 50} ${b - 80}" stroke="${light}" stroke-width="4" stroke-linecap="round" opacity=".8"/>` +
      `<rect class="o" x="${L - 21}" y="${b - 62}" width="12" height="18" rx="3" fill="${lamp}"/>` +
      `<path d="M${L - 48} ${b - 68}H${L - 26}" stroke="#FDE68A" stroke-width="4" stroke-linecap="round"/>` +
      `<rect class="o" x="${L - 12}" y="${b - 4}" width="20" height="24" rx="4" fill="${TRIM}"/>`
    )
  }
  return (
    `<path class="o" d="${back}L${L - 116} ${b - 88}Q${L - 40} ${b - 72} ${L - 14} ${b - 52}Q${L + 2} ${b - 40} ${L} ${b - 14}V${b + 10}Z" fill="${body}"/>` +
    `<path d="M${L - 140} ${b - 86}L${L - 104} ${b - 80}" stroke="${light}" stroke-width="4" stroke-linecap="round" opacity=".8"/>` +
    `<ellipse cx="${L - 30}" cy="${b - 52}" rx="11" ry="5" transform="rotate(32 ${L - 30} ${b - 52})" fill="${lamp}" stroke="${INK}" stroke-width="2.5"/>` +
    `<rect class="o" x="${L - 12}" y="${b - 2}" width="18" height="20" rx="5" fill="${TRIM}"/>`
  )
}
