import { describe, expect, it } from 'vitest'
import { bodyColourNamed, bodyColourNames, drawnImageUrl } from './catalogue.ts'
import { dealershipSourceFor } from './dealership-sources.ts'

describe('the catalogue', () => {
  it('names each drawn body colour, and finds the drawing a colour name asks for', () => {
    for (const [colour, name] of Object.entries(bodyColourNames)) expect(bodyColourNamed(name.toUpperCase())).toBe(colour)
    expect(bodyColourNamed('Portimao Blue')).toBeUndefined()
    expect(bodyColourNamed(null)).toBeUndefined()
  })

  it('names a drawn picture after its title', () => {
    expect(drawnImageUrl('2025 Evolution D5 Maverick 2+2')).toBe('/images/carts/2025-evolution-d5-maverick-2-2.svg')
  })

  it('knows the manufacturer page of every Evolution and Denago line', () => {
    expect(dealershipSourceFor('2025 Evolution D6 Max GT4 in Sky Blue')).toBeDefined()
    expect(dealershipSourceFor('2025 Denago EV Rover XXL')).toBeDefined()
  })
})
