import type { Interest } from '../../domain/inquiry.ts'
import { dealerTimeZone, type DeliveryState, deliverySummary, type LeadStatus } from '../../domain/lead-status.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { type NotificationKind, notificationKinds } from '../inquiries/inquiry-store.ts'
import { serviceRequestOf } from '../inquiries/service-requests.ts'
import { rentalRequestOf } from '../rentals/rental-store.ts'
import type { RentalRequestDetails } from '../../domain/rental-request.ts'
import type { ServiceRequestDetails } from '../../domain/service-request.ts'
import { type Actor, type AuditEntry, historyOf, recordChanges } from './audit.ts'

/**
 * The staff's lead inbox (PRODUCT.md, "leads"): every inquiry that is not spam, newest first,
 * with its cart, source, the delivery of its notifications, its status and owner; and the work
 * done on it (status, owner, notes, sending a failed notification again), each change written
 * to the audit log in the same transaction.
 */

/** What the inbox can be narrowed to. Days are the dealer's (New Jersey), inclusive. */
export interface LeadFilter {
  status?: LeadStatus
  /** A staff account's id, or `none` for leads nobody owns. */
  owner?: number | 'none'
  interest?: Interest | 'none'
  /** A source as the inbox names it (the embed's label, else the page's host), or `none`. */
  source?: string
  /** `YYYY-MM-DD`, received on or after that day. */
  from?: string
  /** `YYYY-MM-DD`, received on or before that day. */
  to?: string
  /** Words that must each appear in the name, the email or the phone number (digits). */
  q?: string
}

