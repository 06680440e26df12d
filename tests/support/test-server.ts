import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Env, loadEnv } from '../../api/config/env.ts'
import { migrate } from '../../api/db/migrate.ts'
import { seed } from '../../api/carts/seed.ts'
import { createApp } from '../../api/http/app.ts'
import { createLogger } from '../../api/log.ts'
import { createRuntime, type Runtime } from '../../api/runtime.ts'
import type { SignInPolicy } from '../../api/staff/sign-in.ts'
import { type Backend, createTestDatabase, type TestDatabase } from './test-database.ts'

export interface TestServer {
  url: string
  db: TestDatabase
  env: Env
  runtime: Runtime
  /** Every log line the server wrote, parsed. */
  logs: Record<string, unknown>[]
  close(): Promise<void>
}

/** The real app on a loopback port, over a fresh, migrated and seeded database. */
export async function startTestServer(
  backend: Backend,
  env: Record<string, string> = {},
  options: { widgetsDir?: string; site?: boolean; signInPolicy?: SignInPolicy; trustedPhotoAddresses?: readonly string[] } = {},
): Promise<TestServer> {
  const db = await createTestDatabase(backend)
  await migrate(db.sql)
  await seed(db.sql)
  // Tests send many leads from one address; the rate-limit tests set their own limit.
  const config = loadEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', LEAD_RATE_LIMIT: '1000', ...env })
  const logs: Record<string, unknown>[] = []
  const log = createLogger(config.logLevel, (line) => void logs.push(JSON.parse(line)))
  const mountSite = options.site ? (await import('../../host/server/site.ts')).mountSite : undefined
  const runtime = createRuntime(db, config, log, { signInPolicy: options.signInPolicy, trustedPhotoAddresses: options.trustedPhotoAddresses })
  await runtime.listening
  const { listener } = await createApp({ db, env: config, log, services: runtime.services, widgetsDir: options.widgetsDir, mountSite })
  const server = createServer(listener).listen(0, '127.0.0.1')
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
    logs,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await runtime.stop()
      await db.close()
    },
  }
}
