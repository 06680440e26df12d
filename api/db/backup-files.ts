import { createReadStream, createWriteStream } from 'node:fs'
import { readdir, rename, rm, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'
import type { Readable } from 'node:stream'
import { describeError, type Logger } from '../log.ts'
import { type BackupHeader, type BackupSummary, checkBackup, writeBackup } from './backup.ts'
import type { Database } from './database.ts'

/** `backup-2026-11-26T15-30-00Z.jsonl.gz`: sorts by time, and the daily backups are only these. */
export function backupFileName(at = new Date()): string {
  return `backup-${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z.jsonl.gz`
}
const dailyName = /^backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.jsonl\.gz$/

/**
 * Writes `source` (a gzip'd backup: the server's answer, or one made here) to `file` by way of
 * `file.partial`, reads it back whole, and only then gives it its name: a file with the name is
 * always a complete backup.
 */
export async function saveBackup(source: Readable, file: string): Promise<{ header: BackupHeader; summary: BackupSummary; bytes: number }> {
  const partial = `${file}.partial`
  try {
    await pipeline(source, createWriteStream(partial, { mode: 0o600 }))
    const checked = await checkBackup(createReadStream(partial).pipe(createGunzip()))
    await rename(partial, file)
    return { ...checked, bytes: (await stat(file)).size }
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
}

/** A backup of the database straight from its connection, as a gzip stream. */
export function backupStream(db: Pick<Database, 'sql' | 'embedded'>): Readable {
  const gzip = createGzip({ level: 6 })
  writeBackup(db.sql, gzip, db.embedded ? 'embedded' : 'postgresql').catch((error: unknown) => gzip.destroy(error as Error))
  return gzip
}

export interface DailyBackups {
  /** Writes a backup if the newest in the folder is a day old (or there is none); its path, if written. */
  check(): Promise<string | undefined>
  /** Stops checking; waits for a backup being written. */
  stop(): Promise<void>
}

/**
 * BACKUP_DIR (PRODUCT.md, "backups"): a backup a day, the newest BACKUP_KEEP kept. The server
 * looks a minute after it starts and then every hour, and writes one when the newest is 24 hours
 * old, so restarts neither skip a day nor add backups.
 */
export function startDailyBackups(options: {
  db: Pick<Database, 'sql' | 'embedded'>
  dir: string
  keep: number
  log: Logger
  firstCheckMs?: number
  everyMs?: number
  maxAgeMs?: number
}): DailyBackups {
  const { db, keep, log, firstCheckMs = 60_000, everyMs = 3_600_000, maxAgeMs = 24 * 3_600_000 } = options
  const dir = resolve(options.dir)
  let running: Promise<string | undefined> | undefined
  let timer: NodeJS.Timeout | undefined
  let stopped = false

  async function work(): Promise<string | undefined> {
    const names = (await readdir(dir)).filter((name) => dailyName.test(name)).sort()
    const newest = names.at(-1)
    // A minute's slack: the hourly check that comes just short of the day still writes.
    if (newest && Date.now() - (await stat(join(dir, newest))).mtimeMs < maxAgeMs - 60_000) return undefined
    const file = join(dir, backupFileName())
    const started = performance.now()
    const { summary, bytes } = await saveBackup(backupStream(db), file)
    const rows = Object.values(summary.counts).reduce((a, b) => a + b, 0)
    log.info('backup written', { file, bytes, rows, ms: Math.round(performance.now() - started) })
    const all = (await readdir(dir)).filter((name) => dailyName.test(name)).sort()
    for (const old of all.slice(0, Math.max(0, all.length - keep))) {
      await rm(join(dir, old), { force: true })
      log.info('old backup removed', { file: join(dir, old), keep })
    }
    return file
  }

  function check(): Promise<string | undefined> {
    running ??= work()
      .catch((error: unknown) => {
        log.error('the daily backup failed', { dir, error: describeError(error) })
        return undefined
      })
      .finally(() => (running = undefined))
    return running
  }

  const schedule = (ms: number) => {
    if (stopped) return
    timer = setTimeout(() => void check().then(() => schedule(everyMs)), ms)
    timer.unref()
  }
  schedule(firstCheckMs)
  return {
    check,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

