import type { TransactionSql } from '../db/database.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'

/**
 * The lead's first response, if it had none, at `at` by `actor`; and a New lead becomes Contacted.
 * Shared with the other ways of answering (confirming a rental request is one).
 */
export async function recordFirstResponse(tx: TransactionSql, lead: { id: number; status: string }, actor: Actor, at: Date, contacted = true): Promise<void> {
  await tx`
    update contact_inquiries set first_response_at = ${at}, first_response_by = ${actor.id}
    where id = ${lead.id} and first_response_at is null
  `
  if (contacted && lead.status === 'new') {
    await tx`update contact_inquiries set status = 'contacted' where id = ${lead.id}`
    await recordChanges(tx, actor, 'lead', lead.id, [{ action: 'update', field: 'status', before: 'new', after: 'contacted' }])
  }
}
