import * as z from 'zod/mini'

/**
 * The contact / quote form's rules, shared by the form in the browser and the API, so a visitor
 * sees the same message before and after a round trip. `zod/mini` keeps the browser bundle small.
 */
export const interestOptions = [
  { value: 'denago', label: 'DENAGO' },
  { value: 'evolution', label: 'EVOLUTION' },
  { value: 'swift-ev', label: 'SWIFT EV' },
  { value: 'rentals', label: 'RENTALS' },
  { value: 'service', label: 'SERVICE' },
] as const

export type Interest = (typeof interestOptions)[number]['value']
export const interestValues = interestOptions.map((o) => o.value) as [Interest, ...Interest[]]

export const inquiryLimits = {
  name: 100,
  email: 254,
  phone: 40,
  message: 5000,
  sourceUrl: 2000,
  sourceLabel: 100,
  cartSlug: 200,
} as const

/** The NUL character: no text column can hold it, so it is refused with a field message. */
export const withoutNul = (label: string) =>
  z.refine<string>((v) => !v.includes('\u0000'), `${label} contains a character that is not allowed`)

/** Text a form must have, trimmed, with a message naming the field (shared by the cart record). */
export function requiredText(label: string, max: number) {
  return z.string(`${label} is required`).check(
    z.trim(),
    z.minLength(1, `${label} is required`),
    z.maxLength(max, `${label} must be at most ${max} characters`),
    withoutNul(label),
  )
}

function optionalText(label: string, max: number) {
  return z.optional(
    z.string(`${label} must be text`).check(
      z.trim(),
      z.maxLength(max, `${label} must be at most ${max} characters`),
      withoutNul(label),
    ),
  )
}

/** Digits with the usual separators, at least 7 digits, an optional extension. */
const phonePattern = /^\+?[\d\s().-]*\d[\d\s().-]*(?:\s*(?:x|ext\.?)\s*\d{1,6})?$/i

/**
 * What the visitor fills in, in the form's order. The contact form, the form post without
 * JavaScript and the API all take their list of fields from these keys.
 */
const visitorFields = z.object({
  firstName: requiredText('First name', inquiryLimits.name),
  lastName: requiredText('Last name', inquiryLimits.name),
  email: z.pipe(
    z.string('Email is required').check(z.trim(), z.minLength(1, 'Email is required')),
    z.email('Enter a valid email address, like name@example.com').check(
      z.maxLength(inquiryLimits.email, `Email must be at most ${inquiryLimits.email} characters`),
    ),
  ),
  phone: z.optional(
    z.string('Phone must be text').check(
      z.trim(),
      z.maxLength(inquiryLimits.phone, `Phone must be at most ${inquiryLimits.phone} characters`),
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
  message: optionalText('Message', inquiryLimits.message),
})

export type VisitorField = keyof typeof visitorFields.shape

/** The visitor's fields as typed; a field not typed yet is absent (the schema names what is missing). */
export type TypedFields = Partial<Record<VisitorField, string>>

/** `firstName`, `lastName`, `email`, `phone`, `interest`, `message`: read off the schema. */
export const visitorFieldNames: readonly VisitorField[] = z.keyof(visitorFields).options

/** An inquiry: the visitor's fields, where it came from, and the two spam signals. */
export const inquiryInput = z.extend(visitorFields, {
  /** The page the visitor was on. */
  sourceUrl: z.optional(
    z.string('Source URL must be text').check(
      z.trim(),
      z.maxLength(inquiryLimits.sourceUrl, 'Source URL is too long'),
      withoutNul('Source URL'),
      z.refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'Source URL must be an http(s) address'),
    ),
  ),
  /** The embed's `source` attribute: which widget or landing page brought the lead. */
  sourceLabel: optionalText('Source label', inquiryLimits.sourceLabel),
  /** The cart a quote is for, when the visitor came from its page (issue #5). */
  cartSlug: optionalText('Cart', inquiryLimits.cartSlug),
  /** A field people never see and bots fill in (issue #7). */
  website: z.optional(z.string().check(z.maxLength(2000), withoutNul('Website'))),
  /** How long the form was open before it was sent, in milliseconds. */
  elapsedMs: z.optional(z.number().check(z.minimum(0), z.maximum(1e12))),
})

/**
 * A person takes more than a couple of seconds to type a name and an email; a form sent faster
 * than this was filled by a program. Submissions without the timing (the REST API, partners'
 * own forms) are not judged by it.
 */
export const minimumFillMs = 2500

export type SpamReason = 'honeypot' | 'too-fast'

/** Caught submissions are answered like any other, but stored as spam and never sent on. */
export function spamReason(inquiry: { website?: string; elapsedMs?: number }): SpamReason | undefined {
  if (inquiry.website && inquiry.website.trim() !== '') return 'honeypot'
  if (inquiry.elapsedMs !== undefined && inquiry.elapsedMs < minimumFillMs) return 'too-fast'
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
  interest: Interest | null
}
