/**
 * Colours for the drawn artwork: the brand pair, a palette of real golf cart body colours and
 * small helpers to shade them. Everything here is pure and deterministic.
 */
import type { BodyColour as BodyColourName } from '../../domain/catalogue.ts'

export const BRAND_YELLOW = '#FACC15'
export const INK = '#111827'

export interface BodyColour {
  name: BodyColourName
  hex: string
}

/** Factory colours seen on Evolution and Denago carts. */
export const BODY_COLOURS: readonly BodyColour[] = [
  { name: 'white', hex: '#F5F6F7' },
  { name: 'black', hex: '#23262B' },
  { name: 'silver', hex: '#B9C0C8' },
  { name: 'red', hex: '#C62D2D' },
  { name: 'blue', hex: '#1F5DA8' },
  { name: 'green', hex: '#2E6B47' },
  { name: 'champagne', hex: '#D9C29A' },
  { name: 'grey', hex: '#6B7280' },
  { name: 'navy', hex: '#1E3557' },
  { name: 'sky', hex: '#5AA7D6' },
  { name: 'orange', hex: '#E2702B' },
  { name: 'burgundy', hex: '#7A1F2B' },
]

function channels(hex: string): [number, number, number] {
  const v = parseInt(hex.slice(1), 16)
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255]
}

function toHex([r, g, b]: [number, number, number]): string {
  const c = (x: number) => Math.round(Math.max(0, Math.min(255, x))).toString(16).padStart(2, '0')
  return `#${c(r)}${c(g)}${c(b)}`.toUpperCase()
}

/** Mixes `hex` towards `other` by `amount` (0 keeps hex, 1 gives other). */
export function mix(hex: string, other: string, amount: number): string {
  const a = channels(hex)
  const b = channels(other)
  return toHex([0, 1, 2].map((i) => a[i]! + (b[i]! - a[i]!) * amount) as [number, number, number])
}

export const shade = (hex: string, amount: number) => mix(hex, '#000000', amount)
export const tint = (hex: string, amount: number) => mix(hex, '#FFFFFF', amount)

/** WCAG relative luminance. */
export function luminance(hex: string): number {
  const lin = (c: number) => {
    const s = c / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }
  const [r, g, b] = channels(hex).map(lin) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

/** A stable small hash (FNV-1a) so the same title always gets the same colour. */
export function hash(text: string): number {
  let h = 0x811c9dc5
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0
  return h
}

/** Rounds to one decimal and drops a trailing ".0", keeping the SVG small. */
export function n(x: number): string {
  return String(Math.round(x * 10) / 10)
}
