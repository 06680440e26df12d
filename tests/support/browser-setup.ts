import { buildIfStale } from '../../scripts/build/build-if-stale.ts'

/** Browser tests run the real, minified bundles: build them first when they are out of date. */
export default async function setup() {
  await buildIfStale()
}
