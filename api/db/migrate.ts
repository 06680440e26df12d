import { readFile, readdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { type Database, type DatabaseOptions, openDatabase, type ReservedSql, type Sql } from './database.ts'

// From the repository root, not from this file's folder: the server also runs as one built file
// (dist/server/main.js, two folders deep like this one), where './migrations/' would not exist.
const migrationsDir = fileURLToPath(new URL('../../api/db/migrations/', import.meta.url))

/** Any fixed number: every server takes this lock before it migrates, so two never race. */
const migrationLock = 727_001

export interface Migration {
  version: string
  sql: string
}

export async function readMigrations(dir = migrationsDir): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort()
  return Promise.all(
    files.map(async (file) => ({ version: file.replace(/\.sql$/, ''), sql: await readFile(`${dir}${file}`, 'utf8') })),
  )
}

/**
 * Applies the versioned SQL files in order, each in its own transaction together with the row
 * that records it, so a failed migration leaves nothing half done. Returns what it applied.
 *
 * The whole run, `create table if not exists schema_migrations` included, holds a session-level
 * advisory lock on one reserved connection: replicas that start together on a fresh database
 * take turns (the second finds everything applied) instead of racing to create the same tables.
 * The lock goes with the session, so a process that dies mid-run frees it.
 */
export async function migrate(sql: Sql, migrations?: Migration[]): Promise<string[]> {
  const pending = migrations ?? (await readMigrations())
  const session = await sql.reserve()
  try {
    await session`select pg_advisory_lock(${migrationLock})`
    try {
      await session`
        create table if not exists schema_migrations (
          version text primary key,
          applied_at timestamptz not null default now()
        )
      `
      // One query for what is done, not one per file: each is a round trip at every start.
      const done = new Set(await appliedVersions(session))
      const applied: string[] = []
      for (const migration of pending) {
        if (done.has(migration.version)) continue
        await session`begin`
        try {
          await session.unsafe(migration.sql)
          await session`insert into schema_migrations (version) values (${migration.version})`
          await session`commit`
        } catch (error) {
          await session`rollback`.catch(() => {})
          throw error
        }
        applied.push(migration.version)
      }
      return applied
    } finally {
      await session`select pg_advisory_unlock(${migrationLock})`.catch(() => {})
    }
  } finally {
    session.release()
  }
}

/** Every version recorded as applied (and the seed's mark, api/carts/seed.ts). */
export async function appliedVersions(sql: Sql | ReservedSql): Promise<string[]> {
  return (await sql<{ version: string }[]>`select version from schema_migrations`).map((row) => row.version)
}

/** The database a command opens itself (no running server holds it), brought up to date first. */
export async function openMigratedDatabase(options: DatabaseOptions): Promise<Database> {
  const db = await openDatabase(options)
  try {
    await migrate(db.sql)
  } catch (error) {
    await db.close()
    throw error
  }
  return db
}
