import * as z from 'zod/mini'
import { fieldRefused } from '../../http/errors.ts'
import { router } from '../init.ts'
import { staffProcedure } from '../staff-procedure.ts'
import { staffCartsRouter } from './staff-carts.ts'
import { staffLeadsRouter } from './staff-leads.ts'
import { feedsReport } from '../../feeds/listing-feeds.ts'
import { staffPhotosRouter } from './staff-photos.ts'
import { dealerSettingsChangeSchema } from '../../../domain/dealer-settings.ts'
import { PushEndpointRefused, pushSubscriptionSchema } from '../../leads/staff-alerts.ts'

import { staffRentalsRouter } from './staff-rentals.ts'
import { staffDepositsRouter } from './staff-deposits.ts'
import { staffAppointmentsRouter, staffTasksRouter } from './staff-appointments.ts'
import { staffCustomersRouter, staffTemplatesRouter } from './staff-replies.ts'
import { checkCurrentPassword, password, staffAccountRouter, staffAccountsRouter } from './staff-accounts.ts'

/**
 * The staff console's API: every procedure is a `staffProcedure` (session, the role its rule in
 * domain/staff-access.ts names, and origin for writes).
 */
export const staffRouter = router({
  /** Who is signed in, since when, and when the session ends at the latest. */
  me: staffProcedure.query(({ ctx }) => ({
    username: ctx.session.user.username,
    role: ctx.session.user.role,
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

  /** Each person's own account: email, password, sessions (issue #29). */
  account: staffAccountRouter,

  /** Every account, for owners (issue #29). */
  accounts: staffAccountsRouter,

  cart: staffCartsRouter,

  lead: staffLeadsRouter,

  /** Reply templates with placeholders (issue #50). */
  template: staffTemplatesRouter,

  /** One record per person (issue #50). */
  customer: staffCustomersRouter,

  /** Bookings of test drives and drop-offs, and follow-ups on leads (issue #51). */
  appointment: staffAppointmentsRouter,
  task: staffTasksRouter,

  feeds: router({
    /** Each listing feed: how many available carts it lists, and which it leaves out and why. */
    report: staffProcedure.query(({ ctx }) => feedsReport(ctx)),
  }),

  photo: staffPhotosRouter,

  /** The owner's settings (domain/dealer-settings.ts); each change is in the audit log. */
  settings: router({
    get: staffProcedure.query(({ ctx }) => ctx.staff.settings.get()),
    /**
     * Saves the settings given; the others keep their values. Turning the second step off for
     * everyone takes the current password (`current`), as turning off one's own does.
     */
    save: staffProcedure.input(z.extend(dealerSettingsChangeSchema, { current: z.optional(password) })).mutation(async ({ ctx, input: { current, ...input } }) => {
      if (input.requireSecondStep === false && (await ctx.staff.settings.get()).requireSecondStep) await checkCurrentPassword(ctx, current ?? '')
      // Requiring a second step of everyone sends whoever has none to Your account: the owner
      // turning it on adds theirs first, or they could no longer reach this setting.
      if (input.requireSecondStep === true && !(await ctx.staff.secondStep.enabled(ctx.session.user.id))) {
        const message = 'Add an authenticator app to your own account first (Your account): you would be sent there too.'
        throw fieldRefused('requireSecondStep', message)
      }
      return ctx.staff.settings.save(ctx.actor, input)
    }),
  }),

  rental: staffRentalsRouter,

  /** Deposits paid online (issue #52): refund, or count one toward a sale. */
  deposit: staffDepositsRouter,

  /**
   * Lead alerts on this browser (PRODUCT.md, "lead alerts"): the key a subscription is made with,
   * and this account's subscriptions; the count of new leads for this account.
   */
  alerts: router({
    publicKey: staffProcedure.query(async ({ ctx }) => ({ publicKey: await ctx.staff.alerts.publicKey() })),
    /** Refused beside `endpoint` when it is not a browser's push service or is another account's. */
    subscribe: staffProcedure.input(pushSubscriptionSchema).mutation(async ({ ctx, input }) => {
      try {
        return await ctx.staff.alerts.subscribe(ctx.session.user.id, input)
      } catch (error) {
        if (error instanceof PushEndpointRefused) throw fieldRefused('endpoint', error.message)
        throw error
      }
    }),
    unsubscribe: staffProcedure
      .input(z.object({ endpoint: z.string().check(z.maxLength(2000)) }))
      .mutation(({ ctx, input }) => ctx.staff.alerts.unsubscribe(ctx.session.user.id, input.endpoint)),
    newLeads: staffProcedure.query(async ({ ctx }) => ({ count: await ctx.staff.alerts.newLeadCount(ctx.session.user.id) })),
  }),

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
