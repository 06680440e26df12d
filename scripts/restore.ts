/**
 * `npm run restore FILE`: loads a backup made by `npm run backup` (or the daily one in
 * BACKUP_DIR) into an empty database: DATABASE_URL's, or a new embedded one in DATA_DIR. A
 * database or data folder that holds anything is refused, so a restore never overwrites.
 * Start the server on it afterwards; it applies any newer migrations as after an upgrade.
 */
import { createReadStream, existsSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createGunzip } from 'node:zlib'
import { loadEnv } from '../api/config/env.ts'
import { BackupError, restoreBackup } from '../api/db/backup.ts'
import { openDatabase } from '../api/db/database.ts'
import { complain, say } from '../api/terminal.ts'

const [file, ...extra] = process.argv.slice(2)
if (!file || file === '--help' || extra.length > 0) {
  say('npm run restore FILE    loads a backup into an empty data folder (DATA_DIR) or an empty database (DATABASE_URL)')
  process.exit(file === '--help' ? 0 : 1)
}

try {
  if (!existsSync(file)) throw new BackupError(`No file ${file}.`)
  const env = loadEnv()
  if (!env.databaseUrl) {
    const dir = resolve(env.dataDir)
    const held = existsSync(dir) ? readdirSync(dir).filter((name) => name !== '.gitkeep') : []
    if (held.length > 0) {
      throw new BackupError(
        `The data folder ${dir} (DATA_DIR) is not empty (it holds ${held.slice(0, 3).join(', ')}). A backup is restored only into an empty folder, ` +
          'so nothing is overwritten: set DATA_DIR to a new folder, or stop the server and move this one away.',
      )
    }
  }
  const started = performance.now()
  const db = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir })
  try {
    const { header, summary } = await restoreBackup(db.sql, createReadStream(file).pipe(createGunzip()))
    const total = Object.values(summary.counts).reduce((a, b) => a + b, 0)
    const rows = (table: string) => summary.counts[table] ?? 0
    say(
      `Restored the backup of ${header.createdAt} into ${db.description} in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
        `${rows('golf_carts')} carts, ${rows('cart_photos')} photos, ${rows('contact_inquiries')} leads, ${rows('users')} accounts, ` +
        `${rows('audit_log')} audit rows; ${total} rows in ${Object.keys(summary.counts).length} tables. Start the server on it.`,
    )
  } catch (error) {
    if (!(error instanceof BackupError && /not empty/.test(error.message))) {
      const where = env.databaseUrl ? 'drop and create the database' : `remove ${join(resolve(env.dataDir))}`
      complain(`Nothing was restored; the migrated tables are left: ${where} before trying again.`)
    }
    throw error
  } finally {
    await db.close()
  }
} catch (error) {
  complain(error instanceof BackupError ? error.message : `The restore failed: ${(error as Error).message}`)
  process.exit(1)
}
