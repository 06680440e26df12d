import { randomBytes } from 'node:crypto'
import { rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import express from 'express'
import type { Env } from '../config/env.ts'
import { readMigrations } from '../db/migrate.ts'
import { readDeadlineMs, withDeadline } from '../db/unavailable.ts'
import type { WriteRefusals } from '../db/write-refusals.ts'
import { describeError, type Logger } from '../log.ts'
import { sendError } from './errors.ts'

/**
 * The two questions a balancer, systemd or a person asks (PRODUCT.md, "health"):
 *
 * - `GET /healthz`: is the process alive and answering? Always 200 while it is, whatever the
 *   database does: a balancer that dropped every process during a database blip served its own
 *   bare 503 instead of the site's kept pages and outage answers.
 * - `GET /readyz`: can it do everything? The database answers, every migration this code knows
 *   is applied, the folders it writes to take a file, no write was refused lately for a full
 *   disk, and it is not stopping. 503 `{ message, issues }` says which is not, one issue each.
 */
export interface Health {
  routes: express.Router
  /** From SIGTERM on, `/readyz` says the server is stopping. */
  stopping(): void
}

/** How long a refused write keeps `/readyz` saying why. */
const refusalMemoryMs = 60_000

export interface HealthDependencies {
  /** The versions the database records as applied (api/db/migrate.ts, `appliedVersions`). */
  appliedMigrations: () => Promise<string[]>
  /** The embedded database's folder, if it has one. */
  dataDir?: string
  env: Env
  log: Logger
  writeRefusals: WriteRefusals
}

export async function createHealth({ appliedMigrations, dataDir, env, log, writeRefusals }: HealthDependencies): Promise<Health> {
  const known = (await readMigrations()).map((m) => m.version)
  // Paths go to the log, not into the answer: anyone can ask /readyz.
  const folders = [
    ...(dataDir ? [{ key: 'dataFolder', name: 'data folder', dir: dataDir }] : []),
    ...(env.backups.dir ? [{ key: 'backupFolder', name: 'backup folder (BACKUP_DIR)', dir: resolve(env.backups.dir) }] : []),
  ]
  let stopping = false
  const routes = express.Router()

  routes.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store')
    res.json({ status: 'ok' })
  })

  routes.get('/readyz', async (_req, res) => {
    res.set('Cache-Control', 'no-store')
    const checks: Record<string, string> = {}
    const issues: { path: string; message: string }[] = []
    if (stopping) issues.push({ path: 'server', message: 'The server is stopping: it finishes what it has received and takes nothing new.' })

    try {
      const applied = new Set(await withDeadline(appliedMigrations(), readDeadlineMs))
      checks.database = 'answers'
      const pending = known.filter((version) => !applied.has(version))
      if (pending.length > 0) issues.push({ path: 'migrations', message: `${pending.length} not applied yet: ${pending.join(', ')}` })
      else checks.migrations = `all ${known.length} applied`
    } catch (error) {
      log.warn('not ready: the database is not answering', { error: describeError(error) })
      issues.push({ path: 'database', message: 'The database is not answering.' })
    }
    const refused = writeRefusals.latest(refusalMemoryMs)
    if (refused) {
      const ago = Math.max(1, Math.round((Date.now() - refused.at.getTime()) / 1000))
      const why = refused.kind === 'disk full' ? 'its disk is full' : 'it is read-only'
      issues.push({ path: 'database', message: `The database refused a write ${ago} s ago: ${why}. Leads are answered "not sent, call us" until it accepts writes again.` })
    }

    for (const { key, name, dir } of folders) {
      const problem = await writeProblem(dir)
      if (problem) {
        log.warn(`not ready: the ${name} ${problem}`, { dir })
        issues.push({ path: key, message: `The ${name} ${problem}` })
      } else checks[key] = 'writable'
    }
    if (folders.length === 0) checks.dataFolder = 'none: PostgreSQL keeps the data'

    if (issues.length === 0) return res.json({ status: 'ready', checks })
    res.set('Retry-After', '5')
    sendError(res, 503, `Not ready: ${issues.map((i) => i.message).join(' ')}`, issues)
  })

  return { routes, stopping: () => void (stopping = true) }
}

/** Writes and removes a small file; undefined when that worked, else what went wrong. */
async function writeProblem(dir: string): Promise<string | undefined> {
  const file = join(dir, `.readyz-${process.pid}-${randomBytes(4).toString('hex')}`)
  try {
    await withDeadline(writeFile(file, 'Written by /readyz to check that this folder takes files; removed at once.\n', { mode: 0o600 }), readDeadlineMs)
    return undefined
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOSPC' || code === 'EDQUOT') return 'is full: no space is left on its disk.'
    if (code === 'EROFS') return 'is on a read-only file system.'
    if (code === 'EACCES' || code === 'EPERM') return 'is not writable by this server (permission denied).'
    if (code === 'ENOENT') return 'does not exist.'
    return `could not take a file (${code ?? 'unknown error'}).`
  } finally {
    await rm(file, { force: true }).catch(() => {})
  }
}
