import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import postgres from 'postgres'
import { openDatabase } from '../../api/db/database.ts'
import { migrate } from '../../api/db/migrate.ts'
import { seed } from '../../api/carts/seed.ts'
import { npmStartArgs } from '../../tests/support/server-process.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

export interface Measurement {
  rps: number
  p50: number
  p99: number
  errors: number
}

export interface Load {
  connections: number
  seconds: number
}

/** autocannon on loopback, bounded in time; errors count timeouts and non-2xx answers. */
export async function measure(
  url: string,
  load: Load,
  request: { method?: 'GET' | 'POST'; body?: () => string; headers?: Record<string, string>; path?: () => string } = {},
): Promise<Measurement> {
  const result = await autocannon({
    url,
    connections: load.connections,
    duration: load.seconds,
    method: request.method ?? 'GET',
    headers: { ...(request.body ? { 'content-type': 'application/json' } : {}), ...request.headers },
    requests:
      request.body || request.path
        ? [
            {
              setupRequest: (req) => ({
                ...req,
                ...(request.body ? { body: request.body() } : {}),
                ...(request.path ? { path: request.path() } : {}),
              }),
            },
          ]
        : undefined,
  })
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}

/**
 * The middle of three runs, each figure on its own: one run on a shared 2-core machine can be
 * off by a third either way.
 */
export async function measureMedian(
  url: string,
  load: Load,
  request: Parameters<typeof measure>[2] = {},
  rounds = 3,
): Promise<Measurement> {
  const runs: Measurement[] = []
  for (let i = 0; i < rounds; i++) runs.push(await measure(url, load, request))
  return median(runs)
}

/** Each figure's middle value across runs; errors add up. */
export function median(runs: Measurement[]): Measurement {
  const middle = <K extends keyof Measurement>(key: K) => [...runs].sort((a, b) => a[key] - b[key])[Math.floor(runs.length / 2)]![key]
  return { rps: middle('rps'), p50: middle('p50'), p99: middle('p99'), errors: runs.reduce((sum, r) => sum + r.errors, 0) }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

export interface Child {
  url: string
  process: ChildProcess
  stop(): Promise<void>
}

/**
 * The production server (the whole site) in its own process, started as `npm start` starts it
 * (the built `scripts/start.js` with npm start's V8 flags, no TypeScript loader), logging as in
 * production. `nodeArgs` go to Node before them (the memory benchmark's probe).
 */
export async function startSiteProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<Child> {
  const port = await freePort()
  const child = spawn(process.execPath, [...nodeArgs, ...npmStartArgs()], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const url = `http://127.0.0.1:${port}`
  let output = ''
  child.stderr?.on('data', (c) => (output += c))
  // Request logs are read and dropped, so the pipe never fills and stalls the server.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A server that never said it started is not left running behind the benchmark.
      child.kill('SIGKILL')
      reject(new Error(`server did not start: ${output}`))
    }, 60_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('"msg":"server started"')) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)))
  })
  return { url, process: child, stop: () => stopChild(child) }
}

export async function startBareServer(responses: Record<string, { type: string; body: string }>): Promise<Child> {
  const file = join(mkdtempSync(join(tmpdir(), 'gc-bare-')), 'responses.json')
  writeFileSync(file, JSON.stringify(responses))
  const child = spawn(process.execPath, ['scripts/bench/bare-server.js', file], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve) =>
    child.stdout?.on('data', (c: Buffer) => {
      const m = c.toString().match(/listening (\d+)/)
      if (m) resolve(Number(m[1]))
    }),
  )
  return { url: `http://127.0.0.1:${port}`, process: child, stop: () => stopChild(child) }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
  })
}

/** Records what our server answers, so the bare server can answer the very same bytes. */
export async function record(base: string, paths: string[]): Promise<Record<string, { type: string; body: string }>> {
  const out: Record<string, { type: string; body: string }> = {}
  for (const path of paths) {
    const res = await fetch(`${base}${path}`)
    out[path] = { type: res.headers.get('content-type') ?? 'application/json', body: Buffer.from(await res.arrayBuffer()).toString('base64') }
  }
  return out
}

export interface BenchDatabase {
  /** Environment for the server process. */
  env: Record<string, string>
  description: string
  drop(): Promise<void>
}

/**
 * A fresh database for one measurement: an embedded one in a temporary folder, or a new
 * database on the PostgreSQL server at `adminUrl`. `carts` replaces the seed with that many
 * generated carts; without it the usual 28 are seeded.
 */
export async function benchDatabase(kind: 'embedded' | 'postgres', carts?: number, adminUrl?: string): Promise<BenchDatabase> {
  let env: Record<string, string>
  let drop = async () => {}
  let databaseUrl: string | undefined
  if (kind === 'postgres') {
    const name = `gc_bench_${process.pid}_${Math.floor(Math.random() * 1e6)}`
    const admin = postgres(adminUrl!, { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database ${name}`)
    const url = new URL(adminUrl!)
    url.pathname = `/${name}`
    databaseUrl = url.href
    env = { DATABASE_URL: databaseUrl }
    drop = async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`)
      await admin.end()
    }
  } else {
    env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'gc-bench-')) }
  }
  const db = await openDatabase({ databaseUrl, dataDir: env.DATA_DIR ?? null })
  try {
    await migrate(db.sql)
    if (carts === undefined) {
      await seed(db.sql)
    } else {
      await db.sql`insert into schema_migrations (version) values ('seed:inventory')`
      await db.sql`
        insert into golf_carts (slug, alternative_slug, title, description, price, image_url, category, featured)
        select 'bench-cart-' || i, 'bench-cart-' || i, 'Bench Cart ' || i,
               'A generated cart for measuring how the inventory scales with its size.',
               8000 + (i % 90) * 100, '/images/carts/2025-denago-ev-city.svg', 'new', i % 7 = 0
        from generate_series(1, ${carts}) as i
      `
    }
  } finally {
    await db.close()
  }
  return { env, description: kind === 'postgres' ? 'PostgreSQL 15 on loopback' : 'embedded PGlite', drop }
}
