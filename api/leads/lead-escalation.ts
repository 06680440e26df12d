import { afterBusinessMinutes } from '../../domain/business-hours.ts'
import type { Sql } from '../db/database.ts'
import { queueEscalationAlerts } from './staff-alerts.ts'

/**
 * Escalation (PRODUCT.md, "escalation" and "first response"): a lead without a first response
 * (a reply or a logged call: a status change or a note is none) `minutes` of business hours after
 * it arrived alerts every manager and owner once, by email and push, through the outbox. A lead
 * already closed (won, lost) is not escalated, nor one with a follow-up not yet due (PRODUCT.md,
 * "follow-ups": someone has said when they will call); once the task is due, its own alert goes
 * to the owner and escalation counts again.
 *
 * Every server process checks (api/leads/lead-upkeep.ts); a lead is claimed by setting its
 * `escalated_at` where it is still null, in the transaction that queues its alerts, so however
 * many processes look at once, one queues them, once. Time is given, not read, so tests can
 * stand on a Monday morning.
 */
export function createLeadEscalation(sql: Sql, options: { minutes: number; onQueued?(): void }) {
  const { minutes } = options
  return {
    /** When a lead received at `receivedAt` escalates if nobody answers it. */
    dueAt(receivedAt: Date): Date {
      return afterBusinessMinutes(receivedAt, minutes)
    },

    /** Escalates every lead due by `now`; returns their ids. */
    async run(now: Date = new Date()): Promise<number[]> {
      // Business minutes are never fewer than wall-clock ones: nothing younger can be due.
      // A lead let in from the Spam view counts from then (entered_inbox_at), else from its arrival.
      const waiting = await sql<{ id: number; since: Date }[]>`
        select id, coalesce(entered_inbox_at, created_at) as since from contact_inquiries
        where first_response_at is null and escalated_at is null and spam_reason is null and status not in ('won', 'lost')
          and not exists (select 1 from lead_tasks t where t.inquiry_id = contact_inquiries.id and t.done_at is null and t.due_at > ${now})
          and created_at <= ${new Date(now.getTime() - minutes * 60_000)}
          and coalesce(entered_inbox_at, created_at) <= ${new Date(now.getTime() - minutes * 60_000)}
        order by created_at
        limit 1000
      `
      const escalated: number[] = []
      for (const lead of waiting) {
        if (this.dueAt(new Date(lead.since)) > now) continue
        const claimed = await sql.begin(async (tx) => {
          const rows = await tx`
            update contact_inquiries set escalated_at = ${now}
            where id = ${lead.id} and first_response_at is null and escalated_at is null and spam_reason is null
              and status not in ('won', 'lost')
              and not exists (select 1 from lead_tasks t where t.inquiry_id = ${lead.id} and t.done_at is null and t.due_at > ${now})
            returning id
          `
          if (rows.length === 0) return false
          await queueEscalationAlerts(tx, lead.id)
          return true
        })
        if (claimed) escalated.push(lead.id)
      }
      if (escalated.length > 0) options.onQueued?.()
      return escalated
    },
  }
}

export type LeadEscalation = ReturnType<typeof createLeadEscalation>
