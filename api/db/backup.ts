import { createInterface } from 'node:readline'
import { finished } from 'node:stream/promises'
import type { Readable, Writable } from 'node:stream'
import { readMigrations } from './migrate.ts'
import { migrate } from './migrate.ts'
import type { Sql, TransactionSql } from './database.ts'

/**
 * Backups (PRODUCT.md, "Running the dealership": backups; docs/decisions/0025-backups.md).
 *
 * One format for both databases, so a dealer can also move from the embedded database to
 * PostgreSQL with it: gzip'd lines of JSON, written from one repeatable-read, read-only
 * transaction (every table as of one instant, while the site keeps taking leads):
 *
 *   ["backup", { format, version, createdAt, database, migrations }]
 *   ["table", { name, columns }]          then one line per row: the row's columns as JSON
 *   ...                                   (to_jsonb: bytea as \x hex, timestamps to the microsecond)
 *   ["end", { counts, sequences }]        a file without it is cut short and is refused
 *
 * Tables come parents first (foreign keys) and each in primary-key order, so a restore inserts
 * them with the constraints checked. Generated columns are left out: the database computes them.
 * Photos, widget releases, sessions and the outbox are rows like any other: the database holds
 * everything the site has (docs/decisions/0017-cart-photos.md).
 */
export const backupFormat = 'jersey-cart-co backup'
export const backupVersion = 1

export interface BackupHeader {
  format: string
  version: number
  createdAt: string
  database: 'embedded' | 'postgresql'
  /** schema_migrations as it was: the migrations (and the seed's mark) the data is shaped by. */
  migrations: string[]
}

export interface BackupSummary {
  /** Rows per table. */
  counts: Record<string, number>
  sequences: { name: string; lastValue: string | null }[]
}

/** A backup that cannot be restored here, or a database that must not be restored into: said as is. */
export class BackupError extends Error {
  override name = 'BackupError'
}

