import { TRPCError } from '@trpc/server'
import * as z from 'zod/mini'
import { depositStatusLabels, type DepositStatus } from '../../../domain/deposits.ts'
import { router } from '../init.ts'
import { staffProcedure } from '../staff-procedure.ts'

const depositId = z.object({ id: z.int('id must be a whole number').check(z.minimum(1)) })
const statuses = Object.keys(depositStatusLabels) as [DepositStatus, ...DepositStatus[]]

/** The settings a dealer sets to take deposits: what `/staff/deposits` names when they are missing. */
export const depositSettingNames = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const

/**
 * `/staff/deposits` (PRODUCT.md, "after the hold"; managers and owners): deposits paid online,
 * a refund, or the cart marked sold with the deposit counted toward its price. Each change is in
 * the audit log. Without Stripe's settings the list says what to set.
 */
export const staffDepositsRouter = router({
  list: staffProcedure.input(z.optional(z.object({ status: z.optional(z.enum(statuses, `status must be one of: ${statuses.join(', ')}`)) }))).query(async ({ ctx, input }) => ({
    configured: ctx.deposits.offer() !== null,
    toSet: ctx.deposits.offer() === null ? [...depositSettingNames] : [],
    deposits: await ctx.staffDeposits.list(input?.status),
  })),

  /** One paid deposit, for the console's confirm steps, and whether Stripe is set up; 404 for one still at Stripe's page or none. */
  get: staffProcedure.input(depositId).query(async ({ ctx, input }) => {
    const deposit = await ctx.staffDeposits.get(input.id)
    if (!deposit) throw new TRPCError({ code: 'NOT_FOUND', message: `No deposit has the id ${input.id}` })
    return { configured: ctx.deposits.offer() !== null, deposit }
  }),

  refund: staffProcedure.input(depositId).mutation(({ ctx, input }) => ctx.staffDeposits.refund(ctx.actor, input.id)),

  markSold: staffProcedure.input(depositId).mutation(({ ctx, input }) => ctx.staffDeposits.markSold(ctx.actor, input.id)),
})
