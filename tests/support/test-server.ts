import type { Agent } from 'node:https'
import type { Express } from 'express'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Env, loadEnv } from '../../api/config/env.ts'
import { createApp } from '../../api/http/app.ts'
import { createLogger } from '../../api/log.ts'
import { createRuntime, type Runtime } from '../../api/runtime.ts'
import type { Deadlines } from '../../api/db/unavailable.ts'
import type { SignInPolicy } from '../../api/staff/sign-in.ts'
import { type Backend, createTestDatabase, type TestDatabase } from './test-database.ts'

export interface TestServer {
  url: string
  db: TestDatabase
  env: Env
  runtime: Runtime
  /** The Express app, for tests that list its routes. */
  app: Express
  /** Every log line the server wrote, parsed. */
  logs: Record<string, unknown>[]
  close(): Promise<void>
}

/**
 * The database deadlines of tests' servers. A test server shares two cores with two other test
 * files, a type check and Chromium: at that load CI has seen a read pass the production 1.5 s and
 * a browser test fail on the 503 (a lead not sent, an inventory page without its filters). No test
 * that uses these is about the deadlines; those that are (host/server/outage.test.ts,
 * api/trpc/database-guard.test.ts) build their servers with the production ones.
 */
export const testDeadlines: Deadlines = { read: 10_000, write: 20_000 }

/** The real app on a loopback port, over a fresh, migrated and seeded database. */
export async function startTestServer(
  backend: Backend,
  env: Record<string, string> = {},
  options: {
    widgetsDir?: string
    site?: boolean
    signInPolicy?: SignInPolicy
    trustedPhotoAddresses?: readonly string[]
    /** Trusts a local push service's certificate (tests/support/push-service.ts). */
    pushAgent?: Agent
    /** A port chosen beforehand (`freePort()`), for a SITE_URL that names it. */
    port?: number
    /** The database deadlines; `testDeadlines` unless a test of the deadlines names the real ones. */
    deadlines?: Deadlines
    /** The clock of texting hours and of what the outbox finds due (api/runtime.ts). */
    clock?: () => Date
  } = {},
): Promise<TestServer> {
  const db = await createTestDatabase(backend, 'seeded')
  // Tests send many leads from one address; the rate-limit tests set their own limit.
  const config = loadEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', LEAD_RATE_LIMIT: '1000', ...env })
  const logs: Record<string, unknown>[] = []
  const log = createLogger(config.logLevel, (line) => void logs.push(JSON.parse(line)))
  const mountSite = options.site ? (await import('../../host/server/site.ts')).mountSite : undefined
  const runtime = await createRuntime(db, config, log, {
    signInPolicy: options.signInPolicy,
    trustedPhotoAddresses: options.trustedPhotoAddresses,
    pushAgent: options.pushAgent,
    deadlines: options.deadlines ?? testDeadlines,
    clock: options.clock,
  })
  await runtime.listening
  const { app, listener } = await createApp({ db, env: config, log, services: runtime.services, widgetsDir: options.widgetsDir, mountSite })
  const server = createServer(listener).listen(options.port ?? 0, '127.0.0.1')
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', reject)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    db,
    env: config,
    runtime,
    app,
    logs,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await runtime.stop()
      await db.close()
    },
  }
}

/**
 * A loopback port free now, for a server whose SITE_URL must name its own address (passkeys
 * belong to SITE_URL's host and are accepted only from its origin).
 */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1')
  await new Promise<void>((resolve) => probe.once('listening', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}