interface TableInfo {
  name: string
  /** Stored columns, in table order; generated ones are not among them. */
  columns: string[]
  key: string[]
  parents: string[]
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`

/** Every table of the public schema, parents before children. */
async function tables(sql: Sql | TransactionSql): Promise<TableInfo[]> {
  const rows = await sql<TableInfo[]>`
    select c.relname as name,
      array(select a.attname::text from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
            order by a.attnum) as columns,
      array(select a.attname::text from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
            where i.indrelid = c.oid and i.indisprimary order by a.attnum) as key,
      array(select distinct p.relname::text from pg_constraint f join pg_class p on p.oid = f.confrelid
            where f.conrelid = c.oid and f.contype = 'f' and f.confrelid <> c.oid) as parents
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')
    order by c.relname
  `
  // Kahn's order; anything left in a cycle (there is none today) follows in name order.
  const ordered: TableInfo[] = []
  const left = new Map(rows.map((t) => [t.name, t]))
  while (left.size > 0) {
    const ready = [...left.values()].filter((t) => t.parents.every((p) => !left.has(p)))
    for (const t of ready.length > 0 ? ready : [...left.values()]) {
      ordered.push(t)
      left.delete(t.name)
    }
  }
  return ordered
}

/**
 * Writes a backup of the database to `out` (a gzip stream, which it ends) and returns what it
 * holds. On the embedded database the transaction holds its one connection while it runs: pages
 * the answer cache keeps are served meanwhile, others wait (docs/RELIABILITY.md has the figures).
 */
export async function writeBackup(sql: Sql, out: Writable, database: BackupHeader['database']): Promise<BackupSummary> {
  // Whoever reads `out` may go away (a full disk, a killed command, a closed connection): the
  // next write then fails, which ends the transaction, rather than waiting for ever for a drain
  // that never comes while it holds the embedded database's one connection (issue #48).
  const write = async (line: string) => {
    if (out.destroyed) throw new BackupError('The backup was stopped: nothing reads it any more.')
    if (!out.write(`${line}\n`)) await drained(out)
  }
  const summary = await sql.begin('isolation level repeatable read read only', async (tx) => {
    const migrations = (await tx<{ version: string }[]>`select version from schema_migrations order by version`).map((r) => r.version)
    const header: BackupHeader = { format: backupFormat, version: backupVersion, createdAt: new Date().toISOString(), database, migrations }
    await write(JSON.stringify(['backup', header]))
    const counts: Record<string, number> = {}
    for (const table of await tables(tx)) {
      await write(JSON.stringify(['table', { name: table.name, columns: table.columns }]))
      const columns = table.columns.map(quote).join(', ')
      const order = table.key.length > 0 ? ` order by ${table.key.map(quote).join(', ')}` : ''
      // Text, not json: the driver would turn the keys to camelCase and the numbers to doubles.
      await tx.unsafe(`declare backup_rows no scroll cursor for select to_jsonb(r)::text as line from (select ${columns} from ${quote(table.name)}${order}) r`)
      let count = 0
      for (;;) {
        const batch = await tx.unsafe<{ line: string }[]>('fetch 200 from backup_rows')
        for (const row of batch) await write(row.line)
        count += batch.length
        if (batch.length < 200) break
      }
      await tx.unsafe('close backup_rows')
      counts[table.name] = count
    }
    const sequences = await tx<{ name: string; lastValue: string | null }[]>`
      select sequencename::text as name, last_value::text from pg_sequences where schemaname = 'public' order by sequencename
    `
    return { counts, sequences: sequences.map(({ name, lastValue }) => ({ name, lastValue })) }
  })
  await write(JSON.stringify(['end', summary]))
  out.end()
  await finished(out, { readable: false })
  return summary
}

/** Resolves when `out` takes writes again; rejects when it is closed or fails first. */
function drained(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      out.off('drain', onDrain)
      out.off('close', onClose)
      out.off('error', done)
      if (error) reject(error)
      else resolve()
    }
    const onDrain = () => done()
    const onClose = () => done(new BackupError('The backup was stopped: nothing reads it any more.'))
    out.on('drain', onDrain)
    out.on('close', onClose)
    out.on('error', done)
  })
}

/** Whether the database holds nothing of ours (or anyone's): the only kind a restore goes into. */
export async function databaseIsEmpty(sql: Sql): Promise<{ empty: true } | { empty: false; tables: string[] }> {
  const rows = await sql<{ name: string }[]>`
    select c.relname::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm') order by 1
  `
  return rows.length === 0 ? { empty: true } : { empty: false, tables: rows.map((r) => r.name) }
}

/** Lines of a backup as they are read (the input is the file's bytes, gunzipped by the caller). */
type Line = ['backup', BackupHeader] | ['table', { name: string; columns: string[] }] | ['end', BackupSummary] | string

async function* lines(input: Readable): AsyncGenerator<Line> {
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    if (text === '') continue
    yield text.startsWith('[') ? (JSON.parse(text) as Line) : text
  }
}

function readHeader(first: Line | undefined): BackupHeader {
  if (!Array.isArray(first) || first[0] !== 'backup' || first[1].format !== backupFormat) {
    throw new BackupError('This file is not a backup made by npm run backup.')
  }
  if (first[1].version > backupVersion) throw new BackupError(`This backup is format ${first[1].version}; this version reads ${backupVersion}. Upgrade first.`)
  return first[1]
}

/**
 * Reads a whole backup without a database: its header and summary, or a BackupError when it is
 * not one, is cut short, or holds other rows than its end says. `npm run backup` checks each file
 * it writes this way.
 */
export async function checkBackup(input: Readable): Promise<{ header: BackupHeader; summary: BackupSummary }> {
  const iterator = lines(input)
  const header = readHeader((await iterator.next()).value as Line | undefined)
  const counted: Record<string, number> = {}
  let table: string | undefined
  for await (const line of iterator) {
    if (typeof line === 'string') {
      if (!table) throw new BackupError('The backup has a row outside any table.')
      counted[table] = (counted[table] ?? 0) + 1
    } else if (line[0] === 'table') {
      table = line[1].name
      counted[table] = 0
    } else if (line[0] === 'end') {
      const summary = line[1]
      for (const [name, count] of Object.entries(summary.counts)) {
        if (counted[name] !== count) throw new BackupError(`The backup's table ${name} has ${counted[name] ?? 0} rows, not the ${count} it says.`)
      }
      return { header, summary }
    }
  }
  throw new BackupError('The backup is cut short: its last line is missing. Make another.')
}

