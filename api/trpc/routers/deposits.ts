import { depositInput } from '../../../domain/deposits.ts'
import { publicProcedure, router } from '../init.ts'
import { leadRateLimit, refererUrl } from './inquiries.ts'

export const depositsRouter = router({
  /** What the pages offer (PRODUCT.md, "holding a cart"): the amount and the days, or null without Stripe's settings. */
  offer: publicProcedure.query(({ ctx }) => ctx.deposits.offer()),

  /**
   * A Stripe Checkout Session for an available cart, answered as its address (`{ url }`); the
   * shopper pays on Stripe's page. Only Stripe's signed event holds the cart. 404 without
   * Stripe's settings, 409 for a cart already held or sold; the lead rate limit applies, as to
   * every public write that makes a lead.
   */
  start: publicProcedure
    .input(depositInput)
    .use(leadRateLimit)
    .mutation(({ ctx, input }) => ctx.deposits.start({ ...input, sourceUrl: input.sourceUrl || refererUrl(ctx.request.referer) })),
})

