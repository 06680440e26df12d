import type { LeadStatus } from '../../domain/lead-status.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import type { NotificationKind } from '../inquiries/inquiry-store.ts'
import { serviceRequestOf } from '../inquiries/service-requests.ts'
import { rentalRequestOf } from '../rentals/rental-store.ts'
import type { RentalRequestDetails } from '../../domain/rental-request.ts'
import type { ServiceRequestDetails } from '../../domain/service-request.ts'
import { type Actor, type AuditEntry, historyOf, recordChanges } from './audit.ts'
import { type TimelineEntry, timelineOf } from '../leads/lead-timeline.ts'
import {
  type DeliveredLead,
  type Lead,
  leadConditions,
  type LeadFilter,
  type LeadLink,
  type LeadOwner,
  readLead,
  type LeadRead,
  readLeadPage,
  readLeads,
  withDeliveries,
} from '../leads/lead-read-model.ts'

/**
 * The staff's lead inbox (PRODUCT.md, "leads"): every inquiry that is not spam, newest first,
 * with its cart, source, the delivery of its notifications, its status and owner; and the work
 * done on it (status, owner, notes, sending a failed notification again), each change written
 * to the audit log in the same transaction. Leads are read through api/leads/lead-read-model.ts.
 */

export interface LeadQuery extends LeadFilter {
  limit: number
  offset?: number
}

/** One row of the inbox: the lead (its message cut to 300 characters) with its notifications. */
export type LeadSummary = Omit<DeliveredLead, 'spamReason'>

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
  /** Everything that happened with the lead, newest first (api/leads/lead-timeline.ts). */
  timeline: TimelineEntry[]
  /** Later leads from the same person (repeats of this one), oldest first. */
  repeats: LeadLink[]
  /** A rental request's details, with its place in the calendar (issue #33). */
  rental: RentalRequestDetails | null
  /** A service request's details (issue #33). */
  service: ServiceRequestDetails | null
}

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

/** The inbox's view of leads: with their deliveries, without the spam rule (none has one). */
async function summaries(db: Sql | TransactionSql, leads: readonly Lead[]): Promise<LeadSummary[]> {
  return (await withDeliveries(db, leads)).map(({ spamReason: _none, ...lead }) => lead)
}

export interface LeadInboxOptions {
  /** Wakes this process's outbox worker after "send again now". */
  wakeOutbox?(): void
}

export function createLeadInbox(sql: Sql, options: LeadInboxOptions = {}) {
  /** A lead of the inbox with its deliveries, its message as `read` asks. */
  async function summaryOf(db: Sql | TransactionSql, id: number, read: LeadRead): Promise<LeadSummary> {
    const lead = await readLead(db, id, read)
    if (!lead) throw new NoSuchLeadError(id)
    const [summary] = await summaries(db, [lead])
    return summary!
  }

  async function write(id: number, work: (tx: TransactionSql, lead: LeadSummary) => Promise<void>): Promise<LeadSummary> {
    await sql.begin(async (tx) => work(tx, await summaryOf(tx, id, { message: 'preview', lock: true })))
    return summaryOf(sql, id, { message: 'preview' })
  }

  return {
    /** A page of the inbox, newest first, and how many leads match in all. */
    async list(query: LeadQuery): Promise<{ leads: LeadSummary[]; total: number }> {
      const page = await readLeadPage(sql, leadConditions(sql, query), { message: 'preview', limit: query.limit, offset: query.offset })
      return { leads: await summaries(sql, page.leads), total: page.total }
    },

    /** A lead's page: the whole message, its notes (oldest first) and its history (newest first). */
    async get(id: number): Promise<LeadDetail> {
      const lead = await summaryOf(sql, id, { message: 'whole' })
      const [notes, history, repeats, rental, service, timeline] = await Promise.all([
        sql<LeadNote[]>`
          select id::int as id, to_json(at) #>> '{}' as at, author, body
          from lead_notes where inquiry_id = ${id} order by id
        `,
        historyOf(sql, 'lead', id, { limit: 200 }),
        readLeads(sql, sql`i.repeat_of = ${id} and i.spam_reason is null`),
        lead.interest === 'rentals' ? rentalRequestOf(sql, id) : null,
        lead.interest === 'service' ? serviceRequestOf(sql, id) : null,
        timelineOf(sql, [id]),
      ])
      // Oldest first, as links.
      const links = repeats.reverse().map(({ id, receivedAt }): LeadLink => ({ id, receivedAt }))
      return { ...lead, notes: [...notes], history, repeats: links, rental, service, timeline }
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
        // Not a response: only a reply or a call is (api/leads/lead-replies.ts).
        await tx`update contact_inquiries set status = ${status} where id = ${id}`
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
        await summaryOf(tx, id, { lock: true })
        const [row] = await tx<LeadNote[]>`
          insert into lead_notes (inquiry_id, author_id, author, body)
          values (${id}, ${actor.id}, ${actor.name}, ${body})
          returning id::int as id, to_json(at) #>> '{}' as at, author, body
        `
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
