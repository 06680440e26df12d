import { routingPoolOf } from '../../domain/dealer-settings.ts'
import type { TransactionSql } from '../db/database.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'
import { readSetting } from '../staff/settings.ts'

/**
 * Lead routing (PRODUCT.md, "lead routing" and "customers"): the account a new lead goes to,
 * chosen in the transaction that stores it. The owner's settings list the accounts that take
 * leads per pool (its interest, or `other`). A lead of a customer someone already has goes to
 * them: the owner of the customer's latest lead, while that account takes this pool's leads.
 * Anyone else's goes to the next in turn: the first of the pool's accounts, by id, after the one
 * the pool's last lead went to, wrapping round. Disabled or removed accounts are passed over.
 */

/** The active accounts the settings say take this interest's leads, by id. */
async function takersOf(tx: TransactionSql, interest: string | null | undefined): Promise<{ id: number; username: string }[]> {
  const pool = routingPoolOf(interest)
  const listed = (await readSetting(tx, 'leadRouting'))[pool] ?? []
  if (listed.length === 0) return []
  return tx<{ id: number; username: string }[]>`select id, username from users where id in ${tx(listed)} and not disabled order by id`
}

/**
 * The next in turn. The pool's turn row is locked until the lead is stored, so leads arriving
 * together wait for each other here (a few milliseconds) and each gets the next account.
 *
 * Returns the account, or null when nobody takes the pool's leads (the lead stays unassigned).
 */
export async function nextInTurn(tx: TransactionSql, interest: string | null | undefined): Promise<{ id: number; username: string } | null> {
  const pool = routingPoolOf(interest)
  const takers = await takersOf(tx, interest)
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
 * The salesperson who has the lead's customer: the owner of the customer's latest other lead that
 * has one, if that account takes this interest's leads. Its other leads arriving at the same
 * moment are visible here: the customer's key locks (api/customers/customer-keys.ts) made this
 * lead wait until they were committed.
 */
async function customersSalesperson(tx: TransactionSql, id: number, interest: string | null | undefined): Promise<{ id: number; username: string } | null> {
  const [latest] = await tx<{ ownerId: number }[]>`
    select p.owner_id from contact_inquiries l
    join contact_inquiries p on p.customer_id = l.customer_id and p.id <> l.id and p.spam_reason is null and p.owner_id is not null
    where l.id = ${id}
    order by p.created_at desc, p.id desc limit 1
  `
  if (!latest) return null
  return (await takersOf(tx, interest)).find((taker) => taker.id === latest.ownerId) ?? null
}

/**
 * Gives a stored lead that nobody owns to its customer's salesperson, else to the next in turn,
 * with the change in its history as made by lead routing. Used on arrival and when "Not spam"
 * lets a caught lead in (after it joined its customer).
 */
export async function routeLead(tx: TransactionSql, id: number, interest: string | null | undefined): Promise<{ id: number; username: string } | null> {
  const owner = (await customersSalesperson(tx, id, interest)) ?? (await nextInTurn(tx, interest))
  if (!owner) return null
  await tx`update contact_inquiries set owner_id = ${owner.id} where id = ${id}`
  await recordChanges(tx, leadRouting, 'lead', id, [{ action: 'update', field: 'owner', before: null, after: owner.username }])
  return owner
}

/** Who the history says assigned a lead on arrival. */
export const leadRouting: Actor = { id: null, name: 'lead routing' }
