import { TRPCError } from '@trpc/server'
import * as z from 'zod/mini'
import { leadInterestOptions, type LeadInterest, plainText } from '../../../domain/inquiry.ts'
import { leadStatuses } from '../../../domain/lead-status.ts'
import { notificationKinds } from '../../inquiries/inquiry-store.ts'
import { defaultRange, rangeProblem } from '../../staff/lead-dashboard.ts'
import { LeadActionError, NoSuchLeadError } from '../../staff/lead-inbox.ts'
import { logCallInput, replyInput } from '../../../domain/lead-replies.ts'
import { router } from '../init.ts'
import { requireAbility, staffProcedure } from '../staff-procedure.ts'

const leadInterestValues = leadInterestOptions.map((o) => o.value) as [LeadInterest, ...LeadInterest[]]

const leadId = z.int('id must be a whole number').check(z.minimum(1, 'id must be positive'))

const day = (name: string) =>
  z.string(`${name} must be a date like 2026-11-01`).check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date like 2026-11-01`),
    z.refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), `${name} must be a real date`),
  )

/** The inbox's filters; `owner` also takes `me` (the signed-in account) and `none` (nobody). */
const leadFilter = {
  status: z.optional(z.enum(leadStatuses, `status must be one of: ${leadStatuses.join(', ')}`)),
  owner: z.optional(z.union([leadId, z.literal('none'), z.literal('me')], 'owner must be a staff id, "me" or "none"')),
  interest: z.optional(z.union([z.enum(leadInterestValues), z.literal('none')], `interest must be one of: ${leadInterestValues.join(', ')}, none`)),
  source: z.optional(z.string('source must be text').check(z.maxLength(200, 'source must be at most 200 characters'), plainText('source'))),
  from: z.optional(day('from')),
  to: z.optional(day('to')),
  q: z.optional(z.string('q must be text').check(z.maxLength(100, 'Search at most 100 characters'), plainText('q'))),
}

/** The inbox's refusals as the API's: a missing lead 404, a change the lead's state refuses 409 or 400. */
const leadProcedure = staffProcedure.use(async ({ next }) => {
  const result = await next()
  if (result.ok) return result
  const cause = result.error.cause
  if (cause instanceof NoSuchLeadError) throw new TRPCError({ code: 'NOT_FOUND', message: cause.message })
  if (cause instanceof LeadActionError) {
    throw new TRPCError({ code: cause.kind === 'conflict' ? 'CONFLICT' : 'BAD_REQUEST', message: cause.message })
  }
  return result
})

/** The lead inbox (PRODUCT.md, "leads"): every procedure a `staffProcedure`; every change audited. */
export const staffLeadsRouter = router({
  /** The inbox, newest first: filters, search and paging, for 100,000 leads and more. */
  list: leadProcedure
    .input(
      z.optional(
        z.object({
          ...leadFilter,
          limit: z.optional(z.int('limit must be a whole number').check(z.minimum(1), z.maximum(200))),
          offset: z.optional(z.int('offset must be a whole number').check(z.minimum(0), z.maximum(1_000_000))),
        }),
      ),
    )
    .query(({ ctx, input }) =>
      ctx.staff.leads.list({
        ...input,
        owner: input?.owner === 'me' ? ctx.actor.id ?? 'none' : input?.owner,
        limit: input?.limit ?? 50,
      }),
    ),

  /**
   * A lead's page: the whole message, notes, each notification's delivery, the history, the
   * timeline, and whether it can be texted now (and why not).
   */
  get: leadProcedure.input(z.object({ id: leadId })).query(async ({ ctx, input }) => {
    const lead = await ctx.staff.leads.get(input.id)
    return { ...lead, texting: await ctx.staff.replies.texting(lead) }
  }),

  /** Answers the shopper by email or text (PRODUCT.md, "replies from the console"): their first response if none yet. */
  reply: leadProcedure.input(replyInput).mutation(({ ctx, input }) => ctx.staff.replies.reply(ctx.actor, input)),

  /** A call made: reached, voicemail or no answer, with a note. */
  logCall: leadProcedure.input(logCallInput).mutation(({ ctx, input }) => ctx.staff.replies.logCall(ctx.actor, input)),

  /** The staff accounts leads can be given to, and every source seen, for the filters. */
  choices: leadProcedure.query(({ ctx }) => ctx.staff.leads.choices()),

  setStatus: leadProcedure
    .input(z.object({ id: leadId, status: z.enum(leadStatuses, `status must be one of: ${leadStatuses.join(', ')}`) }))
    .mutation(({ ctx, input }) => ctx.staff.leads.setStatus(ctx.actor, input.id, input.status)),

  /** Gives the lead to a staff member (`ownerId`), or to nobody (`null`). */
  assign: leadProcedure
    .input(z.object({ id: leadId, ownerId: z.nullable(leadId) }))
    .mutation(({ ctx, input }) => {
      // Sales take a lead themselves; giving it to someone else, or to nobody, is a manager's.
      if (input.ownerId !== ctx.actor.id) requireAbility(ctx.session, 'assignLeadsToAnyone')
      return ctx.staff.leads.assign(ctx.actor, input.id, input.ownerId)
    }),

  addNote: leadProcedure
    .input(
      z.object({
        id: leadId,
        text: z.string('The note must be text').check(
          z.trim(),
          z.minLength(1, 'Write the note first'),
          z.maxLength(5000, 'A note can be at most 5000 characters'),
          plainText('The note', { lines: true }),
        ),
      }),
    )
    .mutation(({ ctx, input }) => ctx.staff.leads.addNote(ctx.actor, input.id, input.text)),

  /** "Send again now": a notification that failed (or waits) is tried at once. */
  resend: leadProcedure
    .input(z.object({ id: leadId, kind: z.enum(notificationKinds, `kind must be one of: ${notificationKinds.join(', ')}`) }))
    .mutation(({ ctx, input }) => ctx.staff.leads.resend(ctx.actor, input.id, input.kind)),

  /** The Spam view: what the spam rules caught, newest first, each with its rule. */
  spam: leadProcedure
    .input(
      z.optional(
        z.object({
          limit: z.optional(z.int('limit must be a whole number').check(z.minimum(1), z.maximum(200))),
          offset: z.optional(z.int('offset must be a whole number').check(z.minimum(0), z.maximum(1_000_000))),
        }),
      ),
    )
    .query(({ ctx, input }) => ctx.staff.spam.list({ limit: input?.limit ?? 50, offset: input?.offset })),

  /** "Not spam": the lead moves to the inbox and its emails are queued now. */
  notSpam: leadProcedure.input(z.object({ id: leadId })).mutation(({ ctx, input }) => ctx.staff.spam.notSpam(ctx.actor, input.id)),

  /** Leads per week by source and by interest, the share answered within an hour, won and lost. */
  dashboard: leadProcedure
    .input(z.optional(z.object({ from: z.optional(day('from')), to: z.optional(day('to')) })))
    .query(({ ctx, input }) => {
      const fallback = defaultRange()
      const range = { from: input?.from ?? fallback.from, to: input?.to ?? fallback.to }
      const problem = rangeProblem(range)
      if (problem) throw new TRPCError({ code: 'BAD_REQUEST', message: problem })
      return ctx.staff.leadDashboard(range)
    }),
})
