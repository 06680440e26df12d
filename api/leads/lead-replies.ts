import { callOutcomeLabels, type LogCallInput, type ReplyChannel, type ReplyInput, replyNotice } from '../../domain/lead-replies.ts'
import { phoneKey, readablePhone, textAddress } from '../../domain/phone-number.ts'
import { textSendTime } from '../../domain/texting.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import type { Actor } from '../staff/audit.ts'
import { recordFirstResponse } from './first-response.ts'
import { type Lead, readLead } from './lead-read-model.ts'
import { LeadActionError, NoSuchLeadError } from '../staff/lead-inbox.ts'
import { consentOf } from '../texts/text-consents.ts'

/**
 * Answering the shopper from the console (PRODUCT.md, "replies from the console" and "first
 * response"): an email or a text, queued in the outbox in the transaction that records it (so it
 * survives a restart and goes once), or a call logged. Each is the lead's first response if it
 * had none: a status change or a note never is. A reply or a call that reached the shopper (or
 * their voicemail) marks a New lead Contacted.
 */
export interface TextingState {
  /** Whether the sms channel exists here (Twilio configured). */
  available: boolean
  /** Why not, in the owner's or the salesperson's words: what to set, or why this number may not be texted. */
  reason?: string
  /** Texting hours are over (21:00-08:00, New Jersey): a text written now goes then (ISO 8601). */
  waitsUntil?: string
}

export const textingNotSetUp =
  'Texting is not set up: the owner sets TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM on the server (docs/DEPLOY.md, “Texting”).'

export interface ReplyOptions {
  /** The dealer's Twilio number when texting is configured. */
  textFrom?: string
  /** The clock texting hours and first responses are read from (tests stand at 22:30). */
  clock?: () => Date
  /** Wakes this process's outbox worker after a commit that queued something. */
  wakeOutbox?(): void
}

export interface ReplyReceipt {
  messageId: number
  channel: ReplyChannel
  status: 'queued' | 'waiting'
  /** A text held for texting hours: when it goes (ISO 8601). */
  waitsUntil: string | null
  /** What the console says: where it went, or when it will. */
  notice: string
}

/** The lead of the inbox a reply or a call is about, locked for the transaction. */
async function lockLead(tx: TransactionSql, id: number): Promise<Lead> {
  const lead = await readLead(tx, id, { lock: true })
  if (!lead) throw new NoSuchLeadError(id)
  return lead
}

/** Why a lead's number cannot be texted now, in the salesperson's words; undefined when it can. */
export async function textRefusal(sql: Sql | TransactionSql, lead: { firstName: string; phone: string | null }): Promise<string | undefined> {
  const address = textAddress(lead.phone)
  const key = phoneKey(lead.phone)
  if (!address || !key) return `${lead.firstName} gave no phone number that can be texted: email them instead.`
  const consent = await consentOf(sql, key)
  const number = readablePhone(address)
  if (!consent) return `${lead.firstName} has not agreed to texts at ${number}: call or email instead.`
  if (!consent.given) {
    const day = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', dateStyle: 'medium' }).format(consent.at)
    return `${number} opted out of texts on ${day} (${consent.wording}): no texts until they text START. Call or email instead.`
  }
  return undefined
}

export function createLeadReplies(sql: Sql, options: ReplyOptions = {}) {
  const clock = options.clock ?? (() => new Date())
  return {
    /** Whether this lead can be texted now, and why not in the salesperson's words. */
    async texting(lead: { firstName: string; phone: string | null }): Promise<TextingState> {
      if (!options.textFrom) return { available: false, reason: textingNotSetUp }
      const refused = await textRefusal(sql, lead)
      if (refused) return { available: false, reason: refused }
      const now = clock()
      const sendAt = textSendTime(now)
      return sendAt.getTime() > now.getTime() ? { available: true, waitsUntil: sendAt.toISOString() } : { available: true }
    },

    /** An email from the dealer's address in the salesperson's name, or a text from the dealer's number. */
    async reply(actor: Actor, input: ReplyInput): Promise<ReplyReceipt> {
      const now = clock()
      const receipt = await sql.begin(async (tx): Promise<ReplyReceipt> => {
        const lead = await lockLead(tx, input.id)
        let address: string
        let sendAt = now
        if (input.channel === 'email') {
          const [account] = await tx<{ email: string | null }[]>`select email from users where id = ${actor.id}`
          if (!account?.email) {
            throw new LeadActionError('Add your email address on Your account first: a reply goes out with it as Reply-To, so the answer reaches you.', 'invalid')
          }
          address = lead.email
        } else {
          if (!options.textFrom) throw new LeadActionError(textingNotSetUp, 'invalid')
          const refused = await textRefusal(tx, lead)
          if (refused) throw new LeadActionError(refused, 'invalid')
          address = textAddress(lead.phone)!
          sendAt = textSendTime(now)
        }
        const waiting = sendAt.getTime() > now.getTime()
        const [message] = await tx<[{ id: number }]>`
          insert into lead_messages (inquiry_id, channel, direction, body, author_id, author, address, status, at)
          values (${lead.id}, ${input.channel}, 'out', ${input.body}, ${actor.id}, ${actor.name}, ${address}, ${waiting ? 'waiting' : 'queued'}, ${now})
          returning id
        `
        await tx`
          insert into outbox_messages (inquiry_id, kind, lead_message_id, next_attempt_at)
          values (${lead.id}, ${input.channel === 'email' ? 'reply-email' : 'reply-sms'}, ${message.id}, ${sendAt})
        `
        await recordFirstResponse(tx, lead, actor, now)
        return {
          messageId: message.id,
          channel: input.channel,
          status: waiting ? 'waiting' : 'queued',
          waitsUntil: waiting ? sendAt.toISOString() : null,
          notice: replyNotice(input.channel, address, waiting ? sendAt : null),
        }
      })
      options.wakeOutbox?.()
      return receipt
    },

    /** A call the salesperson made, with how it went. */
    async logCall(actor: Actor, input: LogCallInput): Promise<{ callId: number; notice: string }> {
      const now = clock()
      return sql.begin(async (tx) => {
        const lead = await lockLead(tx, input.id)
        const [call] = await tx<[{ id: number }]>`
          insert into lead_calls (inquiry_id, outcome, note, author_id, author, at)
          values (${lead.id}, ${input.outcome}, ${input.note || null}, ${actor.id}, ${actor.name}, ${now})
          returning id
        `
        await recordFirstResponse(tx, lead, actor, now, input.outcome !== 'no-answer')
        return { callId: call.id, notice: `Call logged: ${callOutcomeLabels[input.outcome].toLowerCase()}.` }
      })
    },
  }
}

export type LeadReplies = ReturnType<typeof createLeadReplies>
