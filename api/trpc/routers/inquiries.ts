import { TRPCError } from '@trpc/server'
import { business } from '../../../domain/business.ts'
import { leadInput } from '../../../domain/lead-input.ts'
import { withDeadline } from '../../db/unavailable.ts'
import { RateLimitedError } from '../../http/errors.ts'
import { priceRental } from '../../rentals/rental-store.ts'
import { middleware, publicProcedure, router } from '../init.ts'

/**
 * The lead rate limit, for every public write that stores a lead or starts one (a deposit): used
 * after the input's schema, so a refused invalid submission does not use up a visitor's slots.
 */
export const leadRateLimit = middleware(async ({ ctx, next }) => {
  // The first contact with the database, bounded like a read: a database that is down or
  // silent is answered "not sent" within 2 seconds, before the lead is ever sent to it.
  const verdict = await withDeadline(ctx.leadRateLimit.hit(ctx.request.clientAddress), ctx.deadlines.read, 'DATABASE_NOT_REACHED')
  if (!verdict.allowed) {
    const minutes = Math.max(1, Math.ceil(verdict.retryAfter / 60))
    throw new TRPCError({
      code: 'TOO_MANY_REQUESTS',
      message: `Too many messages from this address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or call ${business.tollFree.display}.`,
      cause: new RateLimitedError(verdict.retryAfter),
    })
  }
  return next()
})

export const inquiriesRouter = router({
  /**
   * Stores a lead: a contact / quote inquiry, or a rental or service request (domain/lead-input.ts);
   * the page it came from defaults to the Referer. A rental request is priced here (its delivery
   * ZIP outside New Jersey is refused beside its field) and stored with its lead. The rate
   * limit sits on the procedure itself, after the schema: every door to it (REST, tRPC however the
   * path is spelled, the form without JavaScript) shares one count per address, and a refused
   * invalid submission does not use up a visitor's slots.
   */
  submit: publicProcedure
    .input(leadInput)
    .use(leadRateLimit)
    .mutation(async ({ ctx, input }) => {
      const sourceUrl = input.sourceUrl || refererUrl(ctx.request.referer)
      return ctx.inquiries.add({ ...input, sourceUrl, rental: input.rental && (await priceRental(input.rental)) })
    }),

  /**
   * Whether leads from the asking page would be accepted, and its origin: an embedded form on a
   * page the dealer has not allowed tells the visitor to call instead, before they type.
   */
  originStatus: publicProcedure.query(({ ctx }) => ctx.request.leadOrigin ?? { origin: null, accepted: true }),
})

/** The page a lead came from, when the browser's Referer is an ordinary web address. */
export function refererUrl(referer: string | undefined): string | undefined {
  if (!referer || referer.length > 2000) return undefined
  return /^https?:\/\/\S+$/i.test(referer) ? referer : undefined
}
