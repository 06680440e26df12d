import { TRPCError } from '@trpc/server'
import * as z from 'zod/mini'
import { business } from '../../../domain/business.ts'
import { oneSubject, watchInput, watchSubjectShape, watchToken } from '../../../domain/cart-alerts-schema.ts'
import type { WatchSubject } from '../../alerts/watch-store.ts'
import { withDeadline } from '../../db/unavailable.ts'
import { FieldError, RateLimitedError } from '../../http/errors.ts'
import { pushSubscriptionSchema } from '../../leads/staff-alerts.ts'
import { publicProcedure, router } from '../init.ts'

/**
 * Shoppers watching a cart or a search (PRODUCT.md, "watching a cart or a search"). Asking is
 * rate limited per client address as leads are (counted apart), on the procedure itself, so the
 * REST door (`POST /api/alerts`), tRPC and the forms without JavaScript share one count.
 */
const limited = publicProcedure.use(async ({ ctx, next }) => {
  const verdict = await withDeadline(ctx.alertRateLimit.hit(ctx.request.clientAddress), ctx.deadlines.read, 'DATABASE_NOT_REACHED')
  if (!verdict.allowed) {
    const minutes = Math.max(1, Math.ceil(verdict.retryAfter / 60))
    throw new TRPCError({
      code: 'TOO_MANY_REQUESTS',
      message: `Too many alerts asked for from this address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or call ${business.tollFree.display}.`,
      cause: new RateLimitedError(verdict.retryAfter),
    })
  }
  const result = await next()
  // A cart no longer for sale is refused beside its field, as a schema's refusal is.
  if (!result.ok && result.error.cause instanceof FieldError) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: result.error.cause.message, cause: result.error.cause })
  }
  return result
})

const subjectOf = (input: { cartId?: number; query?: WatchSubject['query'] }): WatchSubject =>
  input.cartId !== undefined ? { cartId: input.cartId } : { query: input.query! }

const link = z.object({ token: watchToken })

export const alertsRouter = router({
  /**
   * An email watch of a cart (`cartId`) or a search (`query`, the inventory's filters): answered
   * at once; its confirmation email is queued, and nothing else is sent until its link is followed.
   * The answer never says whether the address already watches it.
   */
  watch: limited.input(watchInput).mutation(async ({ ctx, input }) => {
    await ctx.watches.request(input.email, subjectOf(input))
    return { accepted: true as const, message: 'Check your email and follow the link in it to turn the alert on.' }
  }),

  /** The key a shopper's browser subscribes to push with (the one the staff's browsers use). */
  pushKey: publicProcedure.query(async ({ ctx }) => ({ publicKey: await ctx.watches.pushKey() })),

  /** A watch by Web Push on this browser: on at once (the browser asked its visitor). */
  watchInBrowser: limited
    .input(z.object({ subscription: pushSubscriptionSchema, ...watchSubjectShape }).check(oneSubject))
    .mutation(async ({ ctx, input }) => {
      await ctx.watches.watchInBrowser(input.subscription, subjectOf(input))
      return { watching: true as const }
    }),

  /** This browser stops watching the cart or search. */
  stopInBrowser: publicProcedure
    .input(z.object({ endpoint: pushSubscriptionSchema.shape.endpoint, ...watchSubjectShape }).check(oneSubject))
    .mutation(async ({ ctx, input }) => {
      await ctx.watches.stopInBrowser(input.endpoint, subjectOf(input))
      return { watching: false as const }
    }),

  /** What a confirmation link is about and whether it was used: its page's data. */
  confirmation: publicProcedure.input(link).query(({ ctx, input }) => ctx.watches.link('confirm', input.token)),
  /** What an unsubscribe link is about: its page's data. */
  subscription: publicProcedure.input(link).query(({ ctx, input }) => ctx.watches.link('unsubscribe', input.token)),
  /** Follows a confirmation link (its page's button; a GET never confirms, so a mail scanner cannot). */
  confirm: publicProcedure.input(link).mutation(({ ctx, input }) => ctx.watches.confirm(input.token)),
  /** Ends a watch: the page's button, or a mail client's one-click POST (RFC 8058). */
  unsubscribe: publicProcedure.input(link).mutation(({ ctx, input }) => ctx.watches.unsubscribe(input.token)),
})
