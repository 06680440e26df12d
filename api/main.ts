import type { Server } from 'node:http'
import { ConfigError, loadEnv } from './config/env.ts'
import { DataDirLockedError } from './db/data-dir-lock.ts'
import { type Database, openDatabase } from './db/database.ts'
import { migrate } from './db/migrate.ts'
import { seed } from './db/seed.ts'
import { createApp } from './http/app.ts'
import { createLogger, describeError } from './log.ts'

async function main() {
  const env = loadEnv()
  const log = createLogger(env.logLevel)
  let db: Database | undefined
  let server: Server | undefined

  // Registered before anything starts, so a signal during start-up still closes the database.
  let stopping = false
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    log.info('server stopping', { signal })
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()))
    await db?.close()
    process.exit(0)
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))

  const started = performance.now()
  db = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir })
  const applied = await migrate(db.sql)
  const seeded = await seed(db.sql)
  const app = createApp({ db, env, log })
  server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(env.port, env.host, () => resolve(s))
    s.once('error', reject)
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : env.port
  log.info('server started', {
    url: `http://localhost:${port}`,
    database: db.description,
    migrationsApplied: applied.length,
    cartsSeeded: seeded,
    startupMs: Math.round(performance.now() - started),
  })
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message)
  } else {
    console.error(`The server could not start: ${describeError(error)}`)
  }
  process.exit(1)
})
