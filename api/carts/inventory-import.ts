import type { CartRecord, CartRecordField } from '../../domain/cart-record.ts'
import { cartRecordFields } from '../../domain/cart-record.ts'
import type { ExportCart, ImportRow, RowProblem } from './inventory-csv.ts'
import { alternativeSlug, slugify } from '../../domain/slug.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { type Actor, type AuditChange, changedFields } from '../staff/audit.ts'

/**
 * The inventory import's two steps (PRODUCT.md, "Import"). `planImport` reads the database and
 * works out every change without writing; `applyImport` writes a plan in one transaction of bulk
 * statements (the adds, the updates, each with its audit rows, 500 rows a statement), everything else made before
 * it begins, so visitors wait as little as can be (docs/BENCHMARKS.md, "Inventory import").
 * A plan made before someone else changed one of its carts is refused, not applied.
 */
const recordFields = Object.keys(cartRecordFields) as CartRecordField[]

export interface PlannedAdd {
  line: number
  record: CartRecord
}

export interface PlannedUpdate {
  line: number
  id: number
  version: number
  stockNumber: string
  title: string
  record: CartRecord
  changes: AuditChange[]
}

export interface ImportPlan {
  adds: PlannedAdd[]
  updates: PlannedUpdate[]
  unchanged: number
}

export type PlanResult = { ok: true; plan: ImportPlan } | { ok: false; problems: RowProblem[] }

/** The plan or its refusal was made on carts that changed before it was applied. */
export class StaleImportError extends Error {
  override name = 'StaleImportError'
}

type StoredRecord = CartRecord & { id: number; version: number; stockNumber: string }

function recordColumns(sql: Sql | TransactionSql) {
  return sql`
    id, version, title, description, price::float8 as price, image_url, category as condition,
    status, featured, location, year, make, model, trim, vin, serial_number, stock_number, color, seats,
    battery, street_legal, lifted, msrp::float8 as msrp
  `
}

/** Works out what importing these rows would change, or why some cannot be imported. */
export async function planImport(sql: Sql | TransactionSql, rows: readonly ImportRow[]): Promise<PlanResult> {
  const stockNumbers = rows.flatMap((r) => (r.record.stockNumber ? [r.record.stockNumber] : []))
  const vins = rows.flatMap((r) => (r.record.vin ? [r.record.vin] : []))
  const [existing, vinHolders] = await Promise.all([
    sql<StoredRecord[]>`select ${recordColumns(sql)} from golf_carts where stock_number = any(${sql.array(stockNumbers)}::text[])`,
    sql<{ vin: string; stockNumber: string; title: string }[]>`
      select vin, stock_number, title from golf_carts where vin = any(${sql.array(vins)}::text[])
    `,
  ])
  const byStock = new Map(existing.map((cart) => [cart.stockNumber, cart]))
  const vinHolder = new Map(vinHolders.map((holder) => [holder.vin, holder]))

  const problems: RowProblem[] = []
  const plan: ImportPlan = { adds: [], updates: [], unchanged: 0 }
  for (const row of rows) {
    const current = row.record.stockNumber ? byStock.get(row.record.stockNumber) : undefined
    const vin = row.record.vin
    const holder = vin ? vinHolder.get(vin) : undefined
    if (holder && holder.stockNumber !== row.record.stockNumber) {
      problems.push({ line: row.line, field: 'vin', message: `VIN ${vin} is already on stock number ${holder.stockNumber} ("${holder.title}")` })
      continue
    }
    if (!current) {
      // A new cart needs no image: without photos it shows its model's drawing (domain/cart-pictures.ts).
      plan.adds.push({ line: row.line, record: row.record })
      continue
    }
    // Columns the file leaves out keep the cart's values.
    const record = Object.fromEntries(
      recordFields.map((field) => [field, row.given.includes(field) ? row.record[field] : current[field]]),
    ) as CartRecord
    const changes = changedFields<CartRecord>(current, record, recordFields)
    if (changes.length === 0) {
      plan.unchanged++
      continue
    }
    plan.updates.push({ line: row.line, id: current.id, version: current.version, stockNumber: current.stockNumber, title: current.title, record, changes })
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, plan }
}

