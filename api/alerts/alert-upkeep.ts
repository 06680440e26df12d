import { alertRules, dayMs } from '../../domain/cart-alerts.ts'
import type { Sql } from '../db/database.ts'

/**
 * Shoppers' addresses are kept only while they are of use (PRODUCT.md, "what watchers get"; the
 * privacy policy says so): a watch never confirmed goes when its link expires, a watch ended by
 * a sale once its last email is sent, any other a year after its last alert (or its confirmation
 * when none came). What the alerts kept about each change and each address goes after a day.
 * Run by every process's upkeep (api/leads/lead-upkeep.ts); safe run twice at once.
 */
export function createAlertUpkeep(sql: Sql) {
  return {
    /** Deletes what is no longer needed as of `now`; returns how many watches went. */
    async purge(now: Date = new Date()): Promise<number> {
      const dayAgo = new Date(now.getTime() - dayMs)
      const unconfirmedSince = new Date(now.getTime() - alertRules.confirmWithinDays * dayMs)
      const keptSince = new Date(now.getTime() - alertRules.keepDays * dayMs)
      const watches = await sql`
        delete from cart_watches w
        where (w.confirmed_at is null and w.created_at < ${unconfirmedSince})
          or (w.confirmed_at is not null and coalesce(w.last_alert_at, w.confirmed_at) < ${keptSince})
          or (w.ended_at is not null and not exists (select 1 from outbox_messages o where o.watch_id = w.id and o.sent_at is null))
      `
      await sql`delete from cart_alert_sends where sent_at < ${dayAgo}`
      await sql`delete from cart_alert_events where handled_at < ${dayAgo}`
      await sql`delete from cart_watch_matches where digested_at < ${dayAgo}`
      return watches.count
    },
  }
}

export type AlertUpkeep = ReturnType<typeof createAlertUpkeep>
