import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type RequestListener, type Server } from 'node:http'
import { join, resolve } from 'node:path'
import { seed } from './carts/seed.ts'
import { ConfigError, type Env, loadEnv } from './config/env.ts'
import { DataDirLockedError } from './db/data-dir-lock.ts'
import { type Database, openDatabase } from './db/database.ts'
import { migrate } from './db/migrate.ts'
import { readDeadlineMs, withDeadline } from './db/unavailable.ts'
import { waitForDatabase } from './db/wait-for-database.ts'
import { createApp, type MountSite } from './http/app.ts'
import { addressLimits, capConnectionsPerAddress } from './http/per-address.ts'
import { type GracefulStop, gracefulStop } from './http/graceful-stop.ts'
import type { Health } from './http/health.ts'
import { createLogger, describeError } from './log.ts'
import { createRuntime, type Runtime } from './runtime.ts'

export interface RunOptions {
  mountSite?: MountSite
}

/**
 * Starts the server: environment, database, migrations, seed, HTTP. Stops cleanly on SIGTERM
 * and SIGINT. A bad environment or a locked data folder ends the process with a clear message.
 */
export async function runServer(options: RunOptions = {}): Promise<void> {
  try {
    await start(options)
  } catch (error) {
    if (error instanceof StoppedWhileStarting) return
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      console.error(error.message)
    } else {
      console.error(`The server could not start: ${describeError(error)}`)
    }
    process.exit(1)
  }
}

/** A signal arrived before the server was up: `stop` below ends the process. */
class StoppedWhileStarting extends Error {}

async function start(options: RunOptions) {
  const env = loadEnv()
  const log = createLogger(env.logLevel)
  let db: Database | undefined
  let runtime: Runtime | undefined
  let draining: GracefulStop | undefined
  let health: Health | undefined

  // Registered before anything starts, so a signal during start-up still closes the database.
  // Stopping: refuse new connections, finish every request received (at most STOP_LIMIT_MS, 10 s), stop the
  // outbox worker after its current message, then close the database cleanly.
  const starting = new AbortController()
  const stop = async (signal: NodeJS.Signals) => {
    if (starting.signal.aborted) return
    starting.abort()
    log.info('server stopping', { signal })
    health?.stopping()
    const stopped = await draining?.stop(env.stopLimitMs)
    await runtime?.stop()
    await db?.close()
    log.info('server stopped', { signal, ...(stopped?.cut ? { connectionsCut: stopped.cut } : {}), ...(stopped?.answered ? { requestsAnswered503: stopped.answered } : {}) })
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
  // Whatever fails once a stop has begun (it closes the database under the start) is the stop's.
  const unlessStopping = (error: unknown) => {
    throw starting.signal.aborted ? new StoppedWhileStarting() : error
  }

  // Each step's milliseconds, in the start-up line: what to look at when starting gets slow.
  // `performance.now()` counts from the process's start, so `load` is Node plus our imports.
  const steps: Record<string, number> = { load: Math.round(performance.now()) }
  let lap = performance.now()
  const step = (name: string) => {
    steps[name] = Math.round(performance.now() - lap)
    lap = performance.now()
  }
  const started = performance.now()
  db = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir })
  // A PostgreSQL server may be starting, restarting or slow under load: wait for it (60 s).
  await waitForDatabase(db.sql, { log, signal: starting.signal }).catch(unlessStopping)
  step('database')
  const applied = await migrate(db.sql).catch(unlessStopping)
  step('migrations')
  const seeded = await seed(db.sql).catch(unlessStopping)
  step('seed')
  runtime = await createRuntime(db, env, log).catch(unlessStopping)
  // Before the first visitor: answers are kept only once changes made elsewhere are heard.
  await runtime.listening
  // With the embedded database, staff tools reach the data through this server (see staffAccessFile).
  const internalToken = db.embedded ? randomBytes(24).toString('base64url') : undefined
  const app = await createApp({ db, env, log, services: runtime.services, internalToken, mountSite: options.mountSite })
  health = app.health
  step('app')
  if (starting.signal.aborted) throw new StoppedWhileStarting()
  // Only now, with the database answering and migrated: a balancer sees the port open when the
  // process can serve.
  const server = createHttpServer(app.listener, httpLimits, env.trustProxy)
  draining = gracefulStop(server)
  await new Promise<void>((resolve, reject) => {
    server.listen(env.port, env.host, () => resolve())
    server.once('error', reject)
  })
  step('listen')
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : env.port
  if (internalToken) {
    const file = staffAccessFile(env.dataDir)
    writeFileSync(file, JSON.stringify({ url: `http://127.0.0.1:${port}`, token: internalToken, pid: process.pid }), { mode: 0o600 })
    process.once('exit', () => rmSync(file, { force: true }))
  }
  // Said once, at start, next to the start itself; a database that cannot answer it now is not
  // a reason to stop serving.
  const accounts = await withDeadline(runtime.services.staff.accounts.count(), readDeadlineMs).catch(() => undefined)
  if (accounts === 0) {
    log.warn(`No staff account exists yet. Create the first one with: npm run staff -- add <username> (then sign in at ${env.siteUrl}/staff)`)
  }
  log.info('server started', {
    url: `http://localhost:${port}`,
    mode: env.nodeEnv,
    database: db.description,
    migrationsApplied: applied.length,
    cartsSeeded: seeded,
    startupMs: Math.round(performance.now() - started),
    steps: Object.entries(steps)
      .map(([name, ms]) => `${name} ${ms} ms`)
      .join(', '),
  })
  // Once the server is up, not while it starts: the first sign-in then costs what every other does.
  setTimeout(() => runtime?.services.staff.accounts.prepare(), 2000).unref()
}

