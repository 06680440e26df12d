import { phoneKey } from '../../domain/phone-number.ts'
import { keywordReplies, textKeyword } from '../../domain/texting.ts'
import type { Sql } from '../db/database.ts'
import { queueTextAlerts } from '../leads/staff-alerts.ts'
import { consentOf, recordTextedConsent } from './text-consents.ts'

/**
 * What shoppers text to the dealer's number (PRODUCT.md, "texting" and "consent to texts"), once
 * Twilio's signature has been checked (api/texts/twilio-webhooks.ts). A message joins the latest
 * lead of the customer with that number and alerts its owner as a new lead does (or, unassigned,
 * everyone who takes leads), in one transaction with the outbox rows. STOP and its synonyms end
 * consent for the number and are confirmed once, START renews it, HELP is answered with the
 * dealer's name and phone. The same message delivered twice (Twilio's MessageSid) counts once.
 */
export interface TextIn {
  /** Twilio's MessageSid. */
  sid: string
  /** The shopper's number, E.164. */
  from: string
  body: string
}

export interface TextInResult {
  /** The lead it joined; null for a number no customer has. */
  leadId: number | null
  /** Our one reply, for the TwiML answer; none to say. */
  reply?: string
}

/** Twilio's statuses of a text out, in the order they happen; a late callback never moves one back. */
const statusOrder = ['sent', 'delivered', 'undelivered', 'failed'] as const
export type TextStatus = (typeof statusOrder)[number]

export function createTextInbox(sql: Sql, options: { onQueued?(): void } = {}) {
  return {
    async receive(text: TextIn): Promise<TextInResult> {
      const key = phoneKey(text.from)
      const keyword = textKeyword(text.body)
      const result = await sql.begin(async (tx): Promise<TextInResult & { alerted: boolean }> => {
        const [lead] = key
          ? await tx<{ id: number; ownerId: number | null }[]>`
              select i.id, i.owner_id from customer_keys k
              join contact_inquiries i on i.customer_id = k.customer_id and i.spam_reason is null
              where k.kind = 'phone' and k.value = ${key}
              order by i.created_at desc, i.id desc limit 1
            `
          : []
        const [stored] = await tx<{ id: number }[]>`
          insert into lead_messages (inquiry_id, channel, direction, body, address, status, provider_id)
          values (${lead?.id ?? null}, 'sms', 'in', ${text.body.slice(0, 10_000) || '(an empty text)'}, ${text.from}, 'received', ${text.sid})
          on conflict (provider_id) do nothing
          returning id
        `
        if (!stored) return { leadId: lead?.id ?? null, alerted: false }
        if (keyword && key) {
          const consent = await consentOf(tx, key)
          if (keyword === 'stop') {
            // Confirmed once: a number already opted out hears nothing more from us.
            if (consent && !consent.given) return { leadId: lead?.id ?? null, alerted: false }
            await recordTextedConsent(tx, key, false, text.body.trim())
          }
          if (keyword === 'start') await recordTextedConsent(tx, key, true, text.body.trim())
          return { leadId: lead?.id ?? null, reply: keywordReplies[keyword], alerted: false }
        }
        if (!lead) return { leadId: null, alerted: false }
        await queueTextAlerts(tx, lead.id, stored.id, lead.ownerId)
        return { leadId: lead.id, alerted: true }
      })
      if (result.alerted) options.onQueued?.()
      return { leadId: result.leadId, ...(result.reply ? { reply: result.reply } : {}) }
    },

    /** Twilio's status callback for a text we sent: delivered, undelivered, failed. */
    async statusChanged(sid: string, status: string, errorCode?: string): Promise<void> {
      const rank = statusOrder.indexOf(status as TextStatus)
      if (rank < 0) return
      await sql`
        update lead_messages
        set status = ${status}, status_detail = ${errorCode ? `Twilio error ${errorCode}` : null}
        where provider_id = ${sid} and direction = 'out'
          and coalesce(array_position(${sql.array([...statusOrder])}::text[], status), 0) < ${rank + 1}
      `
    },
  }
}

export type TextInbox = ReturnType<typeof createTextInbox>
