// Plain JavaScript, so `npm start` (scripts/start.js) can check the build with Node alone.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = fileURLToPath(new URL('../../', import.meta.url))

/**
 * @typedef {object} Build
 * @property {string} name
 * @property {string} config its Vite config
 * @property {string} [ssr] the server entry, for a server-side build
 * @property {string} output the file that proves it ran
 * @property {string[]} sources what it is built from
 */

/**
 * The dealer's commands (`npm run staff`, …): each `scripts/<name>.ts`, built beside the server
 * as `dist/server/<name>.js` and run by `scripts/command.js`.
 */
export const commands = /** @type {const} */ (['staff', 'inventory', 'leads', 'backup', 'restore'])

/**
 * Each build `npm start` needs, in the order they are made.
 * @type {readonly Build[]}
 */
export const builds = [
  {
    name: 'widgets',
    config: 'vite.widgets.config.ts',
    output: 'dist/widgets/gc-widgets.js',
    sources: ['widgets', 'domain', 'scripts/build', 'vite.widgets.config.ts', 'package-lock.json'],
  },
  {
    name: 'site',
    config: 'vite.config.ts',
    output: 'dist/host/client/.vite/manifest.json',
    sources: ['host', 'widgets', 'domain', 'scripts/build', 'vite.config.ts', 'package-lock.json'],
  },
  {
    name: 'site renderer',
    config: 'vite.config.ts',
    ssr: 'host/entry-server.tsx',
    output: 'dist/host/server/entry-server.js',
    sources: ['host', 'widgets', 'domain', 'api', 'scripts/build', 'vite.config.ts', 'package-lock.json'],
  },
  {
    name: 'server',
    config: 'vite.server.config.ts',
    output: 'dist/server/main.js',
    sources: ['host/server', 'api', 'domain', 'scripts/build', ...commands.map((name) => `scripts/${name}.ts`), 'vite.server.config.ts', 'package-lock.json'],
  },
]

/**
 * The newest modification time in a file or folder. Each source is walked once per process,
 * though several builds name it (host, api, domain, ...): `npm start` checks all four builds at
 * every start.
 * @type {Map<string, number>}
 */
const walked = new Map()

/**
 * @param {string} path
 * @returns {number}
 */
function newestMtime(path) {
  const known = walked.get(path)
  if (known !== undefined) return known
  const stat = statSync(path)
  const newest = stat.isDirectory()
    ? readdirSync(path).reduce((latest, entry) => Math.max(latest, newestMtime(join(path, entry))), stat.mtimeMs)
    : stat.mtimeMs
  walked.set(path, newest)
  return newest
}

/**
 * Missing, or older than any of its sources.
 * @param {Build} build
 */
export function isStale(build) {
  const output = resolve(root, build.output)
  if (!existsSync(output)) return true
  const built = statSync(output).mtimeMs
  return build.sources.some((source) => existsSync(resolve(root, source)) && newestMtime(resolve(root, source)) > built)
}

/**
 * Builds what is missing or out of date, in a child process so the build tools leave with it
 * (`npm start` and the commands, before they import the built code). `output`: where the build's
 * lines go (a command's standard output may be data, so its build writes to stderr). Returns
 * false when the build failed, having said so after what the build printed.
 * @param {string} what the command the build is for, for the failure's sentence
 * @param {'inherit' | 2} output
 * @returns {boolean}
 */
export function buildIfStaleInChild(what, output) {
  if (!builds.some(isStale)) return true
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build/build.ts', '--if-stale'], { cwd: root, stdio: ['ignore', output, output] })
  if (build.status === 0) return true
  console.error(`The build failed (see above); ${what} did not run.`)
  return false
}
