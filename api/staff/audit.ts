import type { Sql, TransactionSql } from '../db/database.ts'

/**
 * The audit log (PRODUCT.md): who changed which field of what, from what to what, and when. Rows
 * are generic, so carts, photos, leads and accounts share one table and one history view. Every
 * change is written in the same transaction as the change itself: no change without its row.
 */
export type AuditEntity = 'cart' | 'photo' | 'lead' | 'account' | 'setting' | 'rental-fleet' | 'reply-template' | 'deposit' | 'appointment' | 'task'
export type AuditAction = 'create' | 'update' | 'delete'

/** Who made a change: a staff account, or a tool run on the server (`npm run staff`). */
export interface Actor {
  id: number | null
  name: string
}

export const commandLine: Actor = { id: null, name: 'npm run staff' }
export const inventoryTool: Actor = { id: null, name: 'npm run inventory' }

export interface AuditChange {
  action: AuditAction
  /** Null for a whole record created or deleted. */
  field?: string | null
  before?: unknown
  after?: unknown
}

export interface AuditEntry {
  id: number
  at: string
  actor: string
  action: AuditAction
  field: string | null
  before: unknown
  after: unknown
}

export async function recordChanges(
  tx: TransactionSql,
  actor: Actor,
  entity: AuditEntity,
  entityId: string | number,
  changes: readonly AuditChange[],
): Promise<void> {
  if (changes.length === 0) return
  const json = (value: unknown) => (value === undefined || value === null ? null : tx.json(value as never))
  await tx`
    insert into audit_log ${tx(
      changes.map((c) => ({
        actor_id: actor.id,
        actor: actor.name,
        entity,
        entity_id: String(entityId),
        action: c.action,
        field: c.field ?? null,
        before: json(c.before),
        after: json(c.after),
      })),
    )}
  `
}

/** One thing's history, newest first; `before` pages back from an entry's id. */
export async function historyOf(
  sql: Sql,
  entity: AuditEntity,
  entityId: string | number,
  page: { limit: number; before?: number },
): Promise<AuditEntry[]> {
  // The time as the driver reads it, made text here: `to_json` of a timestamp is slow on the
  // embedded database (about a millisecond each).
  const rows = await sql<(Omit<AuditEntry, 'at'> & { at: Date })[]>`
    select id::int as id, at, actor, action, field, before, after
    from audit_log
    where entity = ${entity} and entity_id = ${String(entityId)}
      ${page.before === undefined ? sql`` : sql`and id < ${page.before}`}
    order by id desc
    limit ${page.limit}
  `
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }))
}

/**
 * A line of a cart's history: a change of the cart itself, or of its photos. A photo change is
 * told as a person made it, not as the rows it wrote: a reorder moves several photos (one row
 * each), a removal moves the ones after it up; each is one entry here. `field` of a photo entry
 * is null for an added or removed photo, `order` (reordered), `cover` (a new first photo) or
 * `alt` (alt text, with `before` and `after`).
 */
export interface CartHistoryEntry extends AuditEntry {
  subject: 'cart' | 'photo'
  /** Photos one change added or removed (an import adds several in one go). */
  photos?: number
}

/**
 * A cart's history, newest first, with its photos' changes among the cart's own. `before` pages
 * back from an entry's id; `limit` counts audit rows, so a page may hold fewer entries.
 */
export async function cartHistory(sql: Sql, cartId: number, page: { limit: number; before?: number }): Promise<CartHistoryEntry[]> {
  const rows = await sql<(Omit<AuditEntry, 'at'> & { at: Date; entity: string; stamp: string })[]>`
    select id::int as id, at, at::text as stamp, actor, entity, action, field, before, after
    from audit_log
    where (
        (entity = 'cart' and entity_id = ${String(cartId)})
        or (entity = 'photo' and entity_id in (
          select entity_id from audit_log
          where entity = 'photo' and action = 'create' and after ->> 'cartId' = ${String(cartId)}
        ))
      )
      ${page.before === undefined ? sql`` : sql`and id < ${page.before}`}
    order by id desc
    limit ${page.limit}
  `
  const entries: CartHistoryEntry[] = []
  for (let i = 0; i < rows.length; ) {
    const { entity, stamp, ...row } = rows[i]!
    if (entity !== 'photo') {
      entries.push({ ...row, at: row.at.toISOString(), subject: 'cart' })
      i++
      continue
    }
    // One transaction's photo rows share their time (`now()`) and actor: one change.
    let end = i + 1
    while (end < rows.length && rows[end]!.entity === 'photo' && rows[end]!.stamp === stamp && rows[end]!.actor === row.actor) end++
    entries.push(photoChange(rows.slice(i, end)))
    i = end
  }
  return entries
}

function photoChange(rows: readonly (Omit<AuditEntry, 'at'> & { at: Date })[]): CartHistoryEntry {
  const first = rows[0]!
  const base = { id: first.id, at: first.at.toISOString(), actor: first.actor, subject: 'photo' as const, before: null, after: null }
  const created = rows.filter((r) => r.action === 'create')
  if (created.length > 0) return { ...base, action: 'create', field: null, photos: created.length }
  const deleted = rows.filter((r) => r.action === 'delete')
  if (deleted.length > 0) return { ...base, action: 'delete', field: null, photos: deleted.length }
  const alt = rows.find((r) => r.field === 'alt')
  if (alt) return { ...base, action: 'update', field: 'alt', before: alt.before, after: alt.after }
  return { ...base, action: 'update', field: rows.some((r) => r.field === 'position' && r.after === 0) ? 'cover' : 'order' }
}

/**
 * The fields whose values differ between two versions of a record, as audit changes. Values are
 * compared as JSON, so 12995 and 12995.00 are one price.
 */
export function changedFields<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[]): AuditChange[] {
  const value = (record: T, field: keyof T) => record[field] ?? null
  return fields
    .filter((field) => JSON.stringify(value(before, field)) !== JSON.stringify(value(after, field)))
    .map((field) => ({ action: 'update' as const, field, before: value(before, field), after: value(after, field) }))
}

/**
 * Many things' changes in one statement (an inventory import of thousands of carts): the rows go
 * as one JSON parameter, so their number is not bounded by the protocol's parameter limit.
 */
export async function recordManyChanges(
  tx: TransactionSql,
  actor: Actor,
  entity: AuditEntity,
  changes: readonly (AuditChange & { entityId: string | number })[],
): Promise<void> {
  if (changes.length === 0) return
  const rows = changes.map((c) => ({
    entity_id: String(c.entityId),
    action: c.action,
    field: c.field ?? null,
    before: c.before ?? null,
    after: c.after ?? null,
  }))
  await tx`
    insert into audit_log (actor_id, actor, entity, entity_id, action, field, before, after)
    select ${actor.id}, ${actor.name}, ${entity}, r.entity_id, r.action, r.field, r.before, r.after
    from jsonb_to_recordset(${tx.json(rows as never)}::jsonb)
      as r(entity_id text, action text, field text, before jsonb, after jsonb)
  `
}
