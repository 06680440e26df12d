import { describe, expect, it } from 'vitest'
import { alternativeSlug, slugify, uniqueSlug } from './slug.ts'

describe('canonical slug', () => {
  it.each([
    ['2025 Evolution D6 Max GT4', '2025-evolution-d6-max-gt4'],
    ['2025 Evolution D5 Maverick 2+2', '2025-evolution-d5-maverick-2-2'],
    ['Denago EV Rover XL6', 'denago-ev-rover-xl6'],
    ['  --Classic 4 Plus!!  ', 'classic-4-plus'],
    ['Carrier 6 / Pro (Blue)', 'carrier-6-pro-blue'],
    ['Édition Spéciale', 'edition-speciale'],
    ['!!!', ''],
  ])('%j becomes %j', (title, slug) => {
    expect(slugify(title)).toBe(slug)
  })
})

describe('alternative slug reading', () => {
  it.each([
    ['2025 Evolution D5 Maverick 2+2', '2025-evolution-d5-maverick-22'],
    ['Carrier 6 / Pro (Blue)', 'carrier-6-pro-blue'],
    ['Forester 4 - Plus', 'forester-4-plus'],
    ['D5 Ranger 2+2 Plus', 'd5-ranger-22-plus'],
  ])('%j becomes %j', (title, slug) => {
    expect(alternativeSlug(title)).toBe(slug)
  })

  it('agrees with the canonical reading for ordinary titles', () => {
    for (const title of ['2025 Denago EV Nomad XL', 'Evolution Classic 2 Pro', 'Turfman 1000']) {
      expect(alternativeSlug(title)).toBe(slugify(title))
    }
  })

  it('differs from it when punctuation sits between words', () => {
    expect(alternativeSlug('D5 Maverick 2+2')).not.toBe(slugify('D5 Maverick 2+2'))
  })
})

describe('slug collisions', () => {
  it('keeps a free slug as it is', () => {
    expect(uniqueSlug('classic-4-plus', () => false)).toBe('classic-4-plus')
  })

  it('adds -2, then -3, for titles that share a slug', () => {
    const taken = new Set(['classic-4-plus'])
    const second = uniqueSlug('classic-4-plus', (s) => taken.has(s))
    taken.add(second)
    const third = uniqueSlug('classic-4-plus', (s) => taken.has(s))
    expect([second, third]).toEqual(['classic-4-plus-2', 'classic-4-plus-3'])
  })
})
