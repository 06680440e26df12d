import { describe, expect, it } from 'vitest'
import { business, formatHours, inWords, listInWords, mapsSearchUrl, openDays, showrooms, statewideServiceArea } from './business.ts'

describe('business facts', () => {
  it('has the toll-free number and four showrooms plus the statewide entry', () => {
    expect(business.tollFree).toEqual({ display: '(888) 555-0100', tel: '+18885550100' })
    expect(business.locations.map((l) => [l.name, l.phone.display])).toEqual([
      ['Ocean View', '(609) 555-0111'],
      ['Bayville', '(732) 555-0122'],
      ['Waretown', '(609) 555-0133'],
      ['Pleasantville', '(609) 555-0144'],
      ['New Jersey', '(888) 555-0100'],
    ])
  })

  it('prints the hours as the product states them', () => {
    expect(business.hours.map(formatHours)).toEqual([
      'Mon-Fri: 9AM-5PM',
      'Sat: 9AM-5PM',
      'Sun: Closed',
    ])
  })

  it('builds a maps search from the address', () => {
    const oceanView = business.locations[0]!
    expect(mapsSearchUrl(oceanView)).toBe(
      'https://www.google.com/maps/search/?api=1&query=Jersey%20Cart%20Co.%20101%20NJ-50%2C%20Ocean%20View%2C%20NJ%2008230',
    )
  })

  it('counts as showrooms only the locations with a street address', () => {
    expect(showrooms.map((s) => s.name)).toEqual(['Ocean View', 'Bayville', 'Waretown', 'Pleasantville'])
  })

  it('says the statewide entry serves as many counties as the claims name', () => {
    expect(statewideServiceArea).toBe(`Serving all ${business.claims.countiesServed} New Jersey counties`)
  })

  it('writes the days the showrooms open as a span of days', () => {
    expect(openDays()).toBe('Monday to Saturday')
  })
})

describe('numbers and lists in sentences', () => {
  it('writes counts up to ten in words and larger ones in digits', () => {
    expect([1, 4, 10, 11].map(inWords)).toEqual(['one', 'four', 'ten', '11'])
  })

  it('joins a list with commas and a final conjunction', () => {
    expect(listInWords(['Ocean View'])).toBe('Ocean View')
    expect(listInWords(['Bayville', 'Waretown'], 'or')).toBe('Bayville or Waretown')
    expect(listInWords(['Ocean View', 'Bayville', 'Waretown'])).toBe('Ocean View, Bayville and Waretown')
  })
})
