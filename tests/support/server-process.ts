import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Everything written so far to stdout and stderr. */
  output(): string
  /** Sends the signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/**
 * A real server entry point in a child process, with NODE_ENV unset as `npm start` leaves it:
 * the API alone (api/main.ts) unless told the site's (host/server/main.ts, which needs the build).
 * TypeScript entries run through tsx; a JavaScript one (`scripts/start.js`, what `npm start`
 * runs) with Node alone.
 */
export function runServer(
  env: Record<string, string>,
  entry = 'api/main.ts',
): { child: ChildProcess; output(): string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, entry.endsWith('.js') ? [entry] : ['--import', 'tsx', entry], {
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

export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000, entry?: string): Promise<ServerProcess> {
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
