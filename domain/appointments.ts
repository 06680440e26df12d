import * as z from 'zod/mini'
import { business, type OpeningHours, showroomKeys } from './business.ts'
import { openingOn, wallClock } from './business-hours.ts'
import { inquiryInput } from './inquiry.ts'
import { serviceRequestFields } from './service-request.ts'
import { textConsentLabel } from './texting.ts'

/**
 * Appointments (PRODUCT.md, "appointments"): a test drive or showroom visit, or a service drop-off,
 * at one showroom, in slots inside the showrooms' business hours (domain/business.ts), a few a
 * slot. Pure: the slots offered, the booking's schema and the words, shared by the vehicle page,
 * `/services/request`, `<gc-book-visit>`, the API and the emails.
 */
export const appointmentKinds = ['test-drive', 'service'] as const
export type AppointmentKind = (typeof appointmentKinds)[number]

export const appointmentKindLabels: Record<AppointmentKind, string> = {
  'test-drive': 'Test drive or showroom visit',
  service: 'Service drop-off',
}

/** How slots are cut (APPOINTMENT_MINUTES, APPOINTMENT_CAPACITY), and how far ahead they are offered. */
export interface SlotRules {
  minutes: number
  capacity: number
}

export const defaultSlotRules: SlotRules = { minutes: 30, capacity: 2 }

/** The soonest a slot is offered: an hour from now, so someone can be there. */
export const earliestAheadMs = 3_600_000
/** The latest: 60 days from now. */
export const latestAheadDays = 60
/** How many days ahead the site's and the element's pickers offer (the API allows up to 60). */
export const pickerDays = 28
/** At most this many days are listed in one answer. */
export const maxListedDays = 60

const dayPattern = /^\d{4}-\d{2}-\d{2}$/

