import type { CallOutcome, ReplyChannel } from '../../domain/lead-replies.ts'
import type { Sql } from '../db/database.ts'
import { readLeads } from './lead-read-model.ts'

/**
 * What happened with a lead, or with every lead of a customer, newest first (PRODUCT.md, "replies
 * from the console" and "customers"): the shopper's own message, every email and text in and
 * out, every call, note, status change and change of owner, each with who and when. One read
 * model for the lead's page and the customer's.
 */
interface Entry {
  /** Unique in a timeline: the kind and the row's id. */
  key: string
  leadId: number
  /** ISO 8601. */
  at: string
  /** The account, the shopper's name, or "lead routing". */
  who: string
}

export type TimelineEntry =
  | (Entry & { kind: 'arrived'; message: string | null })
  | (Entry & {
      kind: 'message'
      channel: ReplyChannel
      direction: 'in' | 'out'
      body: string
      /** The shopper's email or number (E.164). */
      address: string
      status: MessageStatus
      /** Why it failed or was not sent, as the provider or the server said it. */
      statusDetail: string | null
      /** A text held for texting hours: when it goes. */
      waitsUntil: string | null
    })
  | (Entry & { kind: 'call'; outcome: CallOutcome; note: string | null })
  | (Entry & { kind: 'note'; body: string })
  | (Entry & { kind: 'status' | 'owner'; before: string | null; after: string | null })

export type MessageStatus = 'queued' | 'waiting' | 'sent' | 'delivered' | 'undelivered' | 'failed' | 'not-sent' | 'received'

const iso = (date: Date) => date.toISOString()
/** The kinds in the order they happen within one moment (a reply and the status it set share a time). */
const order: TimelineEntry['kind'][] = ['status', 'owner', 'note', 'call', 'message', 'arrived']

export async function timelineOf(sql: Sql, leadIds: readonly number[], limit = 500): Promise<TimelineEntry[]> {
  if (leadIds.length === 0) return []
  const ids = sql([...leadIds])
  const [leads, messages, calls, notes, changes] = await Promise.all([
    readLeads(sql, sql`i.id in ${ids}`),
    sql<
      {
        id: number
        inquiryId: number
        channel: ReplyChannel
        direction: 'in' | 'out'
        body: string
        author: string | null
        address: string
        status: MessageStatus
        statusDetail: string | null
        at: Date
        waitsUntil: Date | null
      }[]
    >`
      select m.id, m.inquiry_id, m.channel, m.direction, m.body, m.author, m.address, m.status, m.status_detail, m.at,
             case when m.status = 'waiting' then o.next_attempt_at end as waits_until
      from lead_messages m
      left join outbox_messages o on o.lead_message_id = m.id and o.kind in ('reply-email', 'reply-sms')
      where m.inquiry_id in ${ids}
      order by m.id desc limit ${limit}
    `,
    sql<{ id: number; inquiryId: number; outcome: CallOutcome; note: string | null; author: string; at: Date }[]>`
      select id, inquiry_id, outcome, note, author, at from lead_calls where inquiry_id in ${ids} order by id desc limit ${limit}
    `,
    sql<{ id: number; inquiryId: number; author: string; body: string; at: Date }[]>`
      select id::int as id, inquiry_id, author, body, at from lead_notes where inquiry_id in ${ids} order by id desc limit ${limit}
    `,
    sql<{ id: number; entityId: string; actor: string; field: 'status' | 'owner'; before: unknown; after: unknown; at: Date }[]>`
      select id::int as id, entity_id, actor, field, before, after, at from audit_log
      where entity = 'lead' and entity_id in ${sql(leadIds.map(String))} and field in ('status', 'owner')
      order by id desc limit ${limit}
    `,
  ])
  const shopper = new Map(leads.map((lead) => [lead.id, `${lead.firstName} ${lead.lastName}`]))
  // Status and owner changes hold a status or a username: text.
  const text = (value: unknown) => (typeof value === 'string' ? value : null)
  const entries: TimelineEntry[] = [
    ...leads.map((lead): TimelineEntry => ({
      kind: 'arrived',
      key: `arrived-${lead.id}`,
      leadId: lead.id,
      at: iso(new Date(lead.receivedAt)),
      who: shopper.get(lead.id)!,
      message: lead.message,
    })),
    ...messages.map((m): TimelineEntry => ({
      kind: 'message',
      key: `message-${m.id}`,
      leadId: m.inquiryId,
      at: iso(m.at),
      who: m.direction === 'in' ? (shopper.get(m.inquiryId) ?? m.address) : (m.author ?? 'a removed account'),
      channel: m.channel,
      direction: m.direction,
      body: m.body,
      address: m.address,
      status: m.status,
      statusDetail: m.statusDetail,
      waitsUntil: m.waitsUntil ? iso(m.waitsUntil) : null,
    })),
    ...calls.map((c): TimelineEntry => ({ kind: 'call', key: `call-${c.id}`, leadId: c.inquiryId, at: iso(c.at), who: c.author, outcome: c.outcome, note: c.note })),
    ...notes.map((n): TimelineEntry => ({ kind: 'note', key: `note-${n.id}`, leadId: n.inquiryId, at: iso(n.at), who: n.author, body: n.body })),
    ...changes.map((c): TimelineEntry => ({
      kind: c.field,
      key: `${c.field}-${c.id}`,
      leadId: Number(c.entityId),
      at: iso(c.at),
      who: c.actor,
      before: text(c.before),
      after: text(c.after),
    })),
  ]
  return entries
    .sort((a, b) => b.at.localeCompare(a.at) || order.indexOf(a.kind) - order.indexOf(b.kind) || b.key.localeCompare(a.key, 'en', { numeric: true }))
    .slice(0, limit)
}