export interface ImportOutcome {
  added: number
  updated: number
  unchanged: number
  /** How long the write transaction held the database, in milliseconds. */
  writeMs: number
}

/** The record's fields as the bulk statements name and type their columns. */
const columnTypes = [
  ['title', 'title', 'text'],
  ['description', 'description', 'text'],
  ['price', 'price', 'numeric'],
  ['imageUrl', 'image_url', 'text'],
  ['condition', 'category', 'text'],
  ['status', 'status', 'text'],
  ['featured', 'featured', 'boolean'],
  ['location', 'location', 'text'],
  ['year', 'year', 'integer'],
  ['make', 'make', 'text'],
  ['model', 'model', 'text'],
  ['trim', 'trim', 'text'],
  ['vin', 'vin', 'text'],
  ['serialNumber', 'serial_number', 'text'],
  ['stockNumber', 'stock_number', 'text'],
  ['color', 'color', 'text'],
  ['seats', 'seats', 'integer'],
  ['battery', 'battery', 'text'],
  ['streetLegal', 'street_legal', 'boolean'],
  ['lifted', 'lifted', 'boolean'],
  ['msrp', 'msrp', 'numeric'],
] as const satisfies readonly (readonly [CartRecordField, string, string])[]

const asJson = (record: CartRecord, only: readonly ColumnType[] = columnTypes) =>
  Object.fromEntries(only.map(([field, column]) => [column, record[field] ?? null]))

const columns = columnTypes.map(([, column]) => column)
const typed = (only: readonly ColumnType[]) => only.map(([, column, type]) => `${column} ${type}`).join(', ')
const typedColumns = typed(columnTypes)
/** An added cart's whole record for its audit row, made from the inserted row in SQL. */
const snapshot = columnTypes.map(([field, column, type]) => `'${field}', ${type === 'numeric' ? `${column}::float8` : column}`).join(', ')

/**
 * Rows per write statement. The embedded database runs on the server's own thread, so while one
 * statement runs nothing else is answered, kept pages included; between two statements of the
 * transaction the server answers whatever needs no database (kept pages and lists). 500 rows
 * are about a tenth of a second's work there (docs/BENCHMARKS.md, "Inventory import").
 */
export const rowsPerStatement = 500

/** A list cut into runs of `rowsPerStatement`, in order. */
function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += rowsPerStatement) out.push(items.slice(i, i + rowsPerStatement))
  return out
}

/**
 * A plan as the write statements take it, made before the transaction: every row turned into
 * JSON text here, so the transaction holds the database only for the statements themselves.
 */
export interface PreparedPlan {
  plan: ImportPlan
  /**
   * The added carts in the file's order, a JSON text per statement (`ord` from 1 in each),
   * without their slugs (chosen under the lock).
   */
  adds: string[]
  /** Each added cart's slug as its title gives it, before a -2, -3 makes it unique. */
  slugBases: string[]
  stockNumbers: string[]
  /**
   * Per statement: the columns it sets, the changed carts with the version the plan saw and
   * those columns' new values, and their audit rows.
   */
  updates: { columns: ColumnType[]; carts: PlannedUpdate[]; rows: string; audit: string }[]
}

type ColumnType = (typeof columnTypes)[number]

/**
 * The columns an update sets: those of the fields it changes. A cart whose price alone changed
 * is written as `set price = ...`, so PostgreSQL recomputes none of the generated columns the
 * title, description and stock number feed (the search text, migration 0014) for it.
 */
function changedColumns(update: PlannedUpdate): ColumnType[] {
  const fields = new Set(update.changes.map((change) => change.field))
  const known = columnTypes.filter(([field]) => fields.has(field))
  // A change to a field without a column here is not one an import can make; if it ever is, write every column.
  return known.length === fields.size ? known : [...columnTypes]
}

