/**
 * `npm start`: plain JavaScript run by Node alone. It builds the browser code and the server
 * when they are missing or out of date (the first start on a fresh clone), in a child process
 * so the build tools leave with it, then runs the built server (`dist/server/main.js`) in this
 * process: no TypeScript loader and no Vite stay in the process that serves
 * (docs/decisions/0013-lean-start.md).
 *
 * `npm start` runs it with two V8 flags (package.json), which only the command line can set:
 * `--max-semi-space-size=2` keeps V8's young generation at 2 MB a half instead of growing to
 * 16 MB under load and never giving it back (30 MB of an idle server, at no cost in CPU per
 * request), and `--liftoff-only` compiles the embedded database's WebAssembly with V8's baseline
 * compiler only: the optimizing one left 50-60 MB behind for good, for queries about a fifth
 * faster. The build's child process gets neither.
 */
import { buildIfStaleInChild } from './build/builds.js'

// As api/production-mode.ts, before anything loads React: NODE_ENV unset means production.
process.env.NODE_ENV ??= 'production'

if (!buildIfStaleInChild('the server', 'inherit')) process.exit(1)

// By URL, so the type checker does not read the built file as a source.
await import(new URL('../dist/server/main.js', import.meta.url).href)
