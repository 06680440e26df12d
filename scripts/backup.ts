/**
 * `npm run backup [FILE]`: a consistent backup of everything (carts, photos, leads and their
 * delivery, accounts, the audit log) while the server runs (PRODUCT.md, "backups";
 * docs/decisions/0025-backups.md). PostgreSQL (DATABASE_URL) is read directly in one
 * repeatable-read transaction; the embedded database is written by the running server that holds
 * it, or read from the data folder when none is running. Restore with `npm run restore FILE`.
 */
import { existsSync } from 'node:fs'
import { Readable } from 'node:stream'
import { loadEnv } from '../api/config/env.ts'
import { BackupError, databaseIsEmpty } from '../api/db/backup.ts'
import { backupEstimate, backupFileName, backupStream, saveBackup } from '../api/db/backup-files.ts'
import { openDatabase } from '../api/db/database.ts'
import { runningServerAccess } from '../api/server.ts'
import { complain, say } from '../api/terminal.ts'

const args = process.argv.slice(2)
if (args[0] === '--help' || args[0] === 'help' || args.length > 1) {
  say(
    `npm run backup [FILE]    writes a backup (default ./${backupFileName().replace(/\d/g, 'N')})`,
    'npm run restore FILE     loads one into an empty data folder (DATA_DIR) or database (DATABASE_URL)',
  )
  process.exit(args.length > 1 ? 1 : 0)
}
const file = args[0] ?? backupFileName()

try {
  const started = performance.now()
  const { summary, bytes } = await backUp(file)
  const rows = (table: string) => summary.counts[table] ?? 0
  const total = Object.values(summary.counts).reduce((a, b) => a + b, 0)
  say(
    `Wrote ${file} (${(bytes / 1_048_576).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s): ` +
      `${rows('golf_carts')} carts, ${rows('cart_photos')} photos, ${rows('contact_inquiries')} leads, ${rows('users')} accounts, ` +
      `${rows('audit_log')} audit rows; ${total} rows in ${Object.keys(summary.counts).length} tables.`,
  )
} catch (error) {
  complain(error instanceof BackupError ? error.message : `The backup failed: ${(error as Error).message}`)
  process.exit(1)
}

async function backUp(file: string) {
  const env = loadEnv()
  const access = runningServerAccess(env)
  if (access) {
    const { url, token, pid } = access
    const headers = { authorization: `Bearer ${token}` }
    // A server that cannot answer this in 30 s (its database held up) is said so, not waited for.
    const estimate = await fetch(`${url}/internal/backup/estimate`, { headers, signal: AbortSignal.timeout(30_000) }).catch((error: unknown) => {
      // Nothing listens: the server that wrote the file is gone, and the folder is read below.
      // A server that is there but does not answer still holds the folder: say so, never open it.
      if (connectionRefused(error) && !(pid !== undefined && alive(pid))) return undefined
      throw new BackupError(
        `The running server${pid ? ` (process ${pid})` : ''} did not answer (${describeFetchError(error)}). ` +
          'Nothing was written. Look at its log (journalctl -u jersey-cart-co), and try again in a minute.',
      )
    })
    if (estimate) {
      if (!estimate.ok) throw new BackupError(`The running server answered ${estimate.status}: ${await estimate.text()}`)
      const { bytes } = (await estimate.json()) as { bytes: number }
      return saveBackup(
        async () => {
          const res = await fetch(`${url}/internal/backup`, { headers })
          if (!res.ok || !res.body) throw new BackupError(`The running server answered ${res.status}: ${await res.text()}`)
          return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream)
        },
        file,
        bytes,
      )
    }
  }
  if (!env.databaseUrl && !existsSync(`${env.dataDir}/pgdata`)) throw new BackupError(`There is no database in ${env.dataDir} (DATA_DIR) to back up.`)
  const db = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir })
  try {
    if ((await databaseIsEmpty(db.sql)).empty) throw new BackupError(`The database (${db.description}) is empty: there is nothing to back up.`)
    return await saveBackup(() => backupStream(db), file, await backupEstimate(db.sql))
  } finally {
    await db.close()
  }
}

function connectionRefused(error: unknown): boolean {
  return (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED'
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return cause?.code ?? cause?.message ?? (error as Error).message
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
