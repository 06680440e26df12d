import * as z from 'zod/mini'
import { dealerSettingsSchema, routingPoolOf } from '../../domain/dealer-settings.ts'
import type { TransactionSql } from '../db/database.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'

/**
 * Lead routing (PRODUCT.md, "lead routing"): the account a new lead goes to, chosen in the
 * transaction that stores it. The owner's settings list the accounts that take leads per pool
 * (its interest, or `other`); the next in turn is the first of them, by id, after the one the
 * pool's last lead went to, wrapping round. Disabled or removed accounts are passed over. The
 * pool's turn row is locked until the lead is stored, so leads arriving together wait for each
 * other here (a few milliseconds) and each gets the next account.
 *
 * Returns the account, or null when nobody takes the pool's leads (the lead stays unassigned).
 */
export async function nextInTurn(tx: TransactionSql, interest: string | null | undefined): Promise<{ id: number; username: string } | null> {
  const pool = routingPoolOf(interest)
  const [setting] = await tx<{ value: unknown }[]>`select value from dealer_settings where key = 'leadRouting'`
  const parsed = setting ? z.safeParse(dealerSettingsSchema.shape.leadRouting, setting.value) : undefined
  const listed = parsed?.success ? (parsed.data[pool] ?? []) : []
  if (listed.length === 0) return null
  const takers = await tx<{ id: number; username: string }[]>`
    select id, username from users where id in ${tx(listed)} and not disabled order by id
  `
  if (takers.length === 0) return null
  await tx`insert into lead_routing_turns (pool) values (${pool}) on conflict (pool) do nothing`
  const [turn] = await tx<{ lastUserId: number | null }[]>`
    select last_user_id from lead_routing_turns where pool = ${pool} for update
  `
  const last = turn?.lastUserId ?? 0
  const next = takers.find((t) => t.id > last) ?? takers[0]!
  await tx`update lead_routing_turns set last_user_id = ${next.id}, updated_at = now() where pool = ${pool}`
  return next
}

/**
 * Gives a stored lead that nobody owns to the next in turn, with the change in its history as
 * made by lead routing. Used on arrival and when "Not spam" lets a caught lead in.
 */
export async function routeLead(tx: TransactionSql, id: number, interest: string | null | undefined): Promise<{ id: number; username: string } | null> {
  const owner = await nextInTurn(tx, interest)
  if (!owner) return null
  await tx`update contact_inquiries set owner_id = ${owner.id} where id = ${id}`
  await recordChanges(tx, leadRouting, 'lead', id, [{ action: 'update', field: 'owner', before: null, after: owner.username }])
  return owner
}

/** Who the history says assigned a lead on arrival. */
export const leadRouting: Actor = { id: null, name: 'lead routing' }
