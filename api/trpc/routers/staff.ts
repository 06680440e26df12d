import * as z from 'zod/mini'
import { router } from '../init.ts'
import { staffProcedure } from '../staff-procedure.ts'
import { staffCartsRouter } from './staff-carts.ts'
import { staffLeadsRouter } from './staff-leads.ts'
import { feedsReport } from '../../feeds/listing-feeds.ts'
import { staffPhotosRouter } from './staff-photos.ts'

/** The staff console's API: every procedure is a `staffProcedure` (session, and origin for writes). */
export const staffRouter = router({
  /** Who is signed in, since when, and when the session ends at the latest. */
  me: staffProcedure.query(({ ctx }) => ({
    username: ctx.session.user.username,
    signedInAt: ctx.session.signedInAt,
    expiresAt: ctx.session.expiresAt,
  })),

  session: router({
    /** Ends this account's sessions on every browser, this one included. */
    signOutEverywhere: staffProcedure.mutation(async ({ ctx }) => {
      const ended = await ctx.staff.sessions.endAll(ctx.session.user.id)
      ctx.request.clearStaffCookie?.()
      return { ended }
    }),
  }),

  cart: staffCartsRouter,

  lead: staffLeadsRouter,

  feeds: router({
    /** Each listing feed: how many available carts it lists, and which it leaves out and why. */
    report: staffProcedure.query(({ ctx }) => feedsReport(ctx)),
  }),

  photo: staffPhotosRouter,

  audit: router({
    /**
     * A cart's history, newest first: who changed which field, from what to what, and when; its
     * photos' changes (added, reordered, cover, alt text, removed) among them.
     */
    forCart: staffProcedure
      .input(
        z.object({
          id: z.int('id must be a whole number').check(z.minimum(1)),
          limit: z.optional(z.int().check(z.minimum(1), z.maximum(200))),
          before: z.optional(z.int().check(z.minimum(1))),
        }),
      )
      .query(({ ctx, input }) => ctx.staff.cartHistory(input.id, { limit: input.limit ?? 50, before: input.before })),
  }),
})
