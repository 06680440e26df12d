import type postgres from 'postgres'
import type { LeadInterest, SpamReason } from '../../domain/inquiry.ts'
import { dealerTimeZone, type DeliveryState, deliverySummary, type LeadStatus } from '../../domain/lead-status.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { type NotificationKind, notificationKinds, type StoredInquiry } from '../inquiries/inquiry-store.ts'

/**
 * The lead as staff read it (issue #46, decision 0036): the one place that says which columns of
 * `contact_inquiries` make a lead, which conditions narrow them, and how a row becomes a `Lead`.
 * Every reader is a view of it: the inbox's row and the lead's page (api/staff/lead-inbox.ts), the
 * Spam view (api/staff/lead-spam.ts), `npm run leads` and its CSV (leads-report.ts), the
 * timeline's arrival (lead-timeline.ts), the replies' lock (lead-replies.ts) and the dashboard's
 * range (api/staff/lead-dashboard.ts). A view is a `Pick` of `Lead`, plus what only it adds.
 */

export interface LeadOwner {
  id: number
  username: string
}

/** Another lead, as a link to it. */
export interface LeadLink {
  id: number
  receivedAt: string
}

/** A lead: what the visitor sent (as the inquiry store keeps it), where it came from, and where staff are with it. */
export interface Lead extends Pick<StoredInquiry, 'id' | 'firstName' | 'lastName' | 'email' | 'phone' | 'interest' | 'sourceUrl' | 'sourceLabel'> {
  /** ISO 8601. */
  receivedAt: string
  /** The whole message; read as a `preview`, its first 300 characters, `messageCut` saying there is more. */
  message: string | null
  messageCut: boolean
  /** The cart the visitor asked about, as it was then (its page may have gone since). */
  cart: { slug: string; title: string | null; price: number | null } | null
  /** The label, else the page's host; null when neither was sent. */
  source: string | null
  status: LeadStatus
  owner: LeadOwner | null
  firstResponseAt: string | null
  /** The earlier lead of the last 30 days with the same email or phone, when there is one. */
  repeatOf: LeadLink | null
  /** The customer every lead of this person belongs to (`/staff/customers/{id}`). */
  customerId: number | null
  /** The rule that caught it; null for every lead in the inbox. */
  spamReason: SpamReason | null
}

/** A view's fields of a lead, in their order; the view's type is `Pick<Lead, (typeof fields)[number]>`. */
export function leadFields<K extends keyof Lead>(lead: Lead, fields: readonly K[]): Pick<Lead, K> {
  return Object.fromEntries(fields.map((field) => [field, lead[field]])) as Pick<Lead, K>
}

/** One notification of a lead and how its delivery stands. */
export interface LeadDelivery {
  kind: NotificationKind
  state: DeliveryState
  attempts: number
  /** Why the last attempt failed (the step and the mail server's answer). */
  lastError: string | null
  /** When the worker tries again; null once sent. */
  nextAttemptAt: string | null
  sentAt: string | null
}

/** A lead with its notifications: their joint state in one word, and each one's. */
export interface DeliveredLead extends Lead {
  delivery: DeliveryState | 'none'
  deliveries: LeadDelivery[]
}

export const messagePreviewLength = 300

/** What the inbox can be narrowed to. Days are the dealer's (New Jersey), inclusive. */
export interface LeadFilter {
  status?: LeadStatus
  /** A staff account's id, or `none` for leads nobody owns. */
  owner?: number | 'none'
  interest?: LeadInterest | 'none'
  /** A source as the inbox names it (the embed's label, else the page's host), or `none`. */
  source?: string
  /** `YYYY-MM-DD`, received on or after that day. */
  from?: string
  /** `YYYY-MM-DD`, received on or before that day. */
  to?: string
  /** Words that must each appear in the name, the email or the phone number (digits). */
  q?: string
}

/** A search word: phone-like words are searched as their digits, the rest in lower case. */
export function searchTerms(q: string | undefined): string[] {
  return (q ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 8)
    .map((word) => (/^[\d\s().+-]+$/.test(word) && /\d/.test(word) ? word.replace(/\D/g, '') : word.toLowerCase()))
    .filter(Boolean)
}

/** A `like` pattern that finds the word anywhere, its own % and _ taken literally. */
const containing = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The filter as SQL conditions on `contact_inquiries i`; spam is never in the inbox. */
export function leadConditions(sql: Sql | TransactionSql, filter: LeadFilter) {
  const dayStart = (day: string) => sql`((${day}::date)::timestamp at time zone ${dealerTimeZone})`
  const conditions = [
    sql`i.spam_reason is null`,
    ...(filter.status ? [sql`i.status = ${filter.status}`] : []),
    ...(filter.owner === 'none' ? [sql`i.owner_id is null`] : filter.owner !== undefined ? [sql`i.owner_id = ${filter.owner}`] : []),
    ...(filter.interest === 'none' ? [sql`i.interest is null`] : filter.interest ? [sql`i.interest = ${filter.interest}`] : []),
    ...(filter.source === 'none' ? [sql`i.source is null`] : filter.source ? [sql`i.source = ${filter.source}`] : []),
    ...(filter.from ? [sql`i.created_at >= ${dayStart(filter.from)}`] : []),
    ...(filter.to ? [sql`i.created_at < ${sql`((${filter.to}::date + 1)::timestamp at time zone ${dealerTimeZone})`}`] : []),
    ...searchTerms(filter.q).map((word) => sql`i.search_text like ${containing(word)}`),
  ]
  return conditions.reduce((acc, condition) => sql`${acc} and ${condition}`)
}