/** Updates that change the same columns, each run cut into `rowsPerStatement`, in the file's order within each. */
function updateBatches(updates: readonly PlannedUpdate[]): { columns: ColumnType[]; carts: PlannedUpdate[] }[] {
  const groups = new Map<string, { columns: ColumnType[]; carts: PlannedUpdate[] }>()
  for (const update of updates) {
    const columns = changedColumns(update)
    const key = columns.map(([field]) => field).join(',')
    const group = groups.get(key) ?? groups.set(key, { columns, carts: [] }).get(key)!
    group.carts.push(update)
  }
  return [...groups.values()].flatMap(({ columns, carts }) => batches(carts).map((batch) => ({ columns, carts: batch })))
}

export function preparePlan(plan: ImportPlan): PreparedPlan {
  return {
    plan,
    adds: batches(plan.adds).map((batch) =>
      JSON.stringify(batch.map(({ record }, i) => ({ ...asJson(record), alternative_slug: alternativeSlug(record.title), ord: i + 1 }))),
    ),
    slugBases: plan.adds.map(({ record }) => slugify(record.title) || 'golf-cart'),
    stockNumbers: plan.adds.flatMap((a) => (a.record.stockNumber ? [a.record.stockNumber] : [])),
    updates: updateBatches(plan.updates).map(({ columns, carts }) => ({
      columns,
      carts,
      rows: JSON.stringify(carts.map((u) => ({ id: u.id, version: u.version, ...asJson(u.record, columns) }))),
      audit: JSON.stringify(
        carts.flatMap((u) => u.changes.map((c) => ({ entity_id: String(u.id), field: c.field ?? null, before: c.before ?? null, after: c.after ?? null }))),
      ),
    })),
  }
}

/**
 * Writes a plan in one transaction. Everything that can be is made before it begins
 * (`preparePlan`), so the database is held for the lock, one read (stock numbers taken since
 * the check, and the slugs the new carts' titles would collide with), then a statement per
 * `rowsPerStatement` added carts with their audit rows, and per as many changed carts with theirs.
 */
export async function applyImport<T extends Omit<ImportOutcome, 'writeMs'>>(
  sql: Sql,
  plan: ImportPlan,
  actor: Actor,
  /** More writes around the plan's in its transaction (the photos: api/carts/import-photos.ts). */
  around: (tx: TransactionSql, write: () => Promise<Omit<ImportOutcome, 'writeMs'>>) => Promise<T> = (_tx, write) => write() as Promise<T>,
): Promise<T & { writeMs: number }> {
  const prepared = preparePlan(plan)
  const started = performance.now()
  const outcome = (await sql.begin((tx) => around(tx, () => writePlan(tx, prepared, actor)))) as T
  return { ...outcome, writeMs: Math.round(performance.now() - started) }
}

