import { buildIfStale } from '../../scripts/build/build-if-stale.ts'

/** Site and browser tests run the real, minified bundles: build them first when out of date. */
export default async function setup() {
  await buildIfStale()
}
