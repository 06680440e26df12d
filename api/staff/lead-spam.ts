import { type SpamReason } from '../../domain/inquiry.ts'
import { spamKeptDays } from '../../domain/lead-status.ts'
import type { Sql } from '../db/database.ts'
import { type InquiryStoreOptions, queueNotifications } from '../inquiries/inquiry-store.ts'
import { routeLead } from '../inquiries/lead-routing.ts'
import { joinCustomer } from '../customers/customer-keys.ts'
import { queueArrivalAlerts } from '../leads/staff-alerts.ts'
import { earlierLeadQuery } from '../inquiries/repeats.ts'
import { type Actor, recordChanges } from './audit.ts'
import { NoSuchLeadError } from './lead-inbox.ts'
import { type Lead, leadFields, readLeadPage } from '../leads/lead-read-model.ts'

/**
 * The Spam view (PRODUCT.md, "no lead silently lost"): what the spam rules caught is kept here
 * with the rule that caught it, emailed to nobody; "Not spam" moves a lead to the inbox and
 * queues its notifications then, as if it had just arrived; spam is deleted 30 days after it came.
 */
const spamFields = [
  'id', 'receivedAt', 'firstName', 'lastName', 'email', 'phone', 'message', 'messageCut', 'sourceUrl', 'sourceLabel',
] as const

/** A caught lead: who sent what from where (its message cut to 300 characters), and the rule that caught it. */
export type SpamLead = Pick<Lead, (typeof spamFields)[number]> & { rule: SpamReason }

export function createSpamBox(sql: Sql, leads: InquiryStoreOptions = { notifications: [] }) {
  return {
    /** A page of caught leads, newest first, and how many there are in all. */
    async list(page: { limit: number; offset?: number }): Promise<{ leads: SpamLead[]; total: number }> {
      const { leads, total } = await readLeadPage(sql, sql`i.spam_reason is not null`, { message: 'preview', ...page })
      return { leads: leads.map((lead) => ({ ...leadFields(lead, spamFields), rule: lead.spamReason! })), total }
    },

    /**
     * "Not spam": the lead joins the inbox (checked for repeats as of when it arrived), its
     * notifications are queued in the same transaction, and the change is in its history.
     */
    async notSpam(actor: Actor, id: number): Promise<{ id: number }> {
      await sql.begin(async (tx) => {
        const [lead] = await tx<{ email: string; phone: string | null; createdAt: Date; spamReason: SpamReason; interest: string | null; ownerId: number | null }[]>`
          select email, phone, created_at, spam_reason, interest, owner_id from contact_inquiries
          where id = ${id} and spam_reason is not null
          for update
        `
        if (!lead) throw new NoSuchLeadError(id)
        await tx`
          update contact_inquiries
          set spam_reason = null, entered_inbox_at = now(),
              repeat_of = (${earlierLeadQuery(tx, { email: lead.email, phone: lead.phone, before: lead.createdAt, except: id })})
          where id = ${id}
        `
        await recordChanges(tx, actor, 'lead', id, [{ action: 'update', field: 'spam', before: lead.spamReason, after: null }])
        await joinCustomer(tx, id, lead)
        const owner = lead.ownerId ?? (await routeLead(tx, id, lead.interest))?.id ?? null
        await queueArrivalAlerts(tx, id, owner)
        await queueNotifications(tx, id, leads.notifications)
      })
      leads.onQueued?.()
      return { id }
    },

    /** Deletes spam older than 30 days; returns how many went. */
    async purge(): Promise<number> {
      const deleted = await sql`
        delete from contact_inquiries
        where spam_reason is not null and created_at < now() - ${spamKeptDays} * interval '1 day'
      `
      return deleted.count
    },
  }
}

export type SpamBox = ReturnType<typeof createSpamBox>
