/**
 * `npm start`: plain JavaScript run by Node alone. It builds the browser code and the server
 * when they are missing or out of date (the first start on a fresh clone), in a child process
 * so the build tools leave with it, then runs the built server (`dist/server/main.js`) in this
 * process: no TypeScript loader and no Vite stay in the process that serves
 * (docs/decisions/0013-lean-start.md).
 */
import { spawnSync } from 'node:child_process'
import { builds, isStale, root } from './build/builds.js'

// As api/production-mode.ts, before anything loads React: NODE_ENV unset means production.
process.env.NODE_ENV ??= 'production'

if (builds.some(isStale)) {
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build/build.ts', '--if-stale'], { cwd: root, stdio: 'inherit' })
  if (build.status !== 0) {
    console.error('The build failed (see above); the server was not started.')
    process.exit(1)
  }
}

// By URL, so the type checker does not read the built file as a source.
await import(new URL('../dist/server/main.js', import.meta.url).href)
