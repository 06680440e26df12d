/**
 * How a cart's title becomes drawing options. The starting inventory (domain/starting-inventory.csv)
 * names each cart's colour; any other title still gets a stable colour from its hash.
 */
import { startingInventory } from '../../api/carts/starting-inventory.ts'
import { type BodyColour, bodyColourNamed } from '../../domain/catalogue.ts'
import { specificationsFor } from '../../domain/specifications.ts'
import { BODY_COLOURS, hash } from './color.ts'
import type { CartOptions } from './cart-layout.ts'

const catalogueColours = new Map<string, BodyColour | undefined>(
  startingInventory().map(({ record }) => [record.title, bodyColourNamed(record.color)]),
)

export function bodyColourFor(title: string): string {
  const name = catalogueColours.get(title)
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
