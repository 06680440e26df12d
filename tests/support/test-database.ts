import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { type Database, openDatabase } from '../../api/db/database.ts'
import { fillAsTemplate, pgliteTemplate, runTemplates, type Template } from './database-templates.ts'

/**
 * The databases every API test runs against: embedded PGlite always, and the PostgreSQL server
 * named by TEST_DATABASE_URL when it is set (CI sets it). Each test file gets a database of its
 * own, created for it and dropped afterwards, so runs never see each other's data.
 */
export type Backend = 'pglite' | 'postgres'

export const backends: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']

export interface TestDatabase extends Database {
  /** A URL another process can use to reach this database (PostgreSQL only). */
  url?: string
}

export type { Template }

/**
 * A database of the test's own: `empty` as initdb leaves it (the default), `migrated` with every
 * migration applied, or `seeded` also holding the starting inventory. It is a copy of the run's
 * template (tests/support/database-templates.ts) when the run made them, else made from nothing.
 */
export async function createTestDatabase(backend: Backend, template: Template = 'empty'): Promise<TestDatabase> {
  const templates = runTemplates()
  if (backend === 'pglite') {
    if (templates) return openDatabase({ dataDir: null, loadDataDir: pgliteTemplate(templates, template) })
    const db = await openDatabase({ dataDir: null })
    await fillAsTemplate(db.sql, template)
    return db
  }
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set')
  const name = `gc_test_${process.pid}_${randomBytes(4).toString('hex')}`
  const from = template === 'empty' ? undefined : templates?.postgres?.[template]
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}${from ? ` template ${from}` : ''}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const db = await openDatabase({ databaseUrl: url.href, dataDir: null })
  if (!from) await fillAsTemplate(db.sql, template)
  return {
    ...db,
    url: url.href,
    async close() {
      await db.close()
      await admin.unsafe(`drop database if exists ${name} with (force)`)
      await admin.end()
    },
  }
}
