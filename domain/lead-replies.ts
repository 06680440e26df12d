import * as z from 'zod/mini'
import { plainText } from './inquiry.ts'
import { readablePhone } from './phone-number.ts'
import { sendTimeWords } from './texting.ts'

/**
 * Answering a shopper from the lead's page (PRODUCT.md, "replies from the console"): an email, a
 * text, or a call logged. One schema each, for `staff.lead.reply`, `staff.lead.logCall` and the
 * console's reply box.
 */
export const replyChannels = ['email', 'sms'] as const
export type ReplyChannel = (typeof replyChannels)[number]

export const callOutcomes = ['reached', 'voicemail', 'no-answer'] as const
export type CallOutcome = (typeof callOutcomes)[number]

export const callOutcomeLabels: Record<CallOutcome, string> = {
  reached: 'Reached them',
  voicemail: 'Left a voicemail',
  'no-answer': 'No answer',
}

/** A text longer than this is refused by Twilio (ten segments); an email may say more. */
export const replyLimits = { sms: 1600, email: 10_000, callNote: 5000 } as const

const leadId = z.int('id must be a whole number').check(z.minimum(1, 'id must be positive'))

export const replyInput = z
  .object({
    id: leadId,
    channel: z.enum(replyChannels, 'channel must be email or sms'),
    body: z.string('Write the reply first').check(
      z.trim(),
      z.minLength(1, 'Write the reply first'),
      z.maxLength(replyLimits.email, { message: `A reply can be at most ${replyLimits.email} characters`, abort: true }),
      plainText('The reply', { lines: true }),
    ),
  })
  .check(
    z.superRefine((reply, ctx) => {
      if (reply.channel === 'sms' && reply.body.length > replyLimits.sms) {
        ctx.issues.push({
          code: 'custom',
          input: reply.body,
          path: ['body'],
          message: `A text can be at most ${replyLimits.sms} characters (this one has ${reply.body.length}): shorten it or send an email`,
        })
      }
    }),
  )
export type ReplyInput = z.output<typeof replyInput>

export const logCallInput = z.object({
  id: leadId,
  outcome: z.enum(callOutcomes, 'Say how the call went: reached, voicemail or no-answer'),
  note: z.optional(
    z.string('The note must be text').check(
      z.trim(),
      z.maxLength(replyLimits.callNote, `A note can be at most ${replyLimits.callNote} characters`),
      plainText('The note', { lines: true }),
    ),
  ),
})
export type LogCallInput = z.output<typeof logCallInput>

/**
 * What the console says of a reply just written: where it went, or, for a text held for texting
 * hours, when it goes. `address` is the shopper's email or number (E.164).
 */
export function replyNotice(channel: ReplyChannel, address: string, waitsUntil: Date | null): string {
  const to = channel === 'email' ? address : readablePhone(address)
  if (waitsUntil) return `Text to ${to} saved: it goes at ${sendTimeWords(waitsUntil)}, New Jersey time (no texts between 9 PM and 8 AM).`
  return `${channel === 'email' ? 'Email' : 'Text'} to ${to} is on its way.`
}
