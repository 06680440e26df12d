import type { Coordinates } from '../../domain/rental-plans.ts'
import { newJerseyZipCodes, prefixStates } from './nj-zip-codes.ts'

/**
 * ZIP codes' coordinates and states: New Jersey's codes and each other prefix's state, a 45 kB
 * table generated from the `zipcodes` package's census ZIP code centroids (decision 0024;
 * scripts/data/nj-zip-codes.ts). The package's own 5 MB table is read only by that script and
 * by the test that checks the two agree.
 */
export interface ZipPlace extends Coordinates {
  zip: string
  city: string
  state: 'NJ'
}

let newJersey: Map<string, ZipPlace> | undefined

function newJerseyPlaces(): Map<string, ZipPlace> {
  return (newJersey ??= new Map(
    newJerseyZipCodes.map(([zip, latitude, longitude, city]) => [zip, { zip, latitude, longitude, city, state: 'NJ' as const }]),
  ))
}

export type ZipAnswer = { found: true; place: ZipPlace } | { found: false; refusal: string }

/**
 * A delivery ZIP code: its place in New Jersey, or a sentence saying why the dealer cannot
 * deliver there (another state, or a code that does not exist).
 */
export function newJerseyZip(zip: string): ZipAnswer {
  const place = newJerseyPlaces().get(zip)
  if (place) return { found: true, place }
  const state = prefixStates[zip.slice(0, 3)]
  if (state) {
    return {
      found: false,
      refusal: `We deliver rentals only within New Jersey, and ${zip} is in ${state}. Choose pickup at a showroom, or call us to talk it over.`,
    }
  }
  return { found: false, refusal: `${zip} is not a ZIP code we know. Check the delivery address's ZIP code.` }
}
