import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import postgres from 'postgres'
import { seed } from '../../api/carts/seed.ts'
import { openDatabase } from '../../api/db/database.ts'
import { migrate } from '../../api/db/migrate.ts'

/**
 * Template databases, made once per test run and copied for every test file that asks for a
 * database (docs/ARCHITECTURE.md, "Tests"). Making a database from nothing is the slow part of a
 * test: the embedded database's initdb alone costs about 5 s of CPU, then the migrations and the
 * starting inventory another second. A copy costs a fraction of that:
 *
 * - PGlite: the data folder as a tar (PGlite's `dumpDataDir`), which `loadDataDir` starts an
 *   in-memory database from without running initdb;
 * - PostgreSQL: a database the copies are made from with `create database … template …`.
 *
 * Three kinds: `empty` (as initdb leaves it: what the migration tests start from), `migrated`
 * (every migration, no carts) and `seeded` (migrated and holding the starting inventory, as a
 * server's first start leaves it: what `startTestServer` starts from). The copy is the same
 * database the old way made, so no test can tell the difference but the clock; PGlite's copies
 * leave out the two template databases it never opens (`withoutUnusedDatabases`).
 *
 * Vitest's global setup (tests/support/global-setup.ts) makes them and names them to the test
 * workers in GC_TEST_TEMPLATES. Without it (a benchmark script, a test run some other way), every
 * database is made from nothing, as before.
 */
export type Template = 'empty' | 'migrated' | 'seeded'

export interface Templates {
  /** Folder holding `pglite-<template>.tar`. */
  dir: string
  /** The PostgreSQL template databases, when TEST_DATABASE_URL names a server. */
  postgres?: Record<Exclude<Template, 'empty'>, string>
}

const envName = 'GC_TEST_TEMPLATES'

const cacheDir = fileURLToPath(new URL('../../node_modules/.cache/gc-test-templates/', import.meta.url))
/** Its package.json is not among the package's exports: read beside its entry (dist/). */
const pgliteVersion = (
  JSON.parse(readFileSync(join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '../package.json'), 'utf8')) as { version: string }
).version

/** The templates this run made, or undefined outside a test run that made them. */
export function runTemplates(): Templates | undefined {
  const named = process.env[envName]
  return named ? (JSON.parse(named) as Templates) : undefined
}

const tars = new Map<Template, Blob>()

/** The PGlite data folder of a template, read once per process (each is some tens of MB). */
export function pgliteTemplate(templates: Templates, template: Template): Blob {
  let tar = tars.get(template)
  if (!tar) {
    tar = new Blob([readFileSync(join(templates.dir, `pglite-${template}.tar`))])
    tars.set(template, tar)
  }
  return tar
}

/**
 * A data folder (DATA_DIR) holding a template's embedded database, for a test that starts a
 * server process or a command on a folder that is not new to the story it tells: opening it
 * skips initdb, about 5 s of CPU a process. Outside a run that made templates, an empty folder,
 * which the process fills itself. Tests of a fresh folder keep making their own with mkdtemp.
 */
export function templateDataDir(prefix: string, template: Template = 'seeded'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const templates = runTemplates()
  if (templates) {
    mkdirSync(join(dir, 'pgdata'), { mode: 0o700 })
    // The dump's names start with a slash, which tar removes (and says so on stderr).
    execFileSync('tar', ['-xf', join(templates.dir, `pglite-${template}.tar`), '-C', join(dir, 'pgdata')], { stdio: 'ignore' })
  }
  return dir
}

/** Brings a database made from nothing to the template's state. */
export async function fillAsTemplate(sql: postgres.Sql, template: Template): Promise<void> {
  if (template === 'empty') return
  await migrate(sql)
  if (template === 'seeded') await seed(sql)
}

/** Makes every template and names them in GC_TEST_TEMPLATES; returns what removes them. */
export async function makeTemplates(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'gc-test-templates-'))
  const adminUrl = process.env.TEST_DATABASE_URL
  // One after the other: PGlite runs on this thread, and while it works the PostgreSQL client's
  // sockets wait, long enough for its connect timeout on a busy machine.
  const postgresTemplates = adminUrl ? await makePostgresTemplates(adminUrl) : undefined
  try {
    await makePgliteTemplates(dir)
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    await postgresTemplates?.drop()
    throw error
  }
  const templates: Templates = { dir, postgres: postgresTemplates?.names }
  process.env[envName] = JSON.stringify(templates)
  return async () => {
    delete process.env[envName]
    rmSync(dir, { recursive: true, force: true })
    await postgresTemplates?.drop()
  }
}

/**
 * PGlite's data folders without the two databases it never opens. An embedded database is one
 * session on the database `postgres`; initdb also makes `template0` and `template1`, which only
 * `create database` reads, and nothing here creates a database in PGlite. Each is some 300 files
 * and 7 MB that every copy would unpack into PGlite's in-memory file system: without them, a copy
 * opens on 0.44-0.49 s of CPU instead of 0.59-0.68 s (five opens each way, three rounds, one
 * process, 2026-11-27), and every test file with an embedded database opens at least one.
 */
async function withoutUnusedDatabases(sql: postgres.Sql): Promise<void> {
  for (const name of ['template0', 'template1']) {
    await sql.unsafe(`alter database ${name} is_template false`)
    await sql.unsafe(`drop database ${name}`)
  }
  await sql.unsafe('checkpoint')
}

/**
 * One in-memory database, dumped after each step. The empty one (initdb's output, which depends
 * on nothing but PGlite's version) is also kept in node_modules/.cache between runs, so only a
 * fresh install pays for initdb.
 */
async function makePgliteTemplates(dir: string): Promise<void> {
  const cached = join(cacheDir, `pglite-${pgliteVersion}-empty.tar`)
  const loadDataDir = existsSync(cached) ? new Blob([readFileSync(cached)]) : undefined
  const db = await openDatabase({ dataDir: null, loadDataDir })
  try {
    const keep = async (template: Template) => {
      const file = join(dir, `pglite-${template}.tar`)
      writeFileSync(file, Buffer.from(await (await db.dumpDataDir!()).arrayBuffer()))
      return file
    }
    if (!loadDataDir) {
      // Written under another name and renamed, so a run beside this one never reads half a file.
      mkdirSync(cacheDir, { recursive: true })
      const partial = `${cached}.${process.pid}`
      writeFileSync(partial, Buffer.from(await (await db.dumpDataDir!()).arrayBuffer()))
      renameSync(partial, cached)
    }
    await withoutUnusedDatabases(db.sql)
    await keep('empty')
    await migrate(db.sql)
    await keep('migrated')
    await seed(db.sql)
    await keep('seeded')
  } finally {
    await db.close()
  }
}

async function makePostgresTemplates(adminUrl: string) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  const prefix = `gc_template_${process.pid}_${randomBytes(4).toString('hex')}`
  const names = { migrated: `${prefix}_migrated`, seeded: `${prefix}_seeded` }
  const drop = async () => {
    for (const name of Object.values(names)) await admin.unsafe(`drop database if exists ${name} with (force)`)
    await admin.end()
  }
  try {
    let from = 'template1'
    for (const template of ['migrated', 'seeded'] as const) {
      await admin.unsafe(`create database ${names[template]} template ${from}`)
      const url = new URL(adminUrl)
      url.pathname = `/${names[template]}`
      const db = await openDatabase({ databaseUrl: url.href, dataDir: null })
      try {
        await fillAsTemplate(db.sql, template)
      } finally {
        await db.close()
      }
      from = names[template]
    }
  } catch (error) {
    await drop()
    throw error
  }
  return { names, drop }
}
