/**
 * The hero scene (1600x900): a Jersey Shore boardwalk on a bright morning. The left half is
 * only sky, sea and planks so a heading can sit on it; the carts, the sun and the Ferris wheel
 * are on the right. Both carts face left, towards the heading.
 */
import { BRAND_YELLOW, n } from './color.ts'
import { Scene } from './scene.ts'

export function heroSvg(): string {
  const scene = new Scene(1600, 900, 'Golf carts on a New Jersey shore boardwalk')
  scene.define(
    'sky',
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#D7EDFA"/><stop offset="1" stop-color="#FFF7E0"/></linearGradient>`,
  )
  scene.define(
    'planks',
    `<pattern id="planks" width="26" height="10" patternUnits="userSpaceOnUse"><path d="M1 0V10" stroke="#C9A06C" stroke-width="2"/></pattern>`,
  )
  scene.define(
    'rail',
    `<pattern id="rail" x="10" width="64" height="60" patternUnits="userSpaceOnUse"><rect width="9" height="60" fill="#A97C4F"/></pattern>`,
  )
  const parts = [
    `<rect width="1600" height="600" fill="url(#sky)"/>`,
    `<circle cx="1190" cy="220" r="130" fill="#FEF3C7" opacity=".7"/><circle cx="1190" cy="220" r="78" fill="#FDE68A"/>`,
    cloud(300, 150, 0.7), cloud(980, 110, 1), cloud(1480, 190, 0.6),
    gulls(),
    ferrisWheel(1420, 372, 150),
    `<rect y="520" width="1600" height="92" fill="#A9D8EE"/>`,
    `<path d="M0 522H1600" stroke="#8CC7E3" stroke-width="3"/>`,
    `<path d="M40 550H1600M0 574H1600M60 596H1600" stroke="#FFFFFF" stroke-width="3" stroke-dasharray="46 120" opacity=".6"/>`,
    `<rect y="604" width="1600" height="100" fill="#F3E2BF"/>`,
    umbrella(690, 640),
    `<rect y="640" width="1600" height="62" fill="url(#rail)"/>`,
    `<rect y="636" width="1600" height="12" fill="#B98A5A"/><rect y="672" width="1600" height="7" fill="#B98A5A"/>`,
    `<rect y="700" width="1600" height="200" fill="#DDB987"/>`,
    `<rect y="700" width="1600" height="200" fill="url(#planks)" opacity=".8"/>`,
    `<rect y="700" width="1600" height="10" fill="#C9A06C"/>`,
    lamp(1102), lamp(1562),
  ]
  const a = scene.cart('2025 Denago EV City', 1134, 806, 0.58, true)
  const b = scene.cart('2025 Evolution D5 Maverick 2+2', 790, 846, 0.62, true)
  parts.push(a.markup, b.markup)
  return scene.document(parts.join(''))
}

function cloud(x: number, y: number, s: number): string {
  return (
    `<g fill="#FFFFFF" opacity=".9" transform="translate(${x} ${y}) scale(${s})"><ellipse cx="0" cy="0" rx="96" ry="26"/>` +
    `<ellipse cx="-34" cy="-18" rx="44" ry="28"/><ellipse cx="30" cy="-24" rx="52" ry="34"/></g>`
  )
}

function gulls(): string {
  const gull = (x: number, y: number, s: number) =>
    `M${x - 14 * s} ${y}q${7 * s} ${-9 * s} ${14 * s} 0q${7 * s} ${-9 * s} ${14 * s} 0`
  return `<path d="${gull(1000, 300, 1)}${gull(1060, 270, 0.8)}${gull(1320, 120, 0.9)}" fill="none" stroke="#64748B" stroke-width="3" stroke-linecap="round"/>`
}

function ferrisWheel(cx: number, cy: number, r: number): string {
  const spokes: string[] = []
  const cars: string[] = []
  for (let i = 0; i < 12; i++) {
    const a = (i * Math.PI) / 6
    const x = cx + r * Math.cos(a)
    const y = cy + r * Math.sin(a)
    if (i < 6) spokes.push(`M${n(x)} ${n(y)}L${n(2 * cx - x)} ${n(2 * cy - y)}`)
    cars.push(`<rect x="${n(x - 9)}" y="${n(y)}" width="18" height="16" rx="4" fill="${i % 2 ? '#F4A6A6' : BRAND_YELLOW}"/>`)
  }
  return (
    `<g opacity=".75"><path d="M${cx - 70} 610L${cx} ${cy}L${cx + 70} 610" fill="none" stroke="#94A3B8" stroke-width="8"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="#94A3B8" stroke-width="6"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${r - 18}" fill="none" stroke="#B8C4D2" stroke-width="3"/>` +
    `<path d="${spokes.join('')}" stroke="#B8C4D2" stroke-width="3"/>${cars.join('')}` +
    `<circle cx="${cx}" cy="${cy}" r="10" fill="#94A3B8"/></g>`
  )
}

function umbrella(x: number, ground: number): string {
  return (
    `<path d="M${x} ${ground}L${x + 8} ${ground - 80}" stroke="#6B7280" stroke-width="4"/>` +
    `<path d="M${x - 60} ${ground - 70}Q${x + 4} ${ground - 130} ${x + 76} ${ground - 86}Z" fill="#F87171"/>` +
    `<path d="M${x - 20} ${ground - 76}Q${x + 4} ${ground - 118} ${x + 30} ${ground - 80}Z" fill="#FFFFFF"/>`
  )
}

function lamp(x: number): string {
  return (
    `<path d="M${x} 706V480" stroke="#2F3E46" stroke-width="9"/>` +
    `<rect x="${x - 14}" y="702" width="28" height="10" rx="3" fill="#2F3E46"/>` +
    `<path d="M${x - 20} 480h40l-8 -40h-24Z" fill="#FEF9C3" stroke="#2F3E46" stroke-width="5" stroke-linejoin="round"/>` +
    `<path d="M${x - 24} 440h48l-24 -18Z" fill="#2F3E46"/><circle cx="${x}" cy="416" r="5" fill="#2F3E46"/>`
  )
}
