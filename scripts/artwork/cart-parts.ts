/**
 * Reusable pieces of a cart drawing, each defined once in `<defs>` and placed with `<use>`:
 * a wheel (tyre, mag rim, hub) and a bench (pedestal, cushion, backrest, armrest).
 * Ids carry their parameters so several carts can share one document.
 */
import { INK, luminance, n, shade, tint } from './color.ts'

export const TYRE = '#1C1F24'
export const TRIM = '#2B2F36'

export function wheelId(radius: number, lifted: boolean): string {
  return `w${radius}${lifted ? 'l' : ''}`
}

export function wheelDef(radius: number, lifted: boolean): string {
  const r = radius
  const rim = r * (lifted ? 0.55 : 0.6)
  const window = rim * 0.56
  const circumference = 2 * Math.PI * window
  const spokes = lifted ? 6 : 5
  const dash = (circumference / spokes) * 0.58
  const gap = circumference / spokes - dash
  const tread = lifted
    ? `<circle r="${n(r - 2)}" fill="none" stroke="${TYRE}" stroke-width="7" stroke-dasharray="8 6"/>`
    : ''
  return (
    `<g id="${wheelId(radius, lifted)}">${tread}<circle r="${n(r)}" fill="${TYRE}"/>` +
    `<circle r="${n(r - 7)}" fill="none" stroke="#353A42" stroke-width="2"/>` +
    `<circle r="${n(rim)}" fill="${lifted ? '#7D8691' : '#C7CDD4'}" stroke="${INK}" stroke-width="2"/>` +
    `<circle r="${n(window)}" fill="none" stroke="${lifted ? '#2A2F36' : '#5B636E'}" ` +
    `stroke-width="${n(rim * 0.5)}" stroke-dasharray="${n(dash)} ${n(gap)}"/>` +
    `<circle r="${n(r * 0.13)}" fill="#E5E7EB" stroke="${INK}" stroke-width="2"/></g>`
  )
}

/** Cream seats on dark bodies, black seats on light ones. */
export function seatColourFor(body: string): string {
  return luminance(body) > 0.3 ? '#2F343C' : '#E9DFCC'
}

export function benchId(body: string, withBack = true): string {
  return `${withBack ? 'b' : 'c'}${body.slice(1).toLowerCase()}`
}

function piping(seat: string): string {
  return luminance(seat) > 0.3 ? shade(seat, 0.18) : tint(seat, 0.2)
}

/**
 * A forward-facing bench at the origin: x 0..100, floor at y 0. Without its back it is one
 * half of a back-to-back pair ("2+2"), which shares the back drawn by `sharedBack`.
 */
export function benchDef(body: string, withBack = true): string {
  const seat = seatColourFor(body)
  const back = withBack
    ? `<rect class="o" x="-2" y="-178" width="24" height="112" rx="10" fill="${seat}" transform="rotate(-9 10 -70)"/>`
    : ''
  return (
    `<g id="${benchId(body, withBack)}"><rect class="o" x="4" y="-60" width="96" height="62" fill="${body}"/>${back}` +
    `<rect class="o" x="0" y="-76" width="106" height="19" rx="9" fill="${seat}"/>` +
    `<path d="M8 -68H98" stroke="${piping(seat)}" stroke-width="2"/>` +
    `<path d="M12 -114H62Q74 -114 74 -102V-76" fill="none" stroke="${TRIM}" stroke-width="5" stroke-linecap="round"/></g>`
  )
}

/** One upright back for two benches sitting back to back, centred on `x`. */
export function sharedBack(body: string, x: number, floor: number): string {
  const seat = seatColourFor(body)
  return (
    `<rect class="o" x="${x - 24}" y="${floor - 176}" width="48" height="112" rx="12" fill="${seat}"/>` +
    `<path d="M${x} ${floor - 166}V${floor - 74}" stroke="${piping(seat)}" stroke-width="2"/>`
  )
}

/** The dark wheel well: the part of a circle around the wheel that lies above `bottom`. */
export function wellPath(cx: number, cy: number, radius: number, bottom: number): string {
  const dy = bottom - cy
  const dx = Math.sqrt(Math.max(0, radius * radius - dy * dy))
  const large = dy > 0 ? 1 : 0
  return `M${n(cx - dx)} ${n(bottom)}A${n(radius)} ${n(radius)} 0 ${large} 1 ${n(cx + dx)} ${n(bottom)}Z`
}

/** An arc over the top of a wheel from `from` to `to` degrees (0 = right, 270 = top). */
export function arcPath(cx: number, cy: number, radius: number, from: number, to: number): string {
  const pt = (deg: number) => {
    const a = (deg * Math.PI) / 180
    return `${n(cx + radius * Math.cos(a))} ${n(cy + radius * Math.sin(a))}`
  }
  return `M${pt(from)}A${n(radius)} ${n(radius)} 0 0 1 ${pt(to)}`
}
