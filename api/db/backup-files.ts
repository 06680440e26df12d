import { randomBytes } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { readdir, rename, rm, stat, statfs } from 'node:fs/promises'
import { hostname } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'
import type { Readable } from 'node:stream'
import { describeError, type Logger } from '../log.ts'
import { BackupError, type BackupHeader, type BackupSummary, checkBackup, writeBackup } from './backup.ts'
import type { Database, Sql } from './database.ts'

/**
 * `backup-2026-11-26T15-30-00Z-3f9a1c.jsonl.gz`: sorts by time, and the daily backups are only
 * these. The random part makes every name unique, whoever writes it and however often.
 */
export function backupFileName(at = new Date()): string {
  return `backup-${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z-${randomBytes(3).toString('hex')}.jsonl.gz`
}
/** With the random part, or without it (the names of backups written before it). */
const dailyName = /^backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ(-[0-9a-f]{6})?\.jsonl\.gz$/

/**
 * About how many bytes a backup of the database takes: its tables' size on disk, which the gzip'd
 * rows rarely exceed (photos, already compressed, come out about as large as they are). A
 * backup needs this much free space, with a fifth more to spare, before it starts.
 */
export async function backupEstimate(sql: Sql): Promise<number> {
  const [row] = await sql<[{ bytes: string }]>`
    select coalesce(sum(pg_table_size(c.oid)), 0)::text as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')
  `
  return Number(row.bytes)
}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`

/**
 * Refuses, with a sentence, a backup the disk of `file` has no room for: the estimate and a fifth
 * more, or the largest backup already in the folder, if that is larger (a backup grows).
 */
export async function checkRoomFor(file: string, estimateBytes: number): Promise<void> {
  const dir = dirname(resolve(file))
  const [space, largest] = await Promise.all([
    statfs(dir).catch((error: NodeJS.ErrnoException) => {
      throw new BackupError(error.code === 'ENOENT' ? `The folder ${dir} does not exist: nothing was written.` : `The folder ${dir} cannot be used: ${error.message}`)
    }),
    readdir(dir)
      .then((names) => Promise.all(names.filter((name) => dailyName.test(name)).map((name) => stat(join(dir, name)).then((s) => s.size, () => 0))))
      .then((sizes) => Math.max(0, ...sizes), () => 0),
  ])
  const free = space.bavail * space.bsize
  const needed = Math.ceil(Math.max(estimateBytes * 1.2, largest))
  if (free < needed) {
    throw new BackupError(
      `Not enough free space for the backup in ${dir}: ${megabytes(free)} free, and it needs about ${megabytes(needed)}. ` +
        'Nothing was written, and the site goes on as before. Free some space, or write the backup to another disk.',
    )
  }
}

/** A write that failed for the disk's sake, said as a sentence; anything else as it is. */
function diskFailure(error: unknown, file: string): unknown {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG') {
    const why = code === 'EFBIG' ? 'the file grew larger than this user may write' : 'the disk is full'
    return new BackupError(
      `The backup to ${file} was not written: ${why}. What was written of it is removed, and the site goes on as before. ` +
        'Free some space, or write the backup to another disk.',
    )
  }
  return error
}

/**
 * Writes `source` (a gzip'd backup: the server's answer, or one made here) to `file` by way of a
 * temporary file beside it (`.NAME.<random>.partial`), reads it back whole, and only then gives it
 * its name: a file with the name is always a complete backup. `source` is opened only once the
 * disk has room for `estimateBytes` (`checkRoomFor`). Whatever fails, the temporary file is
 * removed and `source` destroyed, which ends the backup's transaction on the database.
 */
export async function saveBackup(
  open: () => Readable | Promise<Readable>,
  file: string,
  estimateBytes: number,
): Promise<{ header: BackupHeader; summary: BackupSummary; bytes: number }> {
  await checkRoomFor(file, estimateBytes)
  const partial = join(dirname(file), `.${basename(file)}.${randomBytes(4).toString('hex')}.partial`)
  let source: Readable | undefined
  try {
    source = await open()
    await pipeline(source, createWriteStream(partial, { mode: 0o600, flags: 'wx' }))
    const reading = createReadStream(partial)
    const gunzip = createGunzip()
    reading.on('error', (error) => gunzip.destroy(error))
    const checked = await checkBackup(reading.pipe(gunzip))
    await rename(partial, file)
    return { ...checked, bytes: (await stat(file)).size }
  } catch (error) {
    source?.destroy()
    await rm(partial, { force: true })
    throw diskFailure(error, file)
  }
}

/** A backup of the database straight from its connection, as a gzip stream. */
export function backupStream(db: Pick<Database, 'sql' | 'embedded'>): Readable {
  const gzip = createGzip({ level: 6 })
  writeBackup(db.sql, gzip, db.embedded ? 'embedded' : 'postgresql').catch((error: unknown) => gzip.destroy(error as Error))
  return gzip
}

export interface DailyBackups {
  /** Writes a backup if the day's is due and this process claims it; its path, if written. */
  check(): Promise<string | undefined>
  /** Stops checking; ends a backup being written (nothing is left of it) and waits for that. */
  stop(): Promise<void>
}

/** How long a claim on the day's backup holds without being renewed (a process that died). */
const claimLeaseMs = 15 * 60_000

/**
 * BACKUP_DIR (PRODUCT.md, "backups"): a backup a day, the newest BACKUP_KEEP kept. The server
 * looks `firstCheckMs` after it starts (a minute) and then every hour, and writes one when the
 * last is 24 hours old, so restarts neither skip a day nor add backups.
 *
 * Several processes on one database may all have BACKUP_DIR: the day's backup is claimed in
 * the database (`daily_backup`, one row) by one of them, which renews the claim while it writes
 * and records when it wrote; the others see the claim or the record and write nothing. A claim
 * whose process died runs out after 15 minutes, and a failed backup gives it up at once, so the
 * next look (this process's or another's) tries again.
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
  const me = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
  // A minute's slack: the hourly check that comes just short of the day still writes.
  const dueAfterMs = maxAgeMs - 60_000
  let running: Promise<string | undefined> | undefined
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  // The backup being written, which a stop ends: the server does not wait for it to finish.
  let source: Readable | undefined

  async function claim(): Promise<boolean> {
    const rows = await db.sql`
      update daily_backup set claimed_by = ${me}, claimed_until = now() + ${claimLeaseMs} * interval '1 millisecond'
      where (claimed_until is null or claimed_until < now() or claimed_by = ${me})
        and (written_at is null or written_at < now() - ${dueAfterMs} * interval '1 millisecond')
      returning 1
    `
    return rows.length > 0
  }

  async function work(): Promise<string | undefined> {
    const names = (await readdir(dir)).filter((name) => dailyName.test(name)).sort()
    const newest = names.at(-1)
    if (newest && Date.now() - (await stat(join(dir, newest))).mtimeMs < dueAfterMs) {
      log.debug('daily backup not due', { dir, why: `${newest} is less than a day old` })
      return undefined
    }
    if (!(await claim())) {
      log.debug('daily backup not due', { dir, why: 'written or being written by another process (daily_backup)' })
      return undefined
    }
    const renew = setInterval(() => {
      db.sql`update daily_backup set claimed_until = now() + ${claimLeaseMs} * interval '1 millisecond' where claimed_by = ${me}`.catch(() => {})
    }, claimLeaseMs / 3)
    renew.unref()
    const file = join(dir, backupFileName())
    const started = performance.now()
    try {
      const { summary, bytes } = await saveBackup(() => (source = backupStream(db)), file, await backupEstimate(db.sql))
      await db.sql`update daily_backup set written_at = now(), file = ${file}, claimed_by = null, claimed_until = null where claimed_by = ${me}`
      const rows = Object.values(summary.counts).reduce((a, b) => a + b, 0)
      log.info('backup written', { file, bytes, rows, ms: Math.round(performance.now() - started) })
    } catch (error) {
      await db.sql`update daily_backup set claimed_by = null, claimed_until = null where claimed_by = ${me}`.catch(() => {})
      throw error
    } finally {
      clearInterval(renew)
      source = undefined
    }
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
        if (stopped) log.warn('the daily backup was given up: the server is stopping', { dir })
        else log.error('the daily backup failed', { dir, error: error instanceof BackupError ? error.message : describeError(error) })
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
      source?.destroy()
      await running
    },
  }
}
