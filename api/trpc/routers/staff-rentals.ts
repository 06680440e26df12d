import * as z from 'zod/mini'
import { newJerseyToday } from '../../../domain/calendar-days.ts'
import { calendarDayProblem } from '../../../domain/rental-request.ts'
import { cartTypes, planKeys } from '../../../domain/rental-plans.ts'
import { router } from '../init.ts'
import { staffProcedure } from '../staff-procedure.ts'

const leadId = z.int('id must be a whole number').check(z.minimum(1))
/** A day within the calendar's window (two years either side of today), with its sentence. */
const day = z.string('Enter a date, like 2026-07-04').check(
  z.superRefine((value, ctx) => {
    const problem = calendarDayProblem(value)
    if (problem) ctx.issues.push({ code: 'custom', input: value, message: problem, continue: true })
  }),
)

/**
 * The rental calendar (PRODUCT.md, "rental calendar"): the fleet, and per day the requests and
 * confirmed reservations; confirm, decline or change a request. Confirming reserves a cart of the
 * type for the request's days and is refused (409) when the fleet is full on one of them, checked
 * in the confirmation's own transaction, so two people confirming at once cannot double-book.
 */
export const staffRentalsRouter = router({
  /**
   * The fleet, each type's counts per day of [from, from + days), and the requests overlapping them;
   * `deposit` is what confirming may ask of a renter (`{ amountCents }`), null without Stripe's settings.
   */
  calendar: staffProcedure
    .input(z.object({ from: z.optional(day), days: z.optional(z.int().check(z.minimum(1), z.maximum(62))) }))
    .query(async ({ ctx, input }) => ({
      ...(await ctx.rentals.calendar(input.from ?? newJerseyToday(), input.days ?? 14)),
      deposit: ctx.rentalDeposits.offer(),
    })),

  confirm: staffProcedure.input(z.object({ id: leadId })).mutation(({ ctx, input }) => ctx.rentals.confirm(input.id, ctx.actor)),

  decline: staffProcedure.input(z.object({ id: leadId })).mutation(({ ctx, input }) => ctx.rentals.decline(input.id, ctx.actor)),

  /** New cart, plan or start date, as agreed with the renter; a confirmed request must still fit. */
  change: staffProcedure
    .input(
      z.object({
        id: leadId,
        cartType: z.enum(cartTypes, `Choose a cart: ${cartTypes.join(', ')}`),
        plan: z.enum(planKeys, `Choose a plan: ${planKeys.join(', ')}`),
        startDate: day,
      }),
    )
    .mutation(({ ctx, input }) => ctx.rentals.change(input.id, input, ctx.actor)),

  /**
   * Emails the renter of a confirmed reservation a link to pay its deposit (RENTAL_DEPOSIT); paid,
   * the calendar shows it. 412 without Stripe's settings.
   */
  sendDepositLink: staffProcedure.input(z.object({ id: leadId })).mutation(({ ctx, input }) => ctx.rentalDeposits.sendLink(ctx.actor, input.id)),

  /** How many carts of a type the dealer rents (the fleet: managers and owners, PRODUCT.md "roles"). */
  setFleet: staffProcedure
    .input(
      z.object({
        cartType: z.enum(cartTypes, `Choose a cart: ${cartTypes.join(', ')}`),
        carts: z.int('Carts must be a whole number').check(z.minimum(0, 'Carts cannot be negative'), z.maximum(500, 'At most 500 carts')),
      }),
    )
    .mutation(({ ctx, input }) => ctx.rentals.setFleet(input.cartType, input.carts, ctx.actor, newJerseyToday())),
})