/**
 * How long and how many: slow clients cannot hold sockets for ever (issue #11). Headers must
 * arrive within 10 s and a whole request (its body at most `maxBodyBytes`, api/http/body-limit.ts) within 30 s, or the client
 * gets 408 and the socket is closed; Node checks every second, not every 30 s as by default. An
 * idle keep-alive socket closes after 5 s. Beyond 1,000 open connections new ones are dropped at
 * once, so a flood of idle sockets cannot use up the process's file descriptors; one address may
 * hold at most 256 of them, unless every connection comes through a proxy (api/http/per-address.ts).
 */
export const httpLimits = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  connectionsCheckingInterval: 1_000,
  keepAliveTimeout: 5_000,
  maxConnections: 1_000,
  connectionsPerAddress: addressLimits.connections,
}

export function createHttpServer(listener: RequestListener, limits = httpLimits, trustProxy = 0): Server {
  const { maxConnections, keepAliveTimeout, connectionsPerAddress, ...options } = limits
  const server = createServer(options, listener)
  server.keepAliveTimeout = keepAliveTimeout
  server.maxConnections = maxConnections
  if (trustProxy === 0) capConnectionsPerAddress(server, connectionsPerAddress)
  return server
}

/** Where a server on the embedded database tells staff tools how to reach it. */
export function staffAccessFile(dataDir: string): string {
  return join(resolve(dataDir), 'staff-access.json')
}

/** What a server on the embedded database wrote to `staffAccessFile`: its loopback address and token. */
export interface RunningServerAccess {
  url: string
  token: string
  pid?: number
}

/**
 * How a command reaches the running server that holds the embedded database (decision 0025), or
 * undefined when the database is PostgreSQL or no server has written its file: the command then
 * opens the database itself. The server that wrote the file may be gone; the caller finds out.
 */
export function runningServerAccess(env: Pick<Env, 'databaseUrl' | 'dataDir'>): RunningServerAccess | undefined {
  const file = staffAccessFile(env.dataDir)
  if (env.databaseUrl || !existsSync(file)) return undefined
  return JSON.parse(readFileSync(file, 'utf8')) as RunningServerAccess
}
