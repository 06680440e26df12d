import * as z from 'zod/mini'
import { controlCharacter, lineBreak } from './plain-text.ts'
import { consentTicked } from './texting.ts'

/**
 * The contact / quote form's rules, shared by the form in the browser and the API, so a visitor
 * sees the same message before and after a round trip. `zod/mini` keeps the browser bundle small.
 */
export const interestOptions = [
  { value: 'denago', label: 'Denago' },
  { value: 'evolution', label: 'Evolution' },
  { value: 'swift-ev', label: 'Swift EV' },
  { value: 'rentals', label: 'Rentals' },
  { value: 'service', label: 'Service' },
] as const

export type Interest = (typeof interestOptions)[number]['value']
export const interestValues = interestOptions.map((o) => o.value) as [Interest, ...Interest[]]

/**
 * Interests the site gives a lead for what the shopper did, never a choice on a form: a deposit
 * paid online (PRODUCT.md, "holding a cart"), a test drive booked ("appointments"). The inbox, its filter and the emails name them too.
 */
export const siteInterestOptions = [
  { value: 'deposit', label: 'Deposit' },
  { value: 'test-drive', label: 'Test drive' },
] as const
export type LeadInterest = Interest | (typeof siteInterestOptions)[number]['value']
export const leadInterestOptions: readonly { value: LeadInterest; label: string }[] = [...interestOptions, ...siteInterestOptions]

export const inquiryLimits = {
  name: 100,
  email: 254,
  phone: 40,
  message: 5000,
  sourceUrl: 2000,
  sourceLabel: 100,
  cartSlug: 200,
} as const


/**
 * Text a person typed: refused, with a message naming the field, when it holds a control
 * character, or a line break in a one-line field (names, titles, addresses: a line break there
 * forges lines in an email or a terminal report). `lines` for the fields that are paragraphs.
 */
export function plainText(label: string, { lines = false }: { lines?: boolean } = {}) {
  return z.refine<string>(
    (v) => !controlCharacter.test(v) && (lines || !lineBreak.test(v)),
    lines
      ? `${label} contains a control character (such as NUL or escape): remove it`
      : `${label} must be one line of text, without line breaks or control characters`,
  )
}

/** Text a form must have, trimmed, with a message naming the field (shared by the cart record). */
export function requiredText(label: string, max: number, options: { lines?: boolean } = {}) {
  return z.string(`${label} is required`).check(
    z.trim(),
    z.minLength(1, `${label} is required`),
    maxLength(label, max),
    plainText(label, options),
  )
}

/**
 * A field's length limit, checked before any pattern and ending the field's checks when it is
 * exceeded: no rule after it ever reads more than `max` characters (issue #26: a phone rule fed
 * 95,000 characters held the server's only thread for 39 s).
 */
export function maxLength(label: string, max: number) {
  return z.maxLength(max, { message: `${label} must be at most ${max} characters`, abort: true })
}

/** Text a form may leave empty, trimmed, with the same checks (shared by the rental and service requests). */
export function optionalText(label: string, max: number, options: { lines?: boolean } = {}) {
  return z.optional(z.string(`${label} must be text`).check(z.trim(), maxLength(label, max), plainText(label, options)))
}

/**
 * Digits with the usual separators and an optional extension; the 7 digits are counted apart.
 * Linear on any input: the run of digits and separators has one way to match, and an extension
 * starts with a letter that run cannot hold, so a failed match gives back one character at a time.
 * (A digit required between two such runs made a failed match try every split: quadratic.)
 */
export const phonePattern = /^\+?[\d\s().-]+(?:(?:x|ext\.?)\s*\d{1,6})?$/i

/**
 * What the visitor fills in, in the form's order. The contact form, the form post without
 * JavaScript and the API all take their list of fields from these keys.
 */
