import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { Coordinates } from '../../domain/rental-plans.ts'

/**
 * ZIP codes' coordinates and states, from the `zipcodes` package (census ZIP code centroids;
 * decision 0024). Its table of 42,000 codes is one 5 MB line of JavaScript: requiring it blocks
 * the server for 0.4-2 s and keeps 30 MB. So the table is read once, when a delivery is first
 * priced, by a worker thread that keeps only what a delivery needs and hands it back: New
 * Jersey's codes with their coordinates, and each other three-digit ZIP prefix's state (to say
 * where a refused code is). Visitors are served meanwhile; about 100 kB stays.
 */
export interface ZipPlace extends Coordinates {
  zip: string
  city: string
  state: 'NJ'
}

interface ZipTable {
  newJersey: Map<string, ZipPlace>
  /** The state of each three-digit prefix outside New Jersey, by name: "100" is "New York". */
  prefixStates: Map<string, string>
}

/**
 * The worker, as source text (no file of its own to find beside a bundle): it reads the
 * package's table and extracts each code's fields with one pattern, which is four times faster
 * than JSON.parse of the whole line. `api/rentals/zip-codes.test.ts` checks it finds every code
 * the package itself knows.
 */
const workerSource = `
const { readFileSync } = require('node:fs')
const { parentPort, workerData } = require('node:worker_threads')
const text = readFileSync(workerData.codesFile, 'utf8')
const entry = /"(\\d{5})":\\{"zip":"\\d{5}","latitude":(-?[\\d.]+),"longitude":(-?[\\d.]+),"city":"((?:[^"\\\\]|\\\\.)*)","state":"([A-Z]{2})","country":"US"\\}/g
const newJersey = []
const prefixes = {}
let match
while ((match = entry.exec(text))) {
  const [, zip, latitude, longitude, city, state] = match
  if (state === 'NJ') newJersey.push([zip, Number(latitude), Number(longitude), city])
  else prefixes[zip.slice(0, 3)] ??= state
}
parentPort.postMessage({ newJersey, prefixes })
`

let table: Promise<ZipTable> | undefined

function load(): Promise<ZipTable> {
  const require = createRequire(import.meta.url)
  const codesFile = require.resolve('zipcodes/lib/codes.js')
  const { abbr } = require('zipcodes/lib/states.js') as { abbr: Record<string, string> }
  return new Promise<ZipTable>((resolve, reject) => {
    const worker = new Worker(workerSource, { eval: true, workerData: { codesFile } })
    worker.once('message', (found: { newJersey: [string, number, number, string][]; prefixes: Record<string, string> }) => {
      const newJersey = new Map(
        found.newJersey.map(([zip, latitude, longitude, city]) => [zip, { zip, latitude, longitude, city, state: 'NJ' as const }]),
      )
      const prefixStates = new Map(Object.entries(found.prefixes).map(([prefix, state]) => [prefix, stateName(abbr[state] ?? state)]))
      resolve({ newJersey, prefixStates })
      void worker.terminate()
    })
    worker.once('error', reject)
  }).catch((error: unknown) => {
    // The next delivery tries again rather than failing forever.
    table = undefined
    throw error
  })
}

/** "NEW YORK" as a sentence writes it: "New York", "District of Columbia". */
function stateName(upper: string): string {
  return upper
    .toLowerCase()
    .replace(/\b[a-z]/g, (c) => c.toUpperCase())
    .replace(/ Of /g, ' of ')
}

export type ZipAnswer = { found: true; place: ZipPlace } | { found: false; refusal: string }

/**
 * A delivery ZIP code: its place in New Jersey, or a sentence saying why the dealer cannot
 * deliver there (another state, or a code that does not exist).
 */
export async function newJerseyZip(zip: string): Promise<ZipAnswer> {
  const { newJersey, prefixStates } = await (table ??= load())
  const place = newJersey.get(zip)
  if (place) return { found: true, place }
  const state = prefixStates.get(zip.slice(0, 3))
  if (state) {
    return {
      found: false,
      refusal: `We deliver rentals only within New Jersey, and ${zip} is in ${state}. Choose pickup at a showroom, or call us to talk it over.`,
    }
  }
  return { found: false, refusal: `${zip} is not a ZIP code we know. Check the delivery address's ZIP code.` }
}
