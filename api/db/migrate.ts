import { readFile, readdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { Sql } from './database.ts'

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url))

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
 */
export async function migrate(sql: Sql, migrations?: Migration[]): Promise<string[]> {
  await sql`
    create table if not exists schema_migrations (
      version text primary key,
      applied_at timestamptz not null default now()
    )
  `
  const applied: string[] = []
  for (const migration of migrations ?? (await readMigrations())) {
    const ran = await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${migrationLock})`
      const [done] = await tx`select 1 from schema_migrations where version = ${migration.version}`
      if (done) return false
      await tx.unsafe(migration.sql)
      await tx`insert into schema_migrations (version) values (${migration.version})`
      return true
    })
    if (ran) applied.push(migration.version)
  }
  return applied
}
