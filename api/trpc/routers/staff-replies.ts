import { TRPCError } from '@trpc/server'
import * as z from 'zod/mini'
import { templateInput } from '../../../domain/reply-templates.ts'
import { NoSuchCustomerError } from '../../customers/customer-store.ts'
import { FieldError } from '../../http/errors.ts'
import { NoSuchLeadError } from '../../staff/lead-inbox.ts'
import { NoSuchTemplateError } from '../../staff/reply-templates.ts'
import { router } from '../init.ts'
import { staffProcedure } from '../staff-procedure.ts'

const id = (name = 'id') => z.int(`${name} must be a whole number`).check(z.minimum(1, `${name} must be positive`))

/** A template, lead or customer that is not there: 404 with its key; a field the store refused: 400 beside it. */
const recordProcedure = staffProcedure.use(async ({ next }) => {
  const result = await next()
  if (result.ok) return result
  const cause = result.error.cause
  if (cause instanceof NoSuchTemplateError || cause instanceof NoSuchLeadError || cause instanceof NoSuchCustomerError) {
    throw new TRPCError({ code: 'NOT_FOUND', message: cause.message })
  }
  if (cause instanceof FieldError) throw new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause })
  return result
})

/** Reply templates (PRODUCT.md, "templates"): everyone reads and uses them; managers and owners keep them. */
export const staffTemplatesRouter = router({
  list: recordProcedure.query(({ ctx }) => ctx.staff.templates.list()),
  save: recordProcedure.input(templateInput).mutation(({ ctx, input }) => ctx.staff.templates.save(ctx.actor, input)),
  remove: recordProcedure.input(z.object({ id: id() })).mutation(({ ctx, input }) => ctx.staff.templates.remove(ctx.actor, input.id)),
  /** A template filled in for a lead, as the reply box offers it. */
  render: recordProcedure
    .input(z.object({ id: id(), leadId: id('leadId') }))
    .query(({ ctx, input }) => ctx.staff.templates.render(input.id, input.leadId, ctx.actor)),
})

/** Customers (PRODUCT.md, "customers"): one record per person, every lead and message on it. */
export const staffCustomersRouter = router({
  get: recordProcedure.input(z.object({ id: id() })).query(({ ctx, input }) => ctx.staff.customers.get(input.id)),
})
