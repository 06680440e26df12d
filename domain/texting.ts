import { atWallClock, wallClock } from './business-hours.ts'
import { business } from './business.ts'

/**
 * Texting shoppers as US carriers require (PRODUCT.md, "consent to texts" and "texting"): the
 * consent box every public lead form shows (contact, rental, service, appointments, deposits),
 * with the one wording stored with each consent; the keywords a shopper texts to stop, start or
 * ask for help, and our one answer to each; and the hours texts may go out. Pure: the forms, the
 * console and the server share it.
 */

/** The box's label: unticked until the shopper ticks it. */
export const textConsentLabel = 'Text me about this request'

/** What the box agrees to, shown under it. */
export const textConsentDisclosure =
  `${business.name} will text the phone number above about this request: answers to your questions, quotes and visit times. ` +
  'Msg & data rates may apply. Message frequency varies. Reply STOP to opt out, HELP for help. ' +
  'Consent is not a condition of purchase.'

/** The words stored with each consent given on a form: what the shopper saw when they ticked it. */
export const textConsentWording = `${textConsentLabel}. ${textConsentDisclosure}`

/** The posted name of the box, and the API's field (`textConsent: true`). */
export const textConsentField = 'textConsent'

/** A form's box as posted: ticked is `true` (JSON) or the checkbox's `on` (a form without JavaScript). */
export function consentTicked(value: unknown): boolean {
  return value === true || value === 'on' || value === 'true'
}

/** What a shopper may text instead of a message (CTIA's keywords, matched whole, any case). */
export type TextKeyword = 'stop' | 'start' | 'help'

const keywords: Record<string, TextKeyword> = {
  stop: 'stop',
  stopall: 'stop',
  unsubscribe: 'stop',
  cancel: 'stop',
  end: 'stop',
  quit: 'stop',
  start: 'start',
  help: 'help',
}

/** The keyword a text is, if it is one: the whole text, trimmed, ignoring case and a final stop or exclamation. */
export function textKeyword(body: string): TextKeyword | undefined {
  const word = body.trim().replace(/[.!]+$/, '').toLowerCase()
  return Object.hasOwn(keywords, word) ? keywords[word] : undefined
}

/** Our one reply to each keyword. */
export const keywordReplies: Record<TextKeyword, string> = {
  stop: `${business.name}: you will get no more texts from us. Reply START to get them again.`,
  start: `${business.name}: you will get texts about your requests again. Msg & data rates may apply. Reply STOP to opt out, HELP for help.`,
  help: `${business.name}: call ${business.tollFree.display} or email ${business.email}. Msg & data rates may apply. Reply STOP to opt out.`,
}

/** Texts go out from 08:00 until 21:00, New Jersey time; one written at night waits until 08:00. */
export const textingHours = { from: 8, until: 21 } as const

/**
 * When a text written at `now` may be sent: at once within texting hours, else at the next 08:00
 * in New Jersey (daylight saving included, whatever the server's zone).
 */
export function textSendTime(now: Date): Date {
  const clock = wallClock(now.getTime())
  if (clock.hour >= textingHours.from && clock.hour < textingHours.until) return now
  const today = atWallClock(clock.year, clock.month, clock.day, textingHours.from, 0)
  if (clock.hour < textingHours.from) return new Date(today)
  // After 21:00: the next day's 08:00. Noon UTC of the day plus one day, so a clock change never trips it.
  const next = new Date(Date.UTC(clock.year, clock.month - 1, clock.day, 12) + 86_400_000)
  return new Date(atWallClock(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), textingHours.from, 0))
}

/** "8:00 AM Tuesday", New Jersey time: when a held text goes, as the console says it. */
export function sendTimeWords(at: Date): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'long', hour: 'numeric', minute: '2-digit' })
    .format(at)
    .replace(/^(\w+) (.+)$/, '$2 $1')
}