/** The writes of `applyImport`, inside the caller's transaction (the seed runs it in its own). */
export async function writePlan(tx: TransactionSql, prepared: PreparedPlan, actor: Actor): Promise<Omit<ImportOutcome, 'writeMs'>> {
  const { plan } = prepared
  // Slugs are chosen here, as insertCart does: one writer at a time chooses them. The lock also
  // keeps every other writer out until the commit, so the versions compared below stay true.
  const locked = tx`lock table golf_carts in share row exclusive mode`
  let added = 0
  if (plan.adds.length > 0) {
    const bases = [...new Set(prepared.slugBases)]
    // Sent with the lock, one round trip: stock numbers someone added since the check, and the
    // slugs the new titles could collide with (a base, or a base with -2, -3...), not every slug.
    const [, taken, slugRows] = await Promise.all([
      locked,
      tx<{ stockNumber: string }[]>`select stock_number from golf_carts where stock_number = any(${tx.array(prepared.stockNumbers)}::text[]) limit 1`,
      tx<{ slug: string }[]>`
        select slug from golf_carts
        where slug = any(${tx.array(bases)}::text[]) or regexp_replace(slug, '-[0-9]+$', '') = any(${tx.array(bases)}::text[])
      `,
    ])
    if (taken.length > 0) throw new StaleImportError(`Stock number ${taken[0]!.stockNumber} was added since the file was checked; check the file again`)
    const slugs = chooseSlugs(prepared.slugBases, new Set(slugRows.map((r) => r.slug)))
    for (const [i, rows] of prepared.adds.entries()) {
      const [{ added: count } = { added: 0 }] = await tx.unsafe<{ added: number }[]>(
        `with inserted as (
           insert into golf_carts (slug, alternative_slug, ${columns.join(', ')})
           select s.slug, r.alternative_slug, ${columns.map((c) => `r.${c}`).join(', ')}
           from jsonb_to_recordset($1::text::jsonb) as r(ord integer, alternative_slug text, ${typedColumns})
           join unnest($2::text[]) with ordinality as s(slug, ord) on s.ord = r.ord
           order by r.ord
           returning id, slug, ${columns.join(', ')}
         ), audited as (
           insert into audit_log (actor_id, actor, entity, entity_id, action, after)
           select $3::int, $4, 'cart', id::text, 'create', jsonb_build_object('slug', slug, ${snapshot})
           from inserted order by id
         )
         select count(*)::int as added from inserted`,
        [rows, tx.array(slugs.slice(i * rowsPerStatement, (i + 1) * rowsPerStatement)) as never, actor.id as never, actor.name],
      )
      added += count
    }
  } else {
    await locked
  }
  // A cart is changed only at the version the plan saw; one changed since is left alone, and
  // the count tells: then nothing of the import is kept.
  for (const batch of prepared.updates) {
    const [answer] = await tx.unsafe<{ updated: number; ids: number[] | null }[]>(
      `with updated as (
         update golf_carts g set ${batch.columns.map(([, c]) => `${c} = r.${c}`).join(', ')}
         from jsonb_to_recordset($1::text::jsonb) as r(id integer, version integer, ${typed(batch.columns)})
         where g.id = r.id and g.version = r.version
         returning g.id
       ), audited as (
         insert into audit_log (actor_id, actor, entity, entity_id, action, field, before, after)
         select $3::int, $4, 'cart', a.entity_id, 'update', a.field, a.before, a.after
         from jsonb_to_recordset($2::text::jsonb) as a(entity_id text, field text, before jsonb, after jsonb)
       )
       select count(*)::int as updated, case when count(*) < $5 then array_agg(id) end as ids from updated`,
      [batch.rows, batch.audit, actor.id as never, actor.name, batch.carts.length],
    )
    if (answer?.updated !== batch.carts.length) {
      const done = new Set(answer?.ids ?? [])
      const stale = batch.carts.filter((u) => !done.has(u.id))
      throw new StaleImportError(
        `${stale.length} cart${stale.length === 1 ? '' : 's'} changed since the file was checked (first: stock number ${stale[0]!.stockNumber}); check the file again`,
      )
    }
  }
  return { added, updated: plan.updates.length, unchanged: plan.unchanged }
}

/**
 * Each title's slug, or the first of `-2`, `-3`... not taken yet (`uniqueSlug`), for many carts
 * at once: the next number to try is remembered for each title, so 10,000 carts of twenty models
 * are 10,000 steps, not one count from 2 upward per cart.
 */
export function chooseSlugs(bases: readonly string[], taken: Set<string>): string[] {
  const next = new Map<string, number>()
  return bases.map((base) => {
    const numbered = (n: number) => (n === 1 ? base : `${base}-${n}`)
    let n = next.get(base) ?? 1
    while (taken.has(numbered(n))) n++
    const slug = numbered(n)
    taken.add(slug)
    next.set(base, n)
    return slug
  })
}

/** Every cart, as the export writes it: sold and held carts too, by stock number. */
export async function exportCarts(sql: Sql, options: { status?: 'available' } = {}): Promise<ExportCart[]> {
  const rows = await sql<StoredRecord[]>`
    select ${recordColumns(sql)} from golf_carts
    ${options.status ? sql`where status = ${options.status}` : sql``}
    order by id
  `
  return rows.map(({ id: _id, version: _version, ...record }) => record)
}
