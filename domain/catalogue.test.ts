import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { drawnImageUrl, startingInventory } from './catalogue.ts'
import { dealershipSourceFor } from './dealership-sources.ts'
import { alternativeSlug, slugify } from './slug.ts'

const publicDir = fileURLToPath(new URL('../host/public', import.meta.url))

describe('the starting inventory', () => {
  it('has at least 24 carts, 6 of them featured, each with a real description and price', () => {
    expect(startingInventory.length).toBeGreaterThanOrEqual(24)
    expect(startingInventory.filter((c) => c.featured).length).toBeGreaterThanOrEqual(6)
    for (const cart of startingInventory) {
      expect(cart.description.length, cart.title).toBeGreaterThan(80)
      expect(cart.description.length, cart.title).toBeLessThanOrEqual(400)
      expect(cart.price).toBeGreaterThan(5000)
      expect(cart.price).toBeLessThan(30000)
    }
  })

  it('gives every cart a local drawn image and a social PNG', () => {
    for (const { title } of startingInventory) {
      const svg = `${publicDir}${drawnImageUrl(title)}`
      expect(existsSync(svg), svg).toBe(true)
      expect(existsSync(svg.replace(/\.svg$/, '.png')), title).toBe(true)
    }
  })

  it('links every cart to its manufacturer page', () => {
    for (const { title } of startingInventory) expect(dealershipSourceFor(title), title).toBeDefined()
  })

  it('includes titles whose two slug readings differ', () => {
    const differing = startingInventory.filter(({ title }) => slugify(title) !== alternativeSlug(title))
    expect(differing.map((c) => c.title)).toContain('2025 Evolution D5 Maverick 2+2')
  })

  it('has no two titles with one slug', () => {
    const slugs = startingInventory.map(({ title }) => slugify(title))
    expect(new Set(slugs).size).toBe(slugs.length)
  })

  it('paints neighbours in the list in different colours', () => {
    const same = startingInventory.slice(1).filter((cart, i) => cart.colour === startingInventory[i]!.colour)
    expect(same.map((c) => c.title)).toEqual([])
  })
})
