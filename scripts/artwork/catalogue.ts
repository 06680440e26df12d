/**
 * The carts we draw and how a title becomes drawing options. Colours are chosen per model so
 * neighbours in the inventory list differ; an unknown title still gets a stable colour.
 */
import { specificationsFor } from '../../domain/specifications.ts'
import { BODY_COLOURS, hash } from './color.ts'
import type { CartOptions } from './cart-layout.ts'

export const CART_COLOURS: Readonly<Record<string, string>> = {
  '2025 Denago EV City': 'sky',
  '2025 Denago EV Nomad': 'champagne',
  '2025 Denago EV Nomad XL': 'green',
  '2025 Denago EV Rover XL': 'black',
  '2025 Denago EV Rover XL6': 'red',
  '2025 Denago EV Rover XXL': 'grey',
  '2025 Evolution D6 Max GT4': 'white',
  '2025 Evolution D6 Max GT6': 'blue',
  '2025 Evolution D6 Max XT4': 'orange',
  '2025 Evolution D6 Max XT6': 'silver',
  '2025 Evolution D5 Maverick 2+2': 'red',
  '2025 Evolution D5 Maverick 4': 'navy',
  '2025 Evolution D5 Maverick 4+2': 'white',
  '2025 Evolution D5 Maverick 6': 'champagne',
  '2025 Evolution D5 Ranger 2+2 Plus': 'green',
  '2025 Evolution D5 Ranger 4 Plus': 'black',
  '2025 Evolution D5 Ranger 6 Plus': 'grey',
  '2025 Evolution D3 2+2': 'sky',
  '2025 Evolution Classic 2 Plus': 'white',
  '2025 Evolution Classic 2 Pro': 'burgundy',
  '2025 Evolution Classic 4 Plus': 'blue',
  '2025 Evolution Classic 4 Pro': 'silver',
  '2025 Evolution Carrier 6 Plus': 'champagne',
  '2025 Evolution Carrier 8 Plus': 'white',
  '2025 Evolution Forester 4 Plus': 'green',
  '2025 Evolution Forester 6 Plus': 'navy',
  '2025 Evolution Turfman 800': 'green',
  '2025 Evolution Turfman 1000': 'red',
}

export const CART_TITLES: readonly string[] = Object.keys(CART_COLOURS)

export function bodyColourFor(title: string): string {
  const name = CART_COLOURS[title]
  const named = BODY_COLOURS.find((c) => c.name === name)
  return (named ?? BODY_COLOURS[hash(title) % BODY_COLOURS.length]!).hex
}

export function cartOptionsFor(title: string): CartOptions {
  const t = title.toLowerCase()
  const { brand, seats } = specificationsFor(title)
  const offRoad = /\bxt\d*\b|\branger\b|\bforester\b/.test(t) || (brand === 'Denago' && /rover|nomad/.test(t))
  return {
    title,
    seats: seats.max,
    rearFacing: t.includes('+2') || seats.min !== seats.max,
    lifted: offRoad,
    cargoBed: t.includes('turfman'),
    bodyColour: bodyColourFor(title),
    style: brand === 'Denago' ? 'denago' : /\bclassic\b/.test(t) ? 'classic' : 'modern',
  }
}
