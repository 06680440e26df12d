import { describe, expect, it } from 'vitest'
import { manufacturerPages } from './catalogue.ts'
import { dealershipSourceFor, modelForTitle } from './dealership-sources.ts'

describe('dealership source lookup', () => {
  it('knows 37 models across the Evolution and Denago lines the product names', () => {
    const models = Object.keys(manufacturerPages)
    expect(models).toHaveLength(37)
    for (const line of [
      'Evolution Carrier',
      'Evolution Classic',
      'Evolution D3',
      'Evolution D5 Maverick',
      'Evolution D5 Ranger',
      'Evolution D6 Max',
      'Evolution Forester',
      'Evolution Turfman',
      'Denago EV City',
      'Denago EV Nomad',
      'Denago EV Nomad XL',
      'Denago EV Rover XL',
      'Denago EV Rover XL6',
      'Denago EV Rover XXL',
    ]) {
      expect(models.some((m) => m.startsWith(line)), line).toBe(true)
    }
  })

  it('links only to https manufacturer pages', () => {
    for (const url of Object.values(manufacturerPages)) {
      expect(url).toMatch(/^https:\/\/(evolutionevs\.com|www\.denagoev\.com)\//)
    }
  })

  it.each([
    ['2025 Evolution D6 Max GT4', 'Evolution D6 Max GT4'],
    ['2025 Evolution D5 Ranger 2+2 Plus', 'Evolution D5 Ranger 2+2 Plus'],
    ['2025 Evolution D5 Ranger 2+2', 'Evolution D5 Ranger 2+2'],
    ['2025 Denago EV Rover XL6', 'Denago EV Rover XL6'],
    ['2025 Denago EV Rover XL', 'Denago EV Rover XL'],
    ['Denago EV Nomad XL Lifted', 'Denago EV Nomad XL'],
    ['evolution classic 4 plus - champagne', 'Evolution Classic 4 Plus'],
  ])('finds the model in %j', (title, model) => {
    expect(modelForTitle(title)?.model).toBe(model)
  })

  it.each(['Club Car Onward', 'Evolution Carrier', 'Denago EV Rover XL66', 'Evolution D6 Max GT44'])(
    'gives no source for the unknown %j',
    (title) => {
      expect(dealershipSourceFor(title)).toBeUndefined()
    },
  )
})
