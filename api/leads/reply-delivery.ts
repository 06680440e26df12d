import { business } from '../../domain/business.ts'
import { textSendTime } from '../../domain/texting.ts'
import type { Sql } from '../db/database.ts'
import type { TextSender } from '../texts/twilio.ts'
import { textRefusal } from './lead-replies.ts'
import { type MailMessage, type MailSettings, messageId } from './messages.ts'

/**
 * Sending a reply the console queued (api/leads/lead-replies.ts), for the outbox worker: an email
 * from the dealer's address in the salesperson's name with their address as Reply-To, or a text
 * from the dealer's Twilio number with a status callback. A text is checked again when it goes:
 * within texting hours (else it waits until 08:00) and to a number that has not withdrawn consent
 * since it was written (else it is not sent, and the timeline says why).
 */
export const replyKinds = ['reply-email', 'reply-sms'] as const
export type ReplyKind = (typeof replyKinds)[number]

/** Where Twilio posts what became of a text (signature-checked, api/texts/twilio-webhooks.ts). */
export const twilioStatusPath = '/webhooks/twilio/status'

interface QueuedReply {
  id: number
  inquiryId: number
  channel: 'email' | 'sms'
  body: string
  address: string
  author: string | null
  authorEmail: string | null
  firstName: string
  phone: string | null
  cartTitle: string | null
  interest: string | null
}

/** What became of one attempt: sent, held until a time, dropped for good (with why), or failed (retry). */
export type ReplyOutcome =
  | { sent: true; providerId?: string }
  | { waitUntil: Date }
  | { dropped: string }
  | { failed: string; step: 'mail server' | 'twilio'; error: unknown }

export interface ReplyDeliveryOptions {
  sql: Sql
  send?: (message: MailMessage) => Promise<void>
  texts?: TextSender
  settings: MailSettings
  clock: () => Date
}

async function queuedReply(sql: Sql, id: number): Promise<QueuedReply> {
  const [reply] = await sql<QueuedReply[]>`
    select m.id, m.inquiry_id, m.channel, m.body, m.address, m.author, u.email as author_email,
           i.first_name, i.phone, i.cart_title, i.interest
    from lead_messages m
    join contact_inquiries i on i.id = m.inquiry_id
    left join users u on u.id = m.author_id and not u.disabled
    where m.id = ${id} and m.direction = 'out'
  `
  if (!reply) throw new Error(`reply ${id} no longer exists`)
  return reply
}

/** The email a reply is: to the shopper, from the dealer in the salesperson's name, answers to the salesperson. */
export function replyEmail(reply: QueuedReply, settings: MailSettings): MailMessage {
  const author = reply.author ?? business.name
  const about = reply.cartTitle ? `your question about the ${reply.cartTitle}` : reply.interest === 'rentals' ? 'your rental request' : reply.interest === 'service' ? 'your service request' : 'your message'
  return {
    from: { name: `${author} at ${business.name}`, address: settings.from },
    to: [reply.address],
    ...(reply.authorEmail ? { replyTo: { name: author, address: reply.authorEmail } } : {}),
    subject: `Re: ${about} - ${business.name}`,
    text: [reply.body, '', '-- ', author, business.name, business.tollFree.display, settings.siteUrl].join('\n'),
    messageId: messageId(settings, `reply-${reply.id}`),
  }
}

/** Twilio refused the text itself (a bad or unsubscribed number): trying again would not help. */
function refusedForGood(error: unknown): boolean {
  const status = (error as { status?: unknown }).status
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 429
}

export function createReplyDelivery(options: ReplyDeliveryOptions) {
  const { sql, settings, clock } = options
  // Sent is recorded by the worker with the outbox row, in one statement it retries (outbox-worker.ts).
  const mark = (id: number, status: 'waiting' | 'not-sent' | 'failed', detail: string | null) =>
    sql`update lead_messages set status = ${status}, status_detail = ${detail} where id = ${id}`
  return {
    async deliver(messageId: number): Promise<ReplyOutcome> {
      const reply = await queuedReply(sql, messageId)
      if (reply.channel === 'email') {
        if (!options.send) return { failed: 'no mail server configured', step: 'mail server', error: new Error('no mail server configured') }
        try {
          await options.send(replyEmail(reply, settings))
        } catch (error) {
          return { failed: 'mail server', step: 'mail server', error }
        }
        return { sent: true }
      }
      if (!options.texts) return { failed: 'texting is not set up', step: 'twilio', error: new Error('texting is not set up') }
      const now = clock()
      const at = textSendTime(now)
      if (at > now) {
        await mark(reply.id, 'waiting', null)
        return { waitUntil: at }
      }
      const refused = await textRefusal(sql, { firstName: reply.firstName, phone: reply.phone })
      if (refused) {
        await mark(reply.id, 'not-sent', refused)
        return { dropped: refused }
      }
      try {
        const sent = await options.texts.send({ to: reply.address, body: reply.body, statusCallback: `${settings.siteUrl}${twilioStatusPath}` })
        return { sent: true, providerId: sent.sid }
      } catch (error) {
        if (refusedForGood(error)) {
          const why = `Twilio refused it: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500)
          await mark(reply.id, 'failed', why)
          return { dropped: why }
        }
        return { failed: 'twilio', step: 'twilio', error }
      }
    },
  }
}

export type ReplyDelivery = ReturnType<typeof createReplyDelivery>