export interface LeadQuery extends LeadFilter {
  limit: number
  offset?: number
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

export interface LeadOwner {
  id: number
  username: string
}

/** One row of the inbox. */
export interface LeadSummary {
  id: number
  receivedAt: string
  firstName: string
  lastName: string
  email: string
  phone: string | null
  interest: Interest | null
  /** The message's first 300 characters; `messageCut` says there is more on the lead's page. */
  message: string | null
  messageCut: boolean
  /** The cart the visitor asked about, as it was then (its page may have gone since). */
  cart: { slug: string; title: string | null; price: number | null } | null
  sourceUrl: string | null
  sourceLabel: string | null
  /** The label, else the page's host; null when neither was sent. */
  source: string | null
  status: LeadStatus
  owner: LeadOwner | null
  firstResponseAt: string | null
  /** The notifications' joint state in one word, and each one's. */
  delivery: DeliveryState | 'none'
  deliveries: LeadDelivery[]
  /** The earlier lead of the last 30 days with the same email or phone, when there is one. */
  repeatOf: LeadLink | null
}

/** Another lead, as a link to it. */
export interface LeadLink {
  id: number
  receivedAt: string
}

export interface LeadNote {
  id: number
  at: string
  author: string
  body: string
}

/** A lead's page: the whole message, its notes and its history. */
export interface LeadDetail extends LeadSummary {
  history: AuditEntry[]
  notes: LeadNote[]
  /** Later leads from the same person (repeats of this one), oldest first. */
  repeats: LeadLink[]
  /** A rental request's details, with its place in the calendar (issue #33). */
  rental: RentalRequestDetails | null
  /** A service request's details (issue #33). */
  service: ServiceRequestDetails | null
}

export const messagePreviewLength = 300

export class NoSuchLeadError extends Error {
  override name = 'NoSuchLeadError'
  constructor(readonly id: number) {
    super(`No lead has the id ${id}`)
  }
}

/** A change the lead's state does not allow, said in the staff's words (409 or 400). */
export class LeadActionError extends Error {
  override name = 'LeadActionError'
  constructor(
    message: string,
    readonly kind: 'conflict' | 'invalid',
  ) {
    super(message)
  }
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

const summaryColumns = (sql: Sql | TransactionSql) => sql`
  i.id, to_json(i.created_at) #>> '{}' as received_at, i.first_name, i.last_name, i.email, i.phone,
  i.interest, i.cart_slug, i.cart_title, i.cart_price::float8 as cart_price, i.source_url,
  i.source_label, i.source, i.status, i.owner_id, u.username as owner_name,
  to_json(i.first_response_at) #>> '{}' as first_response_at, i.repeat_of,
  (select to_json(r.created_at) #>> '{}' from contact_inquiries r where r.id = i.repeat_of) as repeat_of_at
`

interface SummaryRow {
  id: number
  receivedAt: string
  firstName: string
  lastName: string
  email: string
  phone: string | null
  interest: Interest | null
  message: string | null
  messageCut: boolean
  cartSlug: string | null
  cartTitle: string | null
  cartPrice: number | null
  sourceUrl: string | null
  sourceLabel: string | null
  source: string | null
  status: LeadStatus
  ownerId: number | null
  ownerName: string | null
  firstResponseAt: string | null
  repeatOf: number | null
  repeatOfAt: string | null
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

async function deliveriesOf(sql: Sql | TransactionSql, ids: readonly number[]): Promise<Map<number, LeadDelivery[]>> {
  const byLead = new Map<number, LeadDelivery[]>()
  if (ids.length === 0) return byLead
  const rows = await sql<DeliveryRow[]>`
    select inquiry_id, kind, attempts, last_error, to_json(next_attempt_at) #>> '{}' as next_attempt_at,
           to_json(sent_at) #>> '{}' as sent_at, coalesce(claimed_until > now(), false) as sending,
           next_attempt_at <= now() as due
    from outbox_messages where inquiry_id in ${sql(ids as number[])} and kind in ${sql(notificationKinds)}
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
  return byLead
}

function toSummary(row: SummaryRow, deliveries: LeadDelivery[]): LeadSummary {
  const { cartSlug, cartTitle, cartPrice, ownerId, ownerName, repeatOf, repeatOfAt, ...rest } = row
  return {
    ...rest,
    repeatOf: repeatOf !== null && repeatOfAt !== null ? { id: repeatOf, receivedAt: repeatOfAt } : null,
    cart: cartSlug ? { slug: cartSlug, title: cartTitle, price: cartPrice } : null,
    owner: ownerId !== null && ownerName !== null ? { id: ownerId, username: ownerName } : null,
    delivery: deliverySummary(deliveries.map((d) => d.state)),
    deliveries,
  }
}

export interface LeadInboxOptions {
  /** Wakes this process's outbox worker after "send again now". */
  wakeOutbox?(): void
}

export function createLeadInbox(sql: Sql, options: LeadInboxOptions = {}) {
  async function readLead(db: Sql | TransactionSql, id: number, lock = false): Promise<LeadSummary & { fullMessage: string | null }> {
    const [row] = await db<(SummaryRow & { fullMessage: string | null })[]>`
      select ${summaryColumns(db)}, i.message as full_message,
             left(i.message, ${messagePreviewLength}) as message, length(i.message) > ${messagePreviewLength} as message_cut
      from contact_inquiries i left join users u on u.id = i.owner_id
      where i.id = ${id} and i.spam_reason is null
      ${lock ? db`for update of i` : db``}
    `
    if (!row) throw new NoSuchLeadError(id)
    const { fullMessage, ...summary } = row
    return { ...toSummary(summary, (await deliveriesOf(db, [id])).get(id) ?? []), fullMessage }
  }

  /** Marks the first response (status change or note) and who gave it if there was none, in the same transaction. */
  const firstResponse = (tx: TransactionSql, id: number, actor: Actor) =>
    tx`
      update contact_inquiries set first_response_at = now(), first_response_by = ${actor.id}
      where id = ${id} and first_response_at is null
    `

  async function write(id: number, work: (tx: TransactionSql, lead: LeadSummary) => Promise<void>): Promise<LeadSummary> {
    await sql.begin(async (tx) => work(tx, await readLead(tx, id, true)))
    const { fullMessage: _full, ...lead } = await readLead(sql, id)
    return lead
  }

  return {
    /** A page of the inbox, newest first, and how many leads match in all. */
    async list(query: LeadQuery): Promise<{ leads: LeadSummary[]; total: number }> {
      const where = leadConditions(sql, query)
      const [rows, [count]] = await Promise.all([
        sql<SummaryRow[]>`
          select ${summaryColumns(sql)},
                 left(i.message, ${messagePreviewLength}) as message, length(i.message) > ${messagePreviewLength} as message_cut
          from contact_inquiries i left join users u on u.id = i.owner_id
          where ${where}
          order by i.created_at desc, i.id desc
          limit ${query.limit} offset ${query.offset ?? 0}
        `,
        sql<[{ total: number }]>`select count(*)::int as total from contact_inquiries i where ${where}`,
      ])
      const deliveries = await deliveriesOf(sql, rows.map((r) => r.id))
      return { leads: rows.map((row) => toSummary(row, deliveries.get(row.id) ?? [])), total: count?.total ?? 0 }
    },

    /** A lead's page: the whole message, its notes (oldest first) and its history (newest first). */
    async get(id: number): Promise<LeadDetail> {
      const { fullMessage, ...lead } = await readLead(sql, id)
      const [notes, history, repeats, rental, service] = await Promise.all([
        sql<LeadNote[]>`
          select id::int as id, to_json(at) #>> '{}' as at, author, body
          from lead_notes where inquiry_id = ${id} order by id
        `,
        historyOf(sql, 'lead', id, { limit: 200 }),
        sql<LeadLink[]>`
          select id, to_json(created_at) #>> '{}' as received_at
          from contact_inquiries where repeat_of = ${id} and spam_reason is null order by created_at, id
        `,
        lead.interest === 'rentals' ? rentalRequestOf(sql, id) : null,
        lead.interest === 'service' ? serviceRequestOf(sql, id) : null,
      ])
      return { ...lead, message: fullMessage, messageCut: false, notes: [...notes], history, repeats: [...repeats], rental, service }
    },

    /** What the filters offer: the staff who can own leads, and every source seen. */
    async choices(): Promise<{ owners: LeadOwner[]; sources: string[] }> {
      const [owners, sources] = await Promise.all([
        sql<LeadOwner[]>`select id, username from users where not disabled order by username`,
        // Each source once, by hopping along the source index (a "loose index scan"): a few
        // dozen index probes instead of reading 100,000 entries on every page of the inbox.
        sql<{ source: string }[]>`
          with recursive seen as (
            (select source from contact_inquiries
             where spam_reason is null and source is not null order by source limit 1)
            union all
            select (select i.source from contact_inquiries i
                    where i.spam_reason is null and i.source > seen.source order by i.source limit 1)
            from seen where seen.source is not null
          )
          select source from seen where source is not null limit 500
        `,
      ])
      return { owners: [...owners], sources: sources.map((s) => s.source) }
    },

    setStatus(actor: Actor, id: number, status: LeadStatus): Promise<LeadSummary> {
      return write(id, async (tx, lead) => {
        if (lead.status === status) return
        await tx`update contact_inquiries set status = ${status} where id = ${id}`
        await firstResponse(tx, id, actor)
        await recordChanges(tx, actor, 'lead', id, [{ action: 'update', field: 'status', before: lead.status, after: status }])
      })
    },

    /** Gives the lead to a staff member, or to nobody (`null`). */
    assign(actor: Actor, id: number, ownerId: number | null): Promise<LeadSummary> {
      return write(id, async (tx, lead) => {
        if ((lead.owner?.id ?? null) === ownerId) return
        let owner: LeadOwner | null = null
        if (ownerId !== null) {
          ;[owner = null] = await tx<LeadOwner[]>`select id, username from users where id = ${ownerId} and not disabled`
          if (!owner) throw new LeadActionError(`No staff account has the id ${ownerId}`, 'invalid')
        }
        await tx`update contact_inquiries set owner_id = ${ownerId} where id = ${id}`
        await recordChanges(tx, actor, 'lead', id, [
          { action: 'update', field: 'owner', before: lead.owner?.username ?? null, after: owner?.username ?? null },
        ])
      })
    },

    async addNote(actor: Actor, id: number, body: string): Promise<LeadNote> {
      const note = await sql.begin(async (tx) => {
        await readLead(tx, id, true)
        const [row] = await tx<LeadNote[]>`
          insert into lead_notes (inquiry_id, author_id, author, body)
          values (${id}, ${actor.id}, ${actor.name}, ${body})
          returning id::int as id, to_json(at) #>> '{}' as at, author, body
        `
        await firstResponse(tx, id, actor)
        await recordChanges(tx, actor, 'lead', id, [{ action: 'create', field: 'note', after: body }])
        return row!
      })
      return note
    },

    /**
     * "Send again now": a notification that has not gone out is made due at once (its retry
     * count and last error stay, for the record) and this process's worker is woken. Any
     * process's worker may take it; the claim keeps it from going out twice.
     */
    async resend(actor: Actor, id: number, kind: NotificationKind): Promise<LeadSummary> {
      const lead = await write(id, async (tx, lead) => {
        const delivery = lead.deliveries.find((d) => d.kind === kind)
        if (!delivery) throw new LeadActionError(`This lead has no ${kind} to send`, 'invalid')
        if (delivery.state === 'sent') throw new LeadActionError(`The ${kind} of this lead was already sent`, 'conflict')
        if (delivery.state === 'sending') throw new LeadActionError(`The ${kind} of this lead is being sent right now`, 'conflict')
        await tx`
          update outbox_messages set next_attempt_at = now()
          where inquiry_id = ${id} and kind = ${kind} and sent_at is null
        `
        await recordChanges(tx, actor, 'lead', id, [
          {
            action: 'update',
            field: 'delivery',
            before: { kind, nextAttemptAt: delivery.nextAttemptAt, lastError: delivery.lastError },
            after: { kind, nextAttemptAt: 'now' },
          },
        ])
      })
      options.wakeOutbox?.()
      return lead
    },
  }
}

export type LeadInbox = ReturnType<typeof createLeadInbox>
