import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import type { commands } from '../../scripts/build/builds.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** A script of package.json, split into Node's arguments: what `npm run <name>` runs after `node`. */
function npmScriptArgs(name: string): string[] {
  const { scripts } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string | undefined> }
  const [node, ...args] = (scripts[name] ?? '').split(/\s+/)
  if (node !== 'node') throw new Error(`npm run ${name} is no longer node …: ${scripts[name]}`)
  return args
}

/**
 * What `npm start` runs after `node`: its V8 flags and `scripts/start.js`, read from
 * package.json, so the tests and the benchmarks start the very process visitors get
 * (docs/decisions/0013-lean-start.md).
 */
export function npmStartArgs(): string[] {
  const args = npmScriptArgs('start')
  if (args.at(-1) !== 'scripts/start.js') throw new Error(`npm start no longer runs scripts/start.js: ${args.join(' ')}`)
  return args
}

/**
 * What `npm run <command> -- …` runs after `node` (`scripts/command.js <command>` and the built
 * command, decision 0034), with the command's arguments: the tests run the very command the
 * dealer types.
 */
export function npmCommandArgs(command: (typeof commands)[number], args: readonly string[] = []): string[] {
  return [...npmScriptArgs(command), ...args]
}

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Everything written so far to stdout and stderr. */
  output(): string
  /** Sends the signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/**
 * A real server in a child process, with NODE_ENV unset as `npm start` leaves it. By default the
 * very process `npm start` runs: `scripts/start.js` and the built server (`dist/server/`), with
 * Node alone and its flags; the projects that spawn servers build first when the bundles are out
 * of date (tests/support/build-setup.ts). Another entry can be named: a TypeScript one
 * (api/main.ts, the API alone, or host/server/main.ts) runs through tsx, which costs about 1.3 s
 * more CPU a start for loading the sources.
 */
export function runServer(
  env: Record<string, string>,
  entry: string | string[] = 'scripts/start.js',
): { child: ChildProcess; output(): string; exited: Promise<number | null> } {
  // An array: Node's arguments as they are (a systemd unit's command line, tests/support/systemd.ts).
  const args = Array.isArray(entry) ? entry : entry === 'scripts/start.js' ? npmStartArgs() : entry.endsWith('.js') ? [entry] : ['--import', 'tsx', entry]
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', LEAD_RATE_LIMIT: '1000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

// A bound against a hang, not a speed check: a fresh data folder (initdb in WebAssembly, every
// migration, the seed) took over 60 s in a whole `npm test` at load 16.
export async function startServerProcess(env: Record<string, string>, timeoutMs = 120_000, entry?: string | string[]): Promise<ServerProcess> {
  const { child, output, exited } = runServer(env, entry)
  const url = await new Promise<string>((resolve, reject) => {
    // A server that did not start in time is stopped, not left running after the test.
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not start within ${timeoutMs} ms:\n${output()}`))
    }, timeoutMs)
    const check = () => {
      const started = output().match(/"msg":"server started","url":"([^"]+)"/)
      if (started?.[1]) {
        clearTimeout(timer)
        child.stdout?.off('data', check)
        resolve(started[1].replace('localhost', '127.0.0.1'))
      }
    }
    child.stdout?.on('data', check)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code} before starting:\n${output()}`))
    })
  })
  return {
    url,
    child,
    output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode
      child.kill(signal)
      return exited
    },
  }
}
