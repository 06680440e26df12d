import * as z from 'zod/mini'
import { showrooms } from './business.ts'
import { addDays, type Day, daysBetween, formatDay, isDay, newJerseyToday } from './calendar-days.ts'
import { optionalText, plainText } from './inquiry.ts'
import { consentTicked } from './texting.ts'
import { formatDollars } from './dollars.ts'
import { cartTypes, type CartType, type PlanKey, planDays, planKeys, rentalCartType, rentalPlan } from './rental-plans.ts'

/**
 * A rental request (PRODUCT.md, "rental requests"): what a renter asks for beside the contact
 * fields. Not a booking: the dealer calls back to confirm. Shared by `<gc-rental-request>`, the
 * page without JavaScript and the API, like the contact form's schema it extends.
 */
export const pickupOptions = [
  { value: 'showroom', label: 'Pick up at a showroom' },
  { value: 'delivery', label: 'Deliver to an address' },
] as const
export type Pickup = (typeof pickupOptions)[number]['value']

/** How far ahead a request may start: the dealer plans one season ahead, not more. */
export const latestStartDays = 365

/**
 * Why a day cannot start a request or a quote, or undefined: from today (New Jersey) to
 * `latestStartDays` ahead. Every date a visitor sends is bounded, so none reaches the date
 * arithmetic or the database outside the years they handle (9999-12-31, 0001-01-01).
 */
export function startDateProblem(day: Day, today: Day = newJerseyToday()): string | undefined {
  if (!isDay(day)) return 'Enter the start date as a date, like 2026-07-04'
  if (daysBetween(today, day) < 0) return 'The start date cannot be in the past'
  if (daysBetween(today, day) > latestStartDays) return `Requests can start up to ${latestStartDays} days ahead; call us for later dates`
  return undefined
}

/**
 * The days staff can show on the rental calendar or move a request to: two years either side of
 * today, a season's history behind and the next seasons ahead.
 */
export const calendarWindow = { pastDays: 730, aheadDays: 730 } as const

/** Why a day is outside the calendar's window, or undefined. */
export function calendarDayProblem(day: Day, today: Day = newJerseyToday()): string | undefined {
  if (!isDay(day)) return 'Enter a date, like 2026-07-04'
  const offset = daysBetween(today, day)
  if (offset < -calendarWindow.pastDays || offset > calendarWindow.aheadDays) {
    return `Choose a date within two years of today (${addDays(today, -calendarWindow.pastDays)} to ${addDays(today, calendarWindow.aheadDays)})`
  }
  return undefined
}

export const rentalRequestLimits = { street: 200, town: 100 } as const

const showroomIds = showrooms.map((s) => s.id) as [string, ...string[]]

/** A start date's own sentence (`startDateProblem`); empty text is left to the field's other checks. */
const startDateChecked = z.superRefine<string>((value, ctx) => {
  const problem = value === '' ? undefined : startDateProblem(value)
  if (problem) ctx.issues.push({ code: 'custom', input: value, message: problem, continue: true })
})

/** What the form sends: every field text, as typed, checked together (which are needed depends on `pickup`). */
export const rentalRequestFields = z
  .object({
    cartType: z.enum(cartTypes, `Choose a cart: ${cartTypes.join(', ')}`),
    plan: z.enum(planKeys, `Choose a plan: ${planKeys.join(', ')}`),
    startDate: z.string('Choose a start date').check(
      z.trim(),
      z.refine((v) => v !== '', 'Choose a start date'),
      startDateChecked,
    ),
    pickup: z.enum(['showroom', 'delivery'], 'Choose pickup at a showroom or delivery'),
    showroom: z.optional(z.string().check(z.maxLength(40), plainText('Showroom'))),
    street: optionalText('Street', rentalRequestLimits.street),
    town: optionalText('Town', rentalRequestLimits.town),
    zip: z.optional(z.string('ZIP code must be text').check(z.trim(), z.maxLength(10, 'Enter a 5-digit ZIP code'), plainText('ZIP code'))),
  })
  .check(
    z.superRefine((request, ctx) => {
      if (request.pickup === 'showroom') {
        if (!request.showroom || !showroomIds.includes(request.showroom)) {
          ctx.issues.push({ code: 'custom', input: request.showroom, path: ['showroom'], message: 'Choose the showroom you will pick up from' })
        }
        return
      }
      if (!request.street) ctx.issues.push({ code: 'custom', input: request.street, path: ['street'], message: 'Street is required for a delivery' })
      if (!request.town) ctx.issues.push({ code: 'custom', input: request.town, path: ['town'], message: 'Town is required for a delivery' })
      if (!zipPattern.test(request.zip ?? '')) {
        ctx.issues.push({ code: 'custom', input: request.zip, path: ['zip'], message: 'Enter the 5-digit ZIP code of the delivery address' })
      }
    }),
  )

export const zipPattern = /^\d{5}$/

export type RentalRequestInput = z.input<typeof rentalRequestFields>
export type RentalRequest = z.output<typeof rentalRequestFields>

/** Every field of the request form by the name it posts under: the rental's are the API's paths (`rental.zip`). */
export const rentalRequestFieldNames = [
  'rental.cartType',
  'rental.plan',
  'rental.startDate',
  'rental.pickup',
  'rental.showroom',
  'rental.street',
  'rental.town',
  'rental.zip',
  'firstName',
  'lastName',
  'email',
  'phone',
  'message',
  'textConsent',
] as const

