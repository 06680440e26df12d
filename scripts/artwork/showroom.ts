/**
 * The dealership front (1200x800): a glass showroom under a yellow sign band carrying the
 * cart mark, bunting, feather flags and a row of carts on the lot. No lettering.
 */
import { BRAND_YELLOW, INK, n } from './color.ts'
import { logoMark } from './logo.ts'
import { Scene } from './scene.ts'

export function showroomSvg(): string {
  const scene = new Scene(1200, 800, 'The Jersey Cart Co. showroom with golf carts lined up outside')
  scene.define(
    'sky',
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#D6ECFA"/><stop offset="1" stop-color="#F7FBFE"/></linearGradient>`,
  )
  const parts: string[] = [
    `<rect width="1200" height="800" fill="url(#sky)"/>`,
    cloud(210, 110, 1), cloud(930, 80, 0.8), cloud(620, 150, 0.6),
    tree(86, 560, 92), tree(1114, 560, 92), tree(190, 540, 64), tree(1010, 540, 64),
    // Building, parapet, sign band with the mark.
    `<rect class="o" x="130" y="230" width="940" height="384" fill="#FBF8F1"/>`,
    `<rect x="118" y="204" width="964" height="32" rx="4" fill="${INK}"/>`,
    `<rect class="o" x="130" y="236" width="940" height="84" fill="${BRAND_YELLOW}"/>`,
    `<g transform="translate(547 219) scale(.26)">${logoMark()}</g>`,
    `<rect x="150" y="320" width="900" height="20" fill="${INK}"/>`,
    `<path d="M150 340H1050" stroke="${BRAND_YELLOW}" stroke-width="4"/>`,
    storefront(),
    bunting(150, 1050, 346, 392),
    // Sidewalk, curb and lot.
    `<rect y="612" width="1200" height="44" fill="#E5E7EB"/>`,
    `<rect y="654" width="1200" height="8" fill="#C4C9D0"/>`,
    `<rect y="662" width="1200" height="138" fill="#D9DDE2"/>`,
    `<path d="M0 786H1200" stroke="#F8FAFC" stroke-width="6" stroke-dasharray="60 40"/>`,
    shrub(150, 612), shrub(1050, 612), shrub(300, 612), shrub(900, 612),
    featherFlag(44, 752, 1), featherFlag(1156, 752, -1),
  ]
  const row = [
    '2025 Evolution D6 Max GT4',
    '2025 Evolution Classic 4 Plus',
    '2025 Evolution D5 Maverick 2+2',
    '2025 Denago EV Rover XL',
  ]
  let x = 96
  for (const title of row) {
    const cart = scene.cart(title, x, 752, 0.47)
    parts.push(cart.markup)
    x += cart.width + 26
  }
  return scene.document(parts.join(''))
}

function storefront(): string {
  const mullions = [170, 352, 530, 600, 670, 848, 1030]
  return (
    `<rect class="o" x="170" y="360" width="860" height="240" fill="#CFE7F5"/>` +
    `<path d="M170 540H1030" stroke="#B7D6EA" stroke-width="3"/>` +
    `<g fill="#FFFFFF" opacity=".45"><path d="M200 600L300 360H340L240 600Z"/><path d="M390 600L470 360H490L410 600Z"/>` +
    `<path d="M720 600L800 360H850L770 600Z"/><path d="M900 600L980 360H995L915 600Z"/></g>` +
    `<g fill="#FEF3C7">${[240, 420, 780, 960].map((x) => `<ellipse cx="${x}" cy="372" rx="26" ry="5"/>`).join('')}</g>` +
    `<path d="${mullions.map((x) => `M${x} 360V600`).join('')}M170 360H1030" stroke="${INK}" stroke-width="8"/>` +
    `<path d="M590 460V520M610 460V520" stroke="#9CA3AF" stroke-width="6" stroke-linecap="round"/>` +
    `<rect x="124" y="600" width="952" height="14" fill="#4B5563"/>`
  )
}

/** Pennants hanging from a sagging line between (x0, y) and (x1, y), lowest at `sag`. */
function bunting(x0: number, x1: number, y: number, sag: number): string {
  const colours = [BRAND_YELLOW, INK, '#FFFFFF']
  const mid = (x0 + x1) / 2
  const control = 2 * sag - y
  const flags: string[] = []
  const count = 24
  for (let i = 0; i < count; i++) {
    const t = (i + 0.5) / count
    const px = (1 - t) ** 2 * x0 + 2 * (1 - t) * t * mid + t * t * x1
    const py = (1 - t) ** 2 * y + 2 * (1 - t) * t * control + t * t * y
    flags.push(`<path d="M${n(px - 13)} ${n(py)}h26l-13 26Z" fill="${colours[i % 3]}"/>`)
  }
  return `<path d="M${x0} ${y}Q${mid} ${control} ${x1} ${y}" fill="none" stroke="${INK}" stroke-width="2"/>${flags.join('')}`
}

function cloud(x: number, y: number, s: number): string {
  return (
    `<g fill="#FFFFFF" transform="translate(${x} ${y}) scale(${s})"><ellipse cx="0" cy="0" rx="80" ry="26"/>` +
    `<ellipse cx="-30" cy="-18" rx="40" ry="26"/><ellipse cx="26" cy="-22" rx="46" ry="32"/></g>`
  )
}

function tree(x: number, ground: number, r: number): string {
  return (
    `<rect x="${x - 7}" y="${ground - r}" width="14" height="${r}" fill="#7C5B3B"/>` +
    `<circle cx="${x}" cy="${ground - r * 1.5}" r="${r}" fill="#6FAE72"/>` +
    `<circle cx="${x + r * 0.3}" cy="${ground - r * 1.8}" r="${r * 0.55}" fill="#86C086"/>`
  )
}

function shrub(x: number, ground: number): string {
  return `<ellipse cx="${x}" cy="${ground - 16}" rx="44" ry="24" fill="#4F9157"/><ellipse cx="${x - 12}" cy="${ground - 26}" rx="22" ry="14" fill="#67A86E"/>`
}

/** A feather flag on a pole at `x`; `side` 1 flies it to the right, -1 to the left. */
function featherFlag(x: number, ground: number, side: 1 | -1): string {
  return (
    `<g transform="translate(${x} ${ground}) scale(${side} 1)">` +
    `<path d="M0 0V-300" stroke="#6B7280" stroke-width="5"/>` +
    `<path class="o" d="M0 -296Q46 -300 44 -250L38 -100H0Z" fill="${BRAND_YELLOW}"/>` +
    `<path d="M6 -240Q30 -236 36 -200L32 -130" stroke="${INK}" stroke-width="7" fill="none"/>` +
    `<ellipse cx="0" cy="0" rx="16" ry="4" fill="${INK}" opacity=".2"/></g>`
  )
}
