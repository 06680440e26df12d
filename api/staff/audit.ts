import type { Sql, TransactionSql } from '../db/database.ts'

/**
 * The audit log (PRODUCT.md): who changed which field of what, from what to what, and when. Rows
 * are generic, so carts, photos, leads and accounts share one table and one history view. Every
 * change is written in the same transaction as the change itself: no change without its row.
 */
export type AuditEntity = 'cart' | 'photo' | 'lead' | 'account'
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