/** New Jersey's calendar day of a moment, `YYYY-MM-DD`. */
export function newJerseyDay(ms: number): string {
  const w = wallClock(ms)
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`
}

function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10)
}

/** Every slot's start on one New Jersey day: from opening, each ending by closing. None on a closed day. */
export function slotStartsOn(day: string, minutes: number, hours: readonly OpeningHours[] = business.hours): number[] {
  const [y, m, d] = day.split('-').map(Number)
  const open = openingOn(y!, m!, d!, hours)
  if (!open) return []
  const starts: number[] = []
  for (let at = open.opens; at + minutes * 60_000 <= open.closes; at += minutes * 60_000) starts.push(at)
  return starts
}

export interface SlotQuery {
  /** The first New Jersey day listed, `YYYY-MM-DD`; today when absent. */
  from?: string
  /** How many days from `from`. */
  days: number
  now: number
  rules: SlotRules
  /** How many bookings each start already holds (ms since epoch to count). */
  booked: ReadonlyMap<number, number>
  hours?: readonly OpeningHours[]
}

/**
 * The free slots' starts (ms), in order: inside business hours, from an hour after `now` to 60 days
 * after it, each holding fewer bookings than the capacity. Past times and closed days never appear.
 */
export function freeSlots(query: SlotQuery): number[] {
  const earliest = query.now + earliestAheadMs
  const latest = query.now + latestAheadDays * 86_400_000
  const first = query.from ?? newJerseyDay(query.now)
  const free: number[] = []
  for (let i = 0; i < Math.min(query.days, maxListedDays); i++) {
    for (const start of slotStartsOn(addDays(first, i), query.rules.minutes, query.hours)) {
      if (start < earliest || start > latest) continue
      if ((query.booked.get(start) ?? 0) < query.rules.capacity) free.push(start)
    }
  }
  return free
}

/** Whether `startsAt` is a slot at all now (inside hours, on the grid, within the window), full or not. */
export function isOfferedStart(startsAt: number, now: number, rules: SlotRules, hours?: readonly OpeningHours[]): boolean {
  if (startsAt < now + earliestAheadMs || startsAt > now + latestAheadDays * 86_400_000) return false
  return slotStartsOn(newJerseyDay(startsAt), rules.minutes, hours).includes(startsAt)
}

/** `GET /api/appointments/slots`: which showroom, which kind, from which day, for how many days. */
export const slotsInput = z.object({
  showroom: z.enum(showroomKeys as [string, ...string[]], `showroom must be one of: ${showroomKeys.join(', ')}`),
  kind: z.enum(appointmentKinds, `kind must be one of: ${appointmentKinds.join(', ')}`),
  from: z.optional(
    z.string('from must be a date, YYYY-MM-DD').check(
      z.refine((v) => dayPattern.test(v) && !Number.isNaN(Date.parse(`${v}T12:00:00Z`)) && new Date(`${v}T12:00:00Z`).toISOString().startsWith(v), 'from must be a date, YYYY-MM-DD'),
    ),
  ),
  days: z.optional(z.int('days must be a whole number from 1 to 60').check(z.minimum(1, 'days must be a whole number from 1 to 60'), z.maximum(maxListedDays, 'days must be a whole number from 1 to 60'))),
})
export type SlotsInput = z.input<typeof slotsInput>

/** The shopper's fields: the lead forms' own rules, so a booking's lead is like any other. */
const shopperFields = z.pick(inquiryInput, {
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  message: true,
  textConsent: true,
  sourceUrl: true,
  sourceLabel: true,
})

const startsAtField = z.string('startsAt is required: a slot’s start, as the slots list gives it').check(
  z.refine((v) => v.length <= 40 && !Number.isNaN(Date.parse(v)) && /T\d{2}:\d{2}/.test(v), 'Choose a time from the list'),
)

/** `POST /api/appointments` and `appointment.book`. */
export const appointmentInput = z
  .extend(shopperFields, {
    showroom: slotsInput.shape.showroom,
    kind: slotsInput.shape.kind,
    startsAt: startsAtField,
    cartId: z.optional(z.int('cartId must be a whole number').check(z.positive('cartId must be a whole number'))),
    /**
     * A drop-off's service request (the cart's make, what it needs): the service form with a
     * drop-off time chosen is one booking and one lead carrying both (docs/decisions/0046).
     */
    service: z.optional(serviceRequestFields),
  })
  .check(
    z.superRefine((input, ctx) => {
      if (input.service && input.kind !== 'service') {
        ctx.issues.push({ code: 'custom', input: input.service, path: ['service'], message: 'A service request goes with a service drop-off only' })
      }
      if (input.service?.needs.includes('other') && !input.message) {
        ctx.issues.push({ code: 'custom', input: input.message, path: ['message'], message: 'Tell us what else the cart needs' })
      }
      if (input.textConsent && !input.phone) {
        ctx.issues.push({ code: 'custom', input: input.phone, path: ['phone'], message: `Enter the phone number to text, or untick “${textConsentLabel}”` })
      }
    }),
  )
export type AppointmentInput = z.input<typeof appointmentInput>
export type ValidAppointment = z.output<typeof appointmentInput>

/** A booking's signed link, as its page's address carries it (`?booking=12&sig=...`). */
export const bookingLinkInput = z.object({
  booking: z.string('booking is required').check(z.maxLength(12, { message: 'This booking link is not valid', abort: true })),
  sig: z.string('sig is required').check(z.maxLength(64, { message: 'This booking link is not valid', abort: true })),
})

/** Moving a booking by its link: the new start. */
export const moveInput = z.object({ startsAt: startsAtField })

/** The fields of the booking form, in its order: where each problem is shown. */
export const appointmentFormFields = ['startsAt', 'firstName', 'lastName', 'email', 'phone', 'message', 'textConsent'] as const

/** What a booking answers (201): the booking, its lead, and its times in ISO 8601. */
export interface BookingReceipt {
  id: number
  leadId: number
  showroom: string
  kind: AppointmentKind
  startsAt: string
  endsAt: string
}

/** The answer when the slot filled while the shopper chose. */
export const slotTakenMessage = 'That time was just taken. Please choose another.'

const timeFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', minute: '2-digit' })
const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'long', month: 'long', day: 'numeric' })
const shortDayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', month: 'short', day: 'numeric' })

/** "10:30 AM", New Jersey time. */
export const slotTime = (at: Date | string | number) => timeFormat.format(new Date(at))
/** "Saturday, December 12". */
export const slotDay = (at: Date | string | number) => dayFormat.format(new Date(at))
/** "Sat, Dec 12". */
export const slotShortDay = (at: Date | string | number) => shortDayFormat.format(new Date(at))
/** "Saturday, December 12 at 10:30 AM". */
export const slotWhen = (at: Date | string | number) => `${slotDay(at)} at ${slotTime(at)}`

/** The slots grouped by New Jersey day, in order, for a picker. */
export function slotsByDay(starts: readonly string[]): { day: string; starts: string[] }[] {
  const days: { day: string; starts: string[] }[] = []
  for (const start of starts) {
    const day = newJerseyDay(Date.parse(start))
    const last = days.at(-1)
    if (last?.day === day) last.starts.push(start)
    else days.push({ day, starts: [start] })
  }
  return days
}

/** The kinds' interest on the lead: a test drive's is `test-drive`, a drop-off's `service`. */
export const appointmentInterest: Record<AppointmentKind, 'test-drive' | 'service'> = { 'test-drive': 'test-drive', service: 'service' }

/** What staff mark after the time. */
export const appointmentStatuses = ['booked', 'showed', 'no-show', 'cancelled'] as const
export type AppointmentStatus = (typeof appointmentStatuses)[number]
