import { TRPCError } from '@trpc/server'
import * as z from 'zod/mini'
import { appointmentInput, bookingLinkInput, moveInput, slotsInput } from '../../../domain/appointments.ts'
import type { AppointmentFacts } from '../../appointments/appointment-store.ts'
import type { Context } from '../context.ts'
import { publicProcedure, router } from '../init.ts'
import { leadRateLimit, refererUrl } from './inquiries.ts'

/** What a booking's link shows: the booking, never the shopper's contact details but the first name. */
export interface BookingView {
  id: number
  showroom: string
  kind: AppointmentFacts['kind']
  startsAt: string
  endsAt: string
  status: AppointmentFacts['status']
  firstName: string
  cartTitle: string | null
}

const view = (b: AppointmentFacts): BookingView => ({
  id: b.id,
  showroom: b.showroom,
  kind: b.kind,
  startsAt: b.startsAt.toISOString(),
  endsAt: new Date(b.startsAt.getTime() + b.minutes * 60_000).toISOString(),
  status: b.status,
  firstName: b.firstName,
  cartTitle: b.cartTitle,
})

/** The booking a signed link names; any other link (a changed id or signature) is a 404. */
async function linked(ctx: Context, input: z.output<typeof bookingLinkInput>): Promise<AppointmentFacts> {
  const booking = await ctx.appointments.byLink(input.booking, input.sig)
  if (!booking) throw new TRPCError({ code: 'NOT_FOUND', message: 'This booking link is not valid. Use the link in your confirmation email, or call us.' })
  return booking
}

export const appointmentsRouter = router({
  /** The free slots of a showroom and kind (PRODUCT.md, "appointments"): `GET /api/appointments/slots`. */
  slots: publicProcedure.input(slotsInput).query(({ ctx, input }) => ctx.appointments.slots(input)),

  /**
   * Books a slot (`POST /api/appointments`): a lead routed and alerted as any other, and the
   * shopper's confirmation queued with it; 409 when the slot is full. The lead rate limit applies,
   * as to every public write that makes a lead.
   */
  book: publicProcedure
    .input(appointmentInput)
    .use(leadRateLimit)
    .mutation(({ ctx, input }) => ctx.appointments.book({ ...input, sourceUrl: input.sourceUrl || refererUrl(ctx.request.referer) })),

  /** The booking a confirmation's signed link opens (no account). */
  byLink: publicProcedure.input(bookingLinkInput).query(async ({ ctx, input }) => view(await linked(ctx, input))),

  /** Moves the linked booking to another free start: 409 when that slot is full. */
  move: publicProcedure
    .input(z.extend(bookingLinkInput, moveInput.shape))
    .mutation(async ({ ctx, input }) => view(await ctx.appointments.move((await linked(ctx, input)).id, input.startsAt))),

  /** Cancels the linked booking; its slot is free again. */
  cancel: publicProcedure.input(bookingLinkInput).mutation(async ({ ctx, input }) => view(await ctx.appointments.cancel((await linked(ctx, input)).id))),
})
