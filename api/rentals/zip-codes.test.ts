import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { newJerseyZipCodes } from './nj-zip-codes.ts'
import { newJerseyZip } from './zip-codes.ts'

const zipcodes = createRequire(import.meta.url)('zipcodes') as typeof import('zipcodes')

describe('delivery ZIP codes (the table generated from the zipcodes package)', () => {
  it('finds every New Jersey code the package knows, at the package\'s coordinates, and no other', () => {
    const known = zipcodes.lookupByState('NJ')
    expect(known.length).toBeGreaterThan(500)
    expect(newJerseyZipCodes).toHaveLength(known.length)
    for (const place of known) {
      const answer = newJerseyZip(place.zip)
      expect(answer).toEqual({ found: true, place: { zip: place.zip, latitude: place.latitude, longitude: place.longitude, city: place.city, state: 'NJ' } })
    }
  })

  it('refuses a code in another state with a sentence naming the state, and one that does not exist', () => {
    expect(newJerseyZip('10001')).toEqual({
      found: false,
      refusal: 'We deliver rentals only within New Jersey, and 10001 is in New York. Choose pickup at a showroom, or call us to talk it over.',
    })
    expect(newJerseyZip('19103')).toMatchObject({ refusal: expect.stringContaining('is in Pennsylvania') as string })
    expect(newJerseyZip('00000')).toEqual({ found: false, refusal: "00000 is not a ZIP code we know. Check the delivery address's ZIP code." })
  })
})
