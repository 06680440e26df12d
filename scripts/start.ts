/**
 * `npm start`: builds the browser code when it is missing or out of date (the first start on a
 * fresh clone), then runs the server.
 */
import '../api/production-mode.ts'
import { buildIfStale } from './build/build-if-stale.ts'

const started = performance.now()
const built = await buildIfStale()
if (built.length > 0) {
  console.log(`Built ${built.join(' and ')} in ${Math.round(performance.now() - started)} ms`)
}
await import('../host/server/main.ts')