/**
 * The lead a request form's fields make, by their names: the element, the page's island and the
 * page's post without JavaScript (host/server/contact-post.ts) all send this shape. The address
 * goes only with a delivery, the showroom only with a pickup.
 */
export function rentalLeadInput(
  values: Partial<Record<string, string>>,
  extra: { sourceUrl?: string; sourceLabel?: string; website?: string },
) {
  const pickup = values['rental.pickup'] ?? ''
  return {
    firstName: values.firstName ?? '',
    lastName: values.lastName ?? '',
    email: values.email ?? '',
    phone: values.phone ?? '',
    message: values.message ?? '',
    textConsent: consentTicked(values.textConsent),
    interest: 'rentals' as const,
    ...extra,
    rental: {
      cartType: values['rental.cartType'] ?? '',
      plan: values['rental.plan'] ?? '',
      startDate: values['rental.startDate'] ?? '',
      pickup,
      ...(pickup === 'delivery'
        ? { street: values['rental.street'] ?? '', town: values['rental.town'] ?? '', zip: values['rental.zip'] ?? '' }
        : { showroom: values['rental.showroom'] ?? '' }),
    },
  }
}

/** The day the cart is due back: the plan's days after the start, at the same time of day. */
export function rentalEndDate(startDate: Day, plan: PlanKey): Day {
  return addDays(startDate, planDays(plan))
}

/** The quote's question: enough to price a request and say whether a cart is free. */
export const rentalQuoteInput = z.object({
  cartType: z.enum(cartTypes, `Choose a cart: ${cartTypes.join(', ')}`),
  plan: z.enum(planKeys, `Choose a plan: ${planKeys.join(', ')}`),
  startDate: z.optional(z.string().check(startDateChecked)),
  zip: z.optional(z.string().check(z.refine((v) => v === '' || zipPattern.test(v), 'Enter a 5-digit ZIP code'))),
})
export type RentalQuoteInput = z.input<typeof rentalQuoteInput>

/** What the request form shows under its fields, and the lead keeps as it was quoted. */
export interface RentalQuote {
  cartType: CartType
  plan: PlanKey
  /** Whole dollars, from SPEC's table. */
  price: number
  startDate?: Day
  endDate?: Day
  /** For a delivery ZIP: the estimate, or why there is none (a sentence for the visitor). */
  delivery?: { showroom: string; miles: number; fee: number } | { refused: string }
  /** For a start date: whether a cart of this type is free on every day of the rental. */
  availability?: { free: boolean; firstFullDay?: Day }
}

/** "A 6 Seater is free for those dates." and its opposite, as the form and the emails say it. */
export function availabilitySentence(cartTitle: string, availability: NonNullable<RentalQuote['availability']>, formatDay: (day: Day) => string): string {
  if (availability.free) return `A ${cartTitle} is free for those dates.`
  const when = availability.firstFullDay ? ` on ${formatDay(availability.firstFullDay)}` : ''
  return `Every ${cartTitle} is already reserved${when}. Send the request anyway and we'll call with the nearest dates we have, or choose other dates.`
}

/** The promise every answer and email about a request makes (PRODUCT.md: not a booking). */
export const callToConfirm = 'This is a request, not a booking: we will call you to confirm the dates and the price.'

export type RentalStatus = 'requested' | 'confirmed' | 'declined'

export const rentalStatusLabels: Record<RentalStatus, string> = {
  requested: 'Requested',
  confirmed: 'Confirmed',
  declined: 'Declined',
}

/** A stored request, as priced when asked (and as staff changed it since). */
export interface RentalRequestDetails {
  cartType: CartType
  plan: PlanKey
  startDate: Day
  endDate: Day
  pickup: Pickup
  showroom: string | null
  street: string | null
  town: string | null
  zip: string | null
  deliveryMiles: number | null
  deliveryFee: number | null
  price: number
  status: RentalStatus
}

/**
 * The request in the dealer's words, one fact a line: the dealer's email, the CRM's comments and
 * the lead's page in the console all say it this way.
 */
export function rentalRequestFacts(rental: RentalRequestDetails): [label: string, value: string][] {
  const plan = rentalPlan(rental.cartType, rental.plan)
  const showroom = showrooms.find((s) => s.id === rental.showroom)?.name
  const where =
    rental.pickup === 'showroom'
      ? `Pick up at ${showroom ?? 'a showroom'}`
      : `Deliver to ${[rental.street, rental.town, rental.zip].filter(Boolean).join(', ')}` +
        (rental.deliveryMiles !== null && rental.deliveryFee !== null
          ? ` (${rental.deliveryMiles} miles from ${showroom ?? 'the nearest showroom'}; estimated fee ${formatDollars(rental.deliveryFee)})`
          : '')
  return [
    ['Rental', `${rentalCartType(rental.cartType).title}, ${plan.title} plan (${plan.period}), ${formatDollars(rental.price)}`],
    ['Dates', `${formatDay(rental.startDate)} to ${formatDay(rental.endDate)}`],
    [rental.pickup === 'showroom' ? 'Pickup' : 'Delivery', where],
    ['Status', rentalStatusLabels[rental.status]],
  ]
}
