/**
 * `npm test`: the lint, the type check, vitest's tests and Playwright Test's browser specs
 * (tests/browser/*.spec.ts, playwright.config.ts), at the same time rather than one after the
 * other (docs/ARCHITECTURE.md, "Tests"). Vitest's output streams as it comes; the lint's, the
 * type check's and Playwright's are held and printed whole when each ends, so they never interleave.
 * Playwright runs alongside vitest, not after it: its workers, like vitest's `long` project, spend
 * most of their time waiting on a server, a database and Chromium, and run after vitest they would
 * add their whole wall time to the run's (to be measured on an idle machine: see the report of
 * issue #49, item 1; on a machine loaded by other runs, neither order could be timed fairly).
 * The lint and the type check run at a lower CPU priority: they take a fraction of vitest's time,
 * and the tests that start servers and time their answers keep the CPU they ask for.
 *
 * The exit code is the first failure's, or 0 when all four pass. Arguments go to vitest, so
 * `npm test -- --project api` runs one project (with the lint, the type check and the browser
 * specs); to run one file alone, `npx vitest run path/to/file.test.ts` or
 * `npx playwright test tests/browser/file.spec.ts`.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus, setPriority } from 'node:os'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
/** @param {string} name */
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url))

/**
 * What `npm run <name>` runs, read from package.json so the lint and the type check here are the
 * very ones `npm run lint` and `npm run typecheck` are: `node …` runs on this Node, any other
 * command is a package's bin.
 * @param {string} name @returns {[string, string[]]}
 */
function npmScript(name) {
  const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  const [command = '', ...args] = String(scripts[name] ?? '').split(/\s+/)
  if (!command) throw new Error(`package.json has no script ${name}`)
  return [command === 'node' ? process.execPath : bin(command), args]
}
const started = Date.now()
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`

/**
 * A command whose output is held until it ends; `nice`: its CPU priority; `more`: arguments after `args`.
 * @param {string} name @param {string} command @param {string[]} args @param {number} nice @param {string[]} [more]
 * @returns {Promise<number>}
 */
function held(name, command, args, nice, more = []) {
  return new Promise((resolve) => {
    const child = spawn(command, [...args, ...more], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    try {
      if (child.pid !== undefined) setPriority(child.pid, nice)
    } catch {
      // Not allowed here (a container without the right): it runs at the usual priority.
    }
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.once('exit', (code, signal) => {
      const status = code ?? (signal ? 1 : 0)
      process.stdout.write(`\n--- ${name}: ${status === 0 ? 'passed' : `FAILED (exit ${status})`} after ${seconds()}\n${output}`)
      resolve(status)
    })
  })
}

/** @param {string} command @param {string[]} args @returns {Promise<number>} */
function streamed(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' })
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

/**
 * The machine's CPU time so far, busy and all, in seconds, summed over its cores (`os.cpus()`).
 * Read at the start and the end of a run, it says how much of what the cores held was busy: a
 * run that keeps them all busy is bound by CPU, and only less work makes it shorter. (The
 * children's own times undercount, as a process whose parent has gone is counted by no one;
 * about a third of a run went uncounted when tried.)
 */
function machineCpu() {
  let [busy, all] = [0, 0]
  for (const { times } of cpus()) {
    busy += times.user + times.nice + times.sys + times.irq
    all += times.user + times.nice + times.sys + times.irq + times.idle
  }
  return { busy: busy / 1000, all: all / 1000 }
}
const cpuAtStart = machineCpu()
const cpuUsed = () => {
  const end = machineCpu()
  return `; the machine's ${cpus().length} cores were busy ${Math.round(end.busy - cpuAtStart.busy)} of ${Math.round(end.all - cpuAtStart.all)} CPU-s`
}

// The build, once and first when out of date (`npm run build -- --if-stale`): vitest's and
// Playwright's global set-ups each build what is stale, and two builds writing dist/ at once
// fail each other. Both then find it up to date.
const built = await held('build (if stale)', ...npmScript('build'), 0, ['--if-stale'])
if (built !== 0) process.exit(built)

const results = await Promise.all([
  held('lint (npm run lint)', ...npmScript('lint'), 10),
  // TypeScript 7, the compiler written in Go, on one thread (docs/decisions/0035-native-type-check.md).
  held('type check (npm run typecheck, TypeScript 7)', ...npmScript('typecheck'), 10),
  // Its summary (`N passed`) is the last lines of its held output; vitest prints its own counts.
  held('browser specs (npx playwright test)', bin('playwright'), ['test'], 0),
  streamed(bin('vitest'), ['run', ...process.argv.slice(2)]),
])
const failed = results.find((code) => code !== 0)
process.stdout.write(`\n--- npm test: ${failed === undefined ? 'lint, type check, tests and browser specs passed' : 'FAILED'} in ${seconds()}${cpuUsed()}\n`)
process.exit(failed ?? 0)
