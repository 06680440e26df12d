import type { CartRecord, CartRecordField } from '../../domain/cart-record.ts'
import { cartRecordFields } from '../../domain/cart-record.ts'
import type { ExportCart, ImportRow, RowProblem } from './inventory-csv.ts'
import { alternativeSlug, slugify, uniqueSlug } from '../../domain/slug.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { type Actor, type AuditChange, changedFields, recordManyChanges } from '../staff/audit.ts'

/**
 * The inventory import's two steps (PRODUCT.md, "Import"). `planImport` reads the database and
 * works out every change without writing; `applyImport` writes a plan in one transaction of bulk
 * statements, so 10,000 carts hold the database for about a second and visitors are served
 * around it. A plan made before someone else changed one of its carts is refused, not applied.
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
    status, featured, year, make, model, trim, vin, serial_number, stock_number, color, seats,
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
      const missing = (['imageUrl'] as const).filter((field) => !row.given.includes(field))
      if (missing.length > 0) {
        problems.push({ line: row.line, field: 'imageUrl', message: 'A new cart needs an image: the file has no imageUrl column' })
        continue
      }
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

const asJson = (record: CartRecord) => Object.fromEntries(columnTypes.map(([field, column]) => [column, record[field] ?? null]))

/**
 * Writes a plan in one transaction: the adds in one insert, the updates in one update, the audit
 * rows in one insert. Carts the plan updates are locked and their versions compared first.
 */
export async function applyImport<T extends Omit<ImportOutcome, 'writeMs'>>(
  sql: Sql,
  plan: ImportPlan,
  actor: Actor,
  /** More writes around the plan's in its transaction (the photos: api/carts/import-photos.ts). */
  around: (tx: TransactionSql, write: () => Promise<Omit<ImportOutcome, 'writeMs'>>) => Promise<T> = (_tx, write) => write() as Promise<T>,
): Promise<T & { writeMs: number }> {
  const started = performance.now()
  const outcome = (await sql.begin((tx) => around(tx, () => writePlan(tx, plan, actor)))) as T
  return { ...outcome, writeMs: Math.round(performance.now() - started) }
}

/** The writes of `applyImport`, inside the caller's transaction (the seed runs it in its own). */
export async function writePlan(tx: TransactionSql, plan: ImportPlan, actor: Actor): Promise<Omit<ImportOutcome, 'writeMs'>> {
  const columns = columnTypes.map(([, column]) => column)
  const typed = columnTypes.map(([, column, type]) => `${column} ${type}`).join(', ')
  // Slugs are chosen here, as insertCart does: one writer at a time chooses them.
  await tx`lock table golf_carts in share row exclusive mode`
  if (plan.updates.length > 0) {
    const ids = plan.updates.map((u) => u.id)
    const versions = await tx<{ id: number; version: number }[]>`
      select id, version from golf_carts where id = any(${tx.array(ids)}::int[]) for update
    `
    const now = new Map(versions.map((v) => [v.id, v.version]))
    const stale = plan.updates.filter((u) => now.get(u.id) !== u.version)
    if (stale.length > 0) {
      throw new StaleImportError(
        `${stale.length} cart${stale.length === 1 ? '' : 's'} changed since the file was checked (first: stock number ${stale[0]!.stockNumber}); check the file again`,
      )
    }
  }
  let added = 0
  if (plan.adds.length > 0) {
    const taken = await tx<{ stockNumber: string }[]>`
      select stock_number from golf_carts
      where stock_number = any(${tx.array(plan.adds.flatMap((a) => (a.record.stockNumber ? [a.record.stockNumber] : [])))}::text[])
    `
    if (taken.length > 0) throw new StaleImportError(`Stock number ${taken[0]!.stockNumber} was added since the file was checked; check the file again`)
    const slugs = new Set((await tx<{ slug: string }[]>`select slug from golf_carts`).map((r) => r.slug))
    const rows = plan.adds.map(({ record }) => {
      const slug = uniqueSlug(slugify(record.title) || 'golf-cart', (s) => slugs.has(s))
      slugs.add(slug)
      return { ...asJson(record), slug, alternative_slug: alternativeSlug(record.title), ord: 0 }
    })
    rows.forEach((row, i) => (row.ord = i))
    // The audit rows of the added carts are made from the inserted rows in the same statement, so
    // the file's records cross the connection once (the embedded database's socket is the slow part).
    const snapshot = columnTypes
      .map(([field, column, type]) => `'${field}', ${type === 'numeric' ? `${column}::float8` : column}`)
      .join(', ')
    const [{ added: count } = { added: 0 }] = await tx.unsafe<{ added: number }[]>(
      `with inserted as (
         insert into golf_carts (slug, alternative_slug, ${columns.join(', ')})
         select slug, alternative_slug, ${columns.join(', ')}
         from jsonb_to_recordset($1::jsonb) as r(ord integer, slug text, alternative_slug text, ${typed})
         order by ord
         returning id, slug, ${columns.join(', ')}
       ), audited as (
         insert into audit_log (actor_id, actor, entity, entity_id, action, after)
         select $2::int, $3, 'cart', id::text, 'create', jsonb_build_object('slug', slug, ${snapshot})
         from inserted order by id
       )
       select count(*)::int as added from inserted`,
      [tx.json(rows) as never, actor.id as never, actor.name],
    )
    added = count
  }
  if (plan.updates.length > 0) {
    const rows = plan.updates.map((u) => ({ id: u.id, ...asJson(u.record) }))
    await tx.unsafe(
      `update golf_carts g set ${columns.map((c) => `${c} = r.${c}`).join(', ')}
       from jsonb_to_recordset($1::jsonb) as r(id integer, ${typed})
       where g.id = r.id`,
      [tx.json(rows as never) as never],
    )
  }
  await recordManyChanges(
    tx,
    actor,
    'cart',
    plan.updates.flatMap((u) => u.changes.map((change) => ({ ...change, entityId: u.id }))),
  )
  return { added, updated: plan.updates.length, unchanged: plan.unchanged }
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