/** Rows per insert, and the most characters of JSON in one. */
const batchRows = 500
const batchChars = 4 << 20

/**
 * Loads a backup into an empty database: the migrations the backup was made with, then every
 * row in one transaction (so a failure leaves the database as empty as it found it, bar the
 * migrated tables), the sequences where they were, and checks each table's count against the
 * backup's own. Later migrations run when the server starts, as after any upgrade.
 */
export async function restoreBackup(sql: Sql, input: Readable): Promise<{ header: BackupHeader; summary: BackupSummary }> {
  const emptiness = await databaseIsEmpty(sql)
  if (!emptiness.empty) {
    throw new BackupError(
      `The database is not empty (it has ${emptiness.tables.length} tables: ${emptiness.tables.slice(0, 5).join(', ')}${emptiness.tables.length > 5 ? ', …' : ''}). ` +
        'A backup is restored only into an empty database, so nothing is overwritten: create a new one and point DATABASE_URL at it (or DATA_DIR at a new folder).',
    )
  }
  const iterator = lines(input)
  const header = readHeader((await iterator.next()).value as Line | undefined)
  const known = await readMigrations()
  const knownVersions = new Set(known.map((m) => m.version))
  const newer = header.migrations.filter((v) => /^\d{4}_/.test(v) && !knownVersions.has(v))
  if (newer.length > 0) {
    throw new BackupError(`This backup was made by a newer version of the site (migrations ${newer.join(', ')}). Upgrade this copy first, then restore.`)
  }
  await migrate(sql, known.filter((m) => header.migrations.includes(m.version)))

  const summary = await sql.begin(async (tx) => {
    const present = new Map((await tables(tx)).map((t) => [t.name, t]))
    // Tables the migrations filled (the seed's mark, counters) start empty: the backup has their rows.
    await tx.unsafe(`truncate ${[...present.keys()].map(quote).join(', ')}`)
    // The backup has what the triggers would compute (counts, records, change notices); foreign
    // keys stay checked, which the parents-first order satisfies.
    for (const name of present.keys()) await tx.unsafe(`alter table ${quote(name)} disable trigger user`)
    const loaded: Record<string, number> = {}
    let table: { name: string; columns: string[] } | undefined
    let batch: string[] = []
    let chars = 0
    const flush = async () => {
      if (!table || batch.length === 0) return
      const columns = table.columns.map(quote).join(', ')
      await tx.unsafe(
        `insert into ${quote(table.name)} (${columns}) overriding system value
         select ${columns} from jsonb_populate_recordset(null::${quote(table.name)}, $1::text::jsonb)`,
        [`[${batch.join(',')}]`],
      )
      loaded[table.name] = (loaded[table.name] ?? 0) + batch.length
      batch = []
      chars = 0
    }
    for await (const line of iterator) {
      if (typeof line === 'string') {
        if (!table) throw new BackupError('The backup has a row outside any table.')
        batch.push(line)
        chars += line.length
        if (batch.length >= batchRows || chars >= batchChars) await flush()
        continue
      }
      await flush()
      if (line[0] === 'table') {
        const here = present.get(line[1].name)
        if (!here) throw new BackupError(`The backup has a table this database does not: ${line[1].name}.`)
        const missing = line[1].columns.filter((c) => !here.columns.includes(c))
        if (missing.length > 0) throw new BackupError(`The backup's table ${line[1].name} has columns this database does not: ${missing.join(', ')}.`)
        table = line[1]
        loaded[table.name] = 0
      } else if (line[0] === 'end') {
        const end = line[1]
        for (const [name, count] of Object.entries(end.counts)) {
          if (loaded[name] !== count) throw new BackupError(`The backup's table ${name} has ${loaded[name] ?? 0} rows, not the ${count} it says.`)
        }
        for (const { name, lastValue } of end.sequences) {
          if (lastValue !== null) await tx`select setval(${quote(name)}::regclass, ${lastValue}::bigint, true)`
        }
        for (const name of present.keys()) await tx.unsafe(`alter table ${quote(name)} enable trigger user`)
        return end
      }
    }
    throw new BackupError('The backup is cut short: its last line is missing. Nothing was restored.')
  })
  return { header, summary }
}
