import { execFile } from 'node:child_process'
import { existsSync, renameSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import postgres from 'postgres'
import { lockDataDir } from './data-dir-lock.ts'
import { readDeadlineMs } from './unavailable.ts'

export type Sql = postgres.Sql
export type TransactionSql = postgres.TransactionSql
export type ReservedSql = postgres.ReservedSql

export interface Database {
  sql: Sql
  /** What the server is talking to, for the start-up message and health checks. */
  description: string
  embedded: boolean
  /** The folder the embedded database keeps its files in; undefined in memory and on PostgreSQL. */
  dataDir?: string
  /**
   * Calls `onNotify` with each payload sent to `channel` (PostgreSQL NOTIFY, by any process on
   * this database), and `onListen` once listening, again after every reconnect: anything sent
   * while the connection was down is lost, so a listener must assume something changed.
   */
  listen(channel: string, onNotify: (payload: string) => void, onListen: () => void): Promise<void>
  /**
   * The embedded database only: a copy of its data folder, checkpointed, as a tar that
   * `loadDataDir` starts another from (the tests' templates, tests/support/database-templates.ts).
   */
  dumpDataDir?(): Promise<Blob>
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** A PostgreSQL server. Without it, an embedded PGlite database is started. */
  databaseUrl?: string
  /** Where the embedded database keeps its files; `null` keeps it in memory (tests). */
  dataDir: string | null
  /**
   * Tests: an in-memory embedded database starts as a copy of this data folder (a tar made by
   * PGlite's `dumpDataDir`) instead of running initdb, which costs seconds each time
   * (tests/support/database-templates.ts).
   */
  loadDataDir?: Blob
}

/**
 * Shared by both kinds: camelCase columns, quiet notices, and a bound on connecting as short as
 * the read deadline (api/db/unavailable.ts), with a short pause between failed connects, so a
 * database that is down or silent turns into a prompt 503, not a hanging request.
 */
const clientOptions = {
  transform: postgres.camel,
  onnotice: () => {},
  connect_timeout: readDeadlineMs / 1000,
  // After failed connects the driver waits longer and longer before the next (up to 20 s, shared
  // by the pool), and queries queue behind that wait: a database that refuses would answer
  // requests only at their deadline. A short, capped pause keeps a refusal a prompt 503.
  backoff: (retries: number) => Math.min(retries, 5) * 0.05,
} satisfies postgres.Options<Record<string, never>>

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const sql = postgres(options.databaseUrl, { ...clientOptions, max: 10 })
    const { host, database } = sql.options
    return {
      sql,
      description: `PostgreSQL at ${host.join(',')}/${database}`,
      embedded: false,
      // One more connection, the driver's own, kept open and re-listened after a reconnect.
      listen: async (channel, onNotify, onListen) => void (await sql.listen(channel, onNotify, onListen)),
      close: () => sql.end({ timeout: 5 }),
    }
  }
  return openEmbedded(options.dataDir, options.loadDataDir)
}

/**
 * PostgreSQL's default 128 MB of shared buffers is sized for a server of its own; inside our
 * process it made PGlite's WebAssembly memory grow to 188 MB and the server's resident memory
 * 120 MB larger. A dealer's inventory (10,000 carts are about 5 MB of table and indexes) fits in
 * 16 MB many times over, and the operating system caches the files below it
 * (docs/decisions/0013-lean-start.md, docs/BENCHMARKS.md "Memory").
 */
const embeddedSettings = ['-c', 'shared_buffers=16MB']

/**
 * PGlite runs in this process and is reached through a loopback socket, so every query goes
 * through the same driver as in production. PGlite serves one connection at a time: the pool
 * must not be larger than the socket server's `maxConnections`, or postgres.js waits forever
 * for a connection the server never accepts.
 *
 * So there is no second connection to LISTEN on. PGlite is one backend session, whichever socket
 * connection it serves: a LISTEN sent through the pool's one connection stays in force, and the
 * notice arrives on that connection with the answer to the commit that sent it, where the
 * driver's `onnotify` hands it over. (PGlite's own `listen` does not see notices sent through
 * the socket server.) Only this process can open the data folder, so nobody else writes.
 */
async function openEmbedded(dataDir: string | null, loadDataDir?: Blob): Promise<Database> {
  const lock = dataDir === null ? undefined : lockDataDir(dataDir)
  try {
    // The extensions the migrations create (PostgreSQL servers have them in contrib).
    const options = { extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, ...embeddedSettings] }
    let pglite: PGlite
    if (dataDir === null) {
      pglite = await PGlite.create({ ...options, loadDataDir })
    } else {
      const folder = join(resolve(dataDir), 'pgdata')
      await createDatabaseFolder(folder)
      pglite = await PGlite.create({ dataDir: folder, ...options })
    }
    lock?.tighten()
    const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 1 })
    await server.start()
    const listeners = new Map<string, ((payload: string) => void)[]>()
    const sql = postgres(`postgres://postgres@${server.getServerConn()}/postgres`, {
      ...clientOptions,
      max: 1,
      // Not in the driver's types, but passed to every connection it opens (postgres 3.4).
      onnotify: (channel: string, payload: string) => listeners.get(channel)?.forEach((listener) => listener(payload)),
    } as typeof clientOptions)
    return {
      sql,
      description: dataDir === null ? 'embedded PGlite in memory' : `embedded PGlite in ${resolve(dataDir)}`,
      embedded: true,
      dataDir: dataDir === null ? undefined : resolve(dataDir),
      async listen(channel, onNotify, onListen) {
        await sql`listen ${sql(channel)}`
        listeners.set(channel, [...(listeners.get(channel) ?? []), onNotify])
        onListen()
      },
      async dumpDataDir() {
        await sql`checkpoint`
        return pglite.dumpDataDir('none')
      },
      async close() {
        await sql.end({ timeout: 5 })
        await server.stop()
        await pglite.close()
        lock?.tighten()
        lock?.release()
      },
    }
  } catch (error) {
    lock?.release()
    throw error
  }
}

/**
 * A new database folder is made (PostgreSQL's initdb) in a child process: in this one, initdb's
 * own WebAssembly instance took the server to 830 MB at its first start and left it 140 MB
 * larger for good (docs/BENCHMARKS.md "Memory"). It is made under another name and renamed
 * when complete, so a start stopped half-way leaves no folder that looks like a database. A
 * folder that exists without PG_VERSION is left to PGlite, as before.
 */
async function createDatabaseFolder(folder: string): Promise<void> {
  if (existsSync(folder)) return
  const creating = `${folder}.creating`
  rmSync(creating, { recursive: true, force: true })
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  const script = `require(${JSON.stringify(pglite)}).PGlite.create(${JSON.stringify(creating)}).then((db) => db.close())`
  try {
    await promisify(execFile)(process.execPath, ['-e', script], { maxBuffer: 1 << 20 })
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim()
    throw new Error(`The embedded database could not be created in ${folder}${stderr ? `: ${stderr.split('\n')[0]}` : ''}`, {
      cause: error,
    })
  }
  renameSync(creating, folder)
}
