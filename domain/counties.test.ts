import { describe, expect, it } from 'vitest'
import { counties, countyByValue, countyValues } from './counties.ts'

const storyTowns: Record<string, [string, string]> = {
  atlantic: ['Atlantic City', 'Hammonton'],
  bergen: ['Hackensack', 'Paramus'],
  burlington: ['Mount Laurel', 'Pemberton'],
  camden: ['Cherry Hill', 'Voorhees'],
  'cape-may': ['Cape May Point', 'Wildwood'],
  cumberland: ['Bridgeton', 'Vineland'],
  essex: ['Newark', 'Montclair'],
  gloucester: ['Glassboro', 'Woodbury'],
  hudson: ['Jersey City', 'Hoboken'],
  hunterdon: ['Flemington', 'Lambertville'],
  mercer: ['Trenton', 'Princeton'],
  middlesex: ['New Brunswick', 'Edison'],
  monmouth: ['Freehold', 'Asbury Park'],
  morris: ['Morristown', 'Parsippany'],
  ocean: ['Toms River', 'Lakewood'],
  passaic: ['Paterson', 'Clifton'],
  salem: ['Salem', 'Pennsville'],
  somerset: ['Somerville', 'Bridgewater'],
  sussex: ['Newton', 'Vernon'],
  union: ['Elizabeth', 'Westfield'],
  warren: ['Phillipsburg', 'Hackettstown'],
}

describe('the 21 counties', () => {
  it('are the 21 county values, in order, each once', () => {
    expect(counties.map((c) => c.value)).toEqual([...countyValues])
    expect(countyValues).toHaveLength(21)
    expect(countyValues).toEqual(Object.keys(storyTowns))
  })

  it('have display names, with Cape May spelled with a space', () => {
    expect(countyByValue('cape-may')?.name).toBe('Cape May')
    expect(countyByValue('atlantic')?.name).toBe('Atlantic')
    for (const county of counties) {
      expect(county.name).not.toMatch(/county/i)
      expect(county.name.toLowerCase().replace(/ /g, '-')).toBe(county.value)
    }
  })

  it('name the story towns the product gives', () => {
    for (const county of counties) expect(county.storyTowns).toEqual(storyTowns[county.value])
  })

  it.each([
    ['salem', ['Pennsville', 'Carneys Point', 'Salem', 'Elmer', 'Woodstown', 'Pittsgrove Township']],
    ['somerset', ['Franklin Township', 'Bridgewater', 'Piscataway', 'New Brunswick', 'North Brunswick', 'South Brunswick']],
    ['sussex', ['Vernon Township', 'Sparta', 'Frankford Township', 'Hardyston Township', 'Hopatcong', 'Newton']],
    ['union', ['Elizabeth', 'Woodbridge', 'Union', 'Plainfield', 'Linden', 'Rahway', 'Westfield']],
    ['warren', ['Washington Township', 'Phillipsburg', 'Lopatcong Township', 'Pohatcong Township', 'White Township', 'Belvidere']],
  ])('keep the dealer\'s rental towns for %s exactly', (value, towns) => {
    expect(countyByValue(value)?.rentalTowns).toEqual(towns)
  })

  it('list six or seven rental towns for every county', () => {
    for (const county of counties) {
      expect(county.rentalTowns.length, county.value).toBeGreaterThanOrEqual(6)
      expect(county.rentalTowns.length, county.value).toBeLessThanOrEqual(7)
      expect(new Set(county.rentalTowns).size).toBe(county.rentalTowns.length)
    }
  })

  it('find nothing for an unknown value', () => {
    expect(countyByValue('manhattan')).toBeUndefined()
  })
})