const visitorFields = z.object({
  firstName: requiredText('First name', inquiryLimits.name),
  lastName: requiredText('Last name', inquiryLimits.name),
  email: z.pipe(
    z.string('Email is required').check(z.trim(), z.minLength(1, 'Email is required'), maxLength('Email', inquiryLimits.email)),
    z.email('Enter a valid email address, like name@example.com'),
  ),
  phone: z.optional(
    z.string('Phone must be text').check(
      z.trim(),
      maxLength('Phone', inquiryLimits.phone),
      z.refine(
        (v) => v === '' || (phonePattern.test(v) && v.replace(/\D/g, '').length >= 7),
        'Enter a phone number with at least 7 digits, like (609) 555-0123',
      ),
    ),
  ),
  interest: z.optional(
    z.union(
      [z.enum(interestValues), z.literal('')],
      `Interest must be one of: ${interestValues.join(', ')}`,
    ),
  ),
  message: optionalText('Message', inquiryLimits.message, { lines: true }),
  /**
   * "Text me about this request" (domain/texting.ts): `true` through the API, the checkbox's `on`
   * from a form without JavaScript; stored with its wording and time when ticked.
   */
  textConsent: z.optional(
    z.pipe(
      z.union([z.boolean(), z.enum(['on', 'true', 'false', ''])], 'textConsent must be true or false'),
      z.transform((value: boolean | 'on' | 'true' | 'false' | '') => consentTicked(value)),
    ),
  ),
})

export type VisitorField = keyof typeof visitorFields.shape

/** The visitor's fields as typed; a field not typed yet is absent (the schema names what is missing). */
export type TypedFields = Partial<Record<VisitorField, string>>

/** `firstName`, `lastName`, `email`, `phone`, `interest`, `message`, `textConsent`: read off the schema. */
export const visitorFieldNames: readonly VisitorField[] = z.keyof(visitorFields).options

/** An inquiry: the visitor's fields, where it came from, and the two spam signals. */
export const inquiryInput = z.extend(visitorFields, {
  /** The page the visitor was on. */
  sourceUrl: z.optional(
    z.string('Source URL must be text').check(
      z.trim(),
      z.maxLength(inquiryLimits.sourceUrl, { message: 'Source URL is too long', abort: true }),
      plainText('Source URL'),
      z.refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'Source URL must be an http(s) address'),
    ),
  ),
  /** The embed's `source` attribute: which widget or landing page brought the lead. */
  sourceLabel: optionalText('Source label', inquiryLimits.sourceLabel),
  /** The cart a quote is for, when the visitor came from its page (issue #5). */
  cartSlug: optionalText('Cart', inquiryLimits.cartSlug),
  /** A field people never see and bots fill in (issue #7). */
  website: z.optional(z.string().check(z.maxLength(2000, { abort: true }), plainText('Website', { lines: true }))),
  /**
   * How long the form was open before it was sent, in milliseconds. Accepted from loaders that
   * still send it (pinned widget versions) and never judged: speed alone never makes a lead spam
   * (PRODUCT.md, "no lead silently lost"), since a browser's autofill sends a form in a second.
   */
  elapsedMs: z.optional(z.number().check(z.minimum(0), z.maximum(1e12))),
})

/**
 * The spam rules and what each one means, as the Spam view shows it beside every lead it caught.
 * A caught lead is answered like any other, kept in the Spam view and sent nowhere until staff
 * say "Not spam".
 */
export const spamRules = {
  honeypot: 'Filled in the hidden "website" field, which people never see and bots fill in',
} as const

export type SpamReason = keyof typeof spamRules

export function spamReason(inquiry: { website?: string; elapsedMs?: number }): SpamReason | undefined {
  if (inquiry.website && inquiry.website.trim() !== '') return 'honeypot'
  return undefined
}

export type InquiryInput = z.input<typeof inquiryInput>
export type ValidInquiry = z.output<typeof inquiryInput>

/** One field's problem, as the API sends it and the form shows it (docs/CONTRACTS.md error shape). */
export interface FieldIssue {
  path: string
  message: string
}

export interface InquiryReceipt {
  id: number
  createdAt: string
  interest: LeadInterest | null
}
