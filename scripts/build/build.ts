/**
 * `npm run build` (everything) and the build `npm start` runs in a child process when the build
 * is missing or out of date (`--if-stale`), so Vite never stays in the serving process.
 */
import { buildIfStale } from './build-if-stale.ts'

const started = performance.now()
const built = await buildIfStale({ all: !process.argv.includes('--if-stale') })
if (built.length > 0) console.log(`Built ${built.join(', ')} in ${Math.round(performance.now() - started)} ms`)
