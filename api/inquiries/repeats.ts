import { repeatWindowDays } from '../../domain/lead-status.ts'
import type { Sql, TransactionSql } from '../db/database.ts'

/**
 * Repeats (PRODUCT.md, "no lead silently lost"): a lead with the same email or phone as another
 * of the last 30 days is marked as a repeat of the most recent of them. Emails compare without
 * case, phones by their last ten digits, each read off its own index (migration 0016); spam is
 * never matched.
 *
 * The query returns that earlier lead's id (or no row), for use as a subquery: `before` is the
 * time the new lead arrived (now, when it is being stored), `except` the lead itself.
 */
export function earlierLeadQuery(
  sql: Sql | TransactionSql,
  lead: { email: string; phone?: string | null; before?: Date; except?: number },
) {
  // The moment of the query, not of its transaction: a lead that waited for another's customer
  // locks (api/customers/customer-keys.ts) finds it although that one's transaction began later.
  const before = lead.before ?? sql`clock_timestamp()`
  const window = sql`p.spam_reason is null and p.created_at <= ${before}
    and p.created_at > ${before}::timestamptz - ${repeatWindowDays} * interval '1 day'
    ${lead.except === undefined ? sql`` : sql`and p.id <> ${lead.except}`}`
  const digits = (lead.phone ?? '').replace(/\D/g, '').slice(-10)
  const byEmail = sql`
    select p.id, p.created_at from contact_inquiries p
    where ${window} and lower(p.email) = lower(${lead.email})
    order by lower(p.email), p.created_at desc limit 1`
  const byPhone = sql`
    select p.id, p.created_at from contact_inquiries p
    where ${window} and p.phone is not null
      and right(regexp_replace(p.phone, '[^0-9]', '', 'g'), 10) = ${digits}
    order by right(regexp_replace(p.phone, '[^0-9]', '', 'g'), 10), p.created_at desc limit 1`
  return sql`
    select id from (
      (${byEmail})
      ${digits.length >= 7 ? sql`union all (${byPhone})` : sql``}
    ) earlier
    order by created_at desc, id desc limit 1`
}
