import * as z from 'zod/mini'
import { business } from './business.ts'
import { optionalText, plainText } from './inquiry.ts'
import { consentTicked } from './texting.ts'

/**
 * A service request (PRODUCT.md, "service requests"): the owner's cart and what it needs, beside
 * the contact fields; the dealer calls back to book the visit. Shared by the page, its form
 * without JavaScript and the API.
 */
export const serviceNeeds = [
  { value: 'battery', label: 'Battery' },
  { value: 'tires', label: 'Tires' },
  { value: 'brakes', label: 'Brakes' },
  { value: 'lights', label: 'Lights' },
  { value: 'yearly-check-up', label: 'Yearly check-up' },
  { value: 'other', label: 'Other (tell us in the message)' },
] as const
export type ServiceNeed = (typeof serviceNeeds)[number]['value']
const needValues = serviceNeeds.map((n) => n.value) as [ServiceNeed, ...ServiceNeed[]]

/** The days the shop can take a cart in: the showrooms' opening days (domain/business.ts). */
export const serviceDays: readonly string[] = business.hours.filter((h) => h.opens).flatMap((h) => h.dayOfWeek)

export const serviceRequestLimits = { make: 60, model: 60 } as const
/** Golf carts older than this are rarely serviceable for parts; a later year is a typo. */
export const oldestServiceYear = 1980

const oneOrMany = <T extends z.core.SomeType>(item: T) =>
  // A form without JavaScript sends one checked box as text and several as a list.
  z.pipe(
    z.transform((v: unknown): unknown[] => (v === undefined || v === '' ? [] : Array.isArray(v) ? (v as unknown[]) : [v])),
    z.array(item),
  )

export const serviceRequestFields = z.object({
  make: z.string('Make is required').check(
    z.trim(),
    z.minLength(1, 'Make is required: the brand on the cart, like Club Car'),
    z.maxLength(serviceRequestLimits.make, `Make must be at most ${serviceRequestLimits.make} characters`),
    plainText('Make'),
  ),
  model: optionalText('Model', serviceRequestLimits.model),
  year: z.optional(
    z.string('Year must be text').check(
      z.trim(),
      z.refine(
        (v) => v === '' || (/^\d{4}$/.test(v) && Number(v) >= oldestServiceYear && Number(v) <= new Date().getFullYear() + 1),
        `Enter the model year as four digits, ${oldestServiceYear} or later`,
      ),
    ),
  ),
  needs: oneOrMany(z.enum(needValues, `Choose from: ${needValues.join(', ')}`)).check(
    z.refine((needs) => needs.length > 0, 'Choose at least one thing the cart needs'),
  ),
  preferredDays: oneOrMany(z.enum(serviceDays as [string, ...string[]], `Choose from: ${serviceDays.join(', ')}`)),
  /** We collect the cart and bring it back. A form's checkbox sends "on". */
  pickup: z.optional(z.union([z.boolean(), z.pipe(z.enum(['on', 'true', 'false', '']), z.transform((v) => v === 'on' || v === 'true'))])),
})

/** The service form's own fields, by the names they post under (`service.needs`...). */
export const serviceRequestFieldNames = ['service.make', 'service.model', 'service.year', 'service.needs', 'service.preferredDays', 'service.pickup'] as const

/**
 * The lead the service form's post makes: the contact fields and the request, by their posted
 * names; a checkbox group is one value or a list, as the form sent it, for the schema to judge.
 */
export function serviceLeadInput(
  values: Partial<Record<string, string | string[]>>,
  extra: { sourceUrl?: string; sourceLabel?: string; website?: string },
) {
  const text = (name: string) => {
    const value = values[name]
    return typeof value === 'string' ? value : ''
  }
  return {
    firstName: text('firstName'),
    lastName: text('lastName'),
    email: text('email'),
    phone: text('phone'),
    message: text('message'),
    textConsent: consentTicked(text('textConsent')),
    interest: 'service' as const,
    ...extra,
    service: {
      make: text('service.make'),
      model: text('service.model'),
      year: text('service.year'),
      needs: values['service.needs'] ?? [],
      preferredDays: values['service.preferredDays'] ?? [],
      pickup: text('service.pickup'),
    },
  }
}

export type ServiceRequestInput = z.input<typeof serviceRequestFields>
export type ServiceRequest = z.output<typeof serviceRequestFields>

export function serviceNeedLabel(need: string): string {
  return serviceNeeds.find((n) => n.value === need)?.label.replace(/ \(.*\)$/, '') ?? need
}

/** What every answer and email about a service request promises. */
export const serviceCallToConfirm = 'This is a request, not an appointment: we will call you to confirm the day and the work.'

/** A stored service request. */
export interface ServiceRequestDetails {
  make: string
  model: string | null
  year: number | null
  needs: string[]
  preferredDays: string[]
  pickup: boolean
}

/** The request in the dealer's words, one fact a line (email, CRM comments, the lead's page). */
export function serviceRequestFacts(service: ServiceRequestDetails): [label: string, value: string][] {
  return [
    ['Service for', [service.year, service.make, service.model].filter(Boolean).join(' ')],
    ['Needs', service.needs.map(serviceNeedLabel).join(', ')],
    ['Days', service.preferredDays.length > 0 ? service.preferredDays.join(', ') : 'Any day we are open'],
    ['Pick-up', service.pickup ? 'Yes: collect the cart and bring it back' : 'No: the owner brings the cart in'],
  ]
}