/** How a read takes the message and the rows. */
export interface LeadRead {
  /** `preview`: the first 300 characters (as lists show it); `whole` (the default): all of it. */
  message?: 'preview' | 'whole'
  limit?: number
  offset?: number
  /** Locks the leads' rows for the caller's transaction (`for update`). */
  lock?: boolean
}

/** A row as selected, before `toLead` gives it its shape. */
interface SelectedRow extends Omit<Lead, 'cart' | 'owner' | 'repeatOf'> {
  cartSlug: string | null
  cartTitle: string | null
  cartPrice: number | null
  ownerId: number | null
  ownerName: string | null
  repeatOfId: number | null
  repeatOfAt: string | null
}

function toLead(row: SelectedRow): Lead {
  const { cartSlug, cartTitle, cartPrice, ownerId, ownerName, repeatOfId, repeatOfAt, messageCut, ...rest } = row
  return {
    ...rest,
    messageCut: Boolean(messageCut),
    cart: cartSlug ? { slug: cartSlug, title: cartTitle, price: cartPrice } : null,
    owner: ownerId !== null && ownerName !== null ? { id: ownerId, username: ownerName } : null,
    repeatOf: repeatOfId !== null && repeatOfAt !== null ? { id: repeatOfId, receivedAt: repeatOfAt } : null,
  }
}

/** The leads `where` (conditions on `contact_inquiries i`) selects, newest first. */
export async function readLeads(db: Sql | TransactionSql, where: postgres.Fragment, read: LeadRead = {}): Promise<Lead[]> {
  const message =
    read.message === 'preview'
      ? db`left(i.message, ${messagePreviewLength}) as message, length(i.message) > ${messagePreviewLength} as message_cut`
      : db`i.message, false as message_cut`
  const rows = await db<SelectedRow[]>`
    select i.id, to_json(i.created_at) #>> '{}' as received_at, i.first_name, i.last_name, i.email, i.phone,
           i.interest, ${message}, i.cart_slug, i.cart_title, i.cart_price::float8 as cart_price, i.source_url,
           i.source_label, i.source, i.status, i.owner_id, u.username as owner_name,
           to_json(i.first_response_at) #>> '{}' as first_response_at, i.repeat_of as repeat_of_id,
           (select to_json(r.created_at) #>> '{}' from contact_inquiries r where r.id = i.repeat_of) as repeat_of_at,
           i.customer_id, i.spam_reason
    from contact_inquiries i left join users u on u.id = i.owner_id
    where ${where}
    order by i.created_at desc, i.id desc
    ${read.limit === undefined ? db`` : db`limit ${read.limit} offset ${read.offset ?? 0}`}
    ${read.lock ? db`for update of i` : db``}
  `
  return rows.map(toLead)
}

/** A page of the leads `where` selects, newest first, and how many it selects in all. */
export async function readLeadPage(
  db: Sql,
  where: postgres.Fragment,
  read: LeadRead & { limit: number },
): Promise<{ leads: Lead[]; total: number }> {
  const [leads, [count]] = await Promise.all([
    readLeads(db, where, read),
    db<[{ total: number }]>`select count(*)::int as total from contact_inquiries i where ${where}`,
  ])
  return { leads, total: count?.total ?? 0 }
}

/** One lead of the inbox (spam is not), or undefined. */
export async function readLead(db: Sql | TransactionSql, id: number, read: LeadRead = {}): Promise<Lead | undefined> {
  const [lead] = await readLeads(db, db`i.id = ${id} and i.spam_reason is null`, read)
  return lead
}

interface DeliveryRow {
  inquiryId: number
  kind: NotificationKind
  attempts: number
  lastError: string | null
  nextAttemptAt: string
  sentAt: string | null
  sending: boolean
  due: boolean
}

/** The leads with their notifications' delivery (the outbox's rows of `notificationKinds`). */
export async function withDeliveries(db: Sql | TransactionSql, leads: readonly Lead[]): Promise<DeliveredLead[]> {
  const byLead = new Map<number, LeadDelivery[]>()
  if (leads.length > 0) {
    const rows = await db<DeliveryRow[]>`
      select inquiry_id, kind, attempts, last_error, to_json(next_attempt_at) #>> '{}' as next_attempt_at,
             to_json(sent_at) #>> '{}' as sent_at, coalesce(claimed_until > now(), false) as sending,
             next_attempt_at <= now() as due
      from outbox_messages
      where inquiry_id = any(${db.array(leads.map((lead) => lead.id))}::int[]) and kind in ${db(notificationKinds)}
      order by inquiry_id, id
    `
    for (const row of rows) {
      // A failed notification made due again ("send again now", or its retry time came) is queued.
      const state: DeliveryState = row.sentAt ? 'sent' : row.sending ? 'sending' : row.lastError && !row.due ? 'failed' : 'queued'
      const list = byLead.get(row.inquiryId) ?? []
      list.push({
        kind: row.kind,
        state,
        attempts: row.attempts,
        lastError: row.sentAt ? null : row.lastError,
        nextAttemptAt: row.sentAt ? null : row.nextAttemptAt,
        sentAt: row.sentAt,
      })
      byLead.set(row.inquiryId, list)
    }
  }
  return leads.map((lead) => {
    const deliveries = byLead.get(lead.id) ?? []
    return { ...lead, delivery: deliverySummary(deliveries.map((d) => d.state)), deliveries }
  })
}
