import * as z from 'zod/mini'
import { type Interest, inquiryInput } from './inquiry.ts'
import { rentalRequestFields } from './rental-request.ts'
import { serviceRequestFields } from './service-request.ts'
import { textConsentLabel } from './texting.ts'

/**
 * Every lead the site takes, through one procedure (`inquiry.submit`) and one store: the contact
 * form's inquiry, optionally carrying a rental request (interest `rentals`) or a service request
 * (interest `service`). The requests extend the inquiry rather than start a second pipeline, so
 * origins, rate limits, spam rules, the outbox, ADF and the inbox treat them like any lead.
 */
export const leadInput = z.extend(inquiryInput, {
  rental: z.optional(rentalRequestFields),
  service: z.optional(serviceRequestFields),
}).check(
  z.superRefine((lead, ctx) => {
    if (lead.rental && lead.service) {
      ctx.issues.push({ code: 'custom', input: lead, path: ['service'], message: 'Send a rental request and a service request separately' })
    }
    const expected = requestInterest(lead)
    if (expected && lead.interest && lead.interest !== expected) {
      ctx.issues.push({ code: 'custom', input: lead.interest, path: ['interest'], message: `A ${expected === 'rentals' ? 'rental' : 'service'} request's interest is ${expected}` })
    }
    if (lead.textConsent && !lead.phone) {
      ctx.issues.push({ code: 'custom', input: lead.phone, path: ['phone'], message: `Enter the phone number to text, or untick “${textConsentLabel}”` })
    }
    if (lead.service?.needs.includes('other') && !lead.message) {
      ctx.issues.push({ code: 'custom', input: lead.message, path: ['message'], message: 'Tell us what else the cart needs' })
    }
  }),
)

/** The interest a request implies: a rental request is about rentals, a service request about service. */
export function requestInterest(lead: { rental?: unknown; service?: unknown }): Interest | undefined {
  return lead.rental ? 'rentals' : lead.service ? 'service' : undefined
}

export type LeadInput = z.input<typeof leadInput>
export type ValidLead = z.output<typeof leadInput>
