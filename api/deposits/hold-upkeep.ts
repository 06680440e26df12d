import type { Sql, TransactionSql } from '../db/database.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'
import { queueDepositMessage } from './deposit-store.ts'

/** Who the audit log names for a hold that ended by itself. */
export const holdUpkeepActor: Actor = { id: null, name: 'hold ended (deposit)' }

/** How long before a hold ends its cart's owner is told. */
export const ownerNoticeMs = 86_400_000

/**
 * After the hold (PRODUCT.md, "after the hold"): a day before a hold ends, the cart's owner (the
 * deposit lead's assignee; unassigned, the managers and owners) is told once, by email; when
 * `holdUntil` passes without a sale, the cart is available again by itself and the deposit is
 * kept as `expired`. Every process runs this (api/leads/lead-upkeep.ts); each deposit is claimed
 * by a conditional update in the transaction that acts on it, so however many look at once, one
 * acts, once. Time is given, not read, so tests stand where they need.
 */
export function createHoldUpkeep(sql: Sql, options: { onQueued?(): void; onCartChange?(): void } = {}) {
  return {
    async run(now: Date): Promise<{ told: number[]; ended: number[] }> {
      const told: number[] = []
      const ended: number[] = []
      const soon = await sql<{ id: number }[]>`
        select id from deposits
        where status = 'held' and owner_told_at is null and hold_until > ${now} and hold_until <= ${new Date(now.getTime() + ownerNoticeMs)}
        order by hold_until limit 500
      `
      for (const { id } of soon) if (await sql.begin((tx) => tellOwner(tx, id, now))) told.push(id)
      const due = await sql<{ id: number }[]>`select id from deposits where status = 'held' and hold_until <= ${now} order by hold_until limit 500`
      for (const { id } of due) if (await sql.begin((tx) => endHold(tx, id, now))) ended.push(id)
      if (told.length > 0) options.onQueued?.()
      if (ended.length > 0) options.onCartChange?.()
      return { told, ended }
    },
  }
}

export type HoldUpkeep = ReturnType<typeof createHoldUpkeep>

async function tellOwner(tx: TransactionSql, id: number, now: Date): Promise<boolean> {
  const [claimed] = await tx<{ inquiryId: number | null }[]>`
    update deposits set owner_told_at = ${now} where id = ${id} and status = 'held' and owner_told_at is null returning inquiry_id
  `
  if (!claimed || claimed.inquiryId === null) return false
  const recipients = await tx<{ id: number }[]>`
    select u.id from contact_inquiries i join users u on u.id = i.owner_id
    where i.id = ${claimed.inquiryId} and not u.disabled and u.email is not null
  `
  const told = recipients.length > 0 ? recipients : await tx<{ id: number }[]>`
    select id from users where role in ('manager', 'owner') and not disabled and email is not null
  `
  for (const user of told) await queueDepositMessage(tx, claimed.inquiryId, 'hold-ending', id, user.id)
  return told.length > 0
}

async function endHold(tx: TransactionSql, id: number, now: Date): Promise<boolean> {
  const [deposit] = await tx<{ golfCartId: number | null }[]>`
    update deposits set status = 'expired', ended_at = ${now} where id = ${id} and status = 'held' and hold_until <= ${now} returning golf_cart_id
  `
  if (!deposit) return false
  const [cart] = deposit.golfCartId ? await tx<{ status: string }[]>`select status from golf_carts where id = ${deposit.golfCartId} for update` : []
  // Sold meanwhile by hand (the inventory's own status): the deposit went toward it.
  if (cart?.status === 'sold') {
    await tx`update deposits set status = 'sold' where id = ${id}`
    await recordChanges(tx, holdUpkeepActor, 'deposit', id, [{ action: 'update', field: 'status', before: 'held', after: 'sold' }])
    return true
  }
  await recordChanges(tx, holdUpkeepActor, 'deposit', id, [{ action: 'update', field: 'status', before: 'held', after: 'expired' }])
  if (cart?.status === 'hold') {
    await tx`update golf_carts set status = 'available' where id = ${deposit.golfCartId}`
    await recordChanges(tx, holdUpkeepActor, 'cart', deposit.golfCartId!, [{ action: 'update', field: 'status', before: 'hold', after: 'available' }])
  }
  return true
}
