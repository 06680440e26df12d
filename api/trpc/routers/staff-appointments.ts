import * as z from 'zod/mini'
import { showroomKeys } from '../../../domain/business.ts'
import { taskId, taskInput } from '../../../domain/lead-tasks.ts'
import { router } from '../init.ts'
import { staffProcedure } from '../staff-procedure.ts'

const id = z.object({ id: z.int('id must be a whole number').check(z.positive('id must be a whole number')) })

/**
 * `/staff/appointments` (PRODUCT.md, "confirmations and reminders"): the bookings between two
 * moments, a showroom's or all; showed, no-show (or booked again, to undo); the dashboard's figures.
 */
export const staffAppointmentsRouter = router({
  list: staffProcedure
    .input(
      z.object({
        from: z.iso.datetime({ offset: true, error: 'from must be an ISO 8601 time' }),
        to: z.iso.datetime({ offset: true, error: 'to must be an ISO 8601 time' }),
        showroom: z.optional(z.enum(showroomKeys as [string, ...string[]], `showroom must be one of: ${showroomKeys.join(', ')}`)),
      }),
    )
    .query(({ ctx, input }) => ctx.staffAppointments.list({ from: new Date(input.from), to: new Date(input.to), showroom: input.showroom })),

  mark: staffProcedure
    .input(z.extend(id, { status: z.enum(['showed', 'no-show', 'booked'], 'status must be showed, no-show or booked') }))
    .mutation(({ ctx, input }) => ctx.staffAppointments.mark(ctx.actor, input.id, input.status)),

  summary: staffProcedure.query(({ ctx }) => ctx.staffAppointments.summary()),
})

/** Follow-ups on leads (PRODUCT.md, "follow-ups"): `staff.task.create { leadId, dueAt, note }`, done, a lead's, the first page's. */
export const staffTasksRouter = router({
  create: staffProcedure.input(taskInput).mutation(({ ctx, input }) => ctx.staff.tasks.create(ctx.actor, input)),
  done: staffProcedure.input(taskId).mutation(({ ctx, input }) => ctx.staff.tasks.done(ctx.actor, input.id)),
  forLead: staffProcedure.input(z.object({ leadId: taskInput.shape.leadId })).query(({ ctx, input }) => ctx.staff.tasks.forLead(input.leadId)),
  /** Open tasks due by `endOfToday` or overdue: this account's, or (`everyone`) every account's. */
  due: staffProcedure
    .input(z.object({ endOfToday: z.iso.datetime({ offset: true }), everyone: z.optional(z.boolean()) }))
    .query(({ ctx, input }) => ctx.staff.tasks.dueBy(ctx.session.user.id, new Date(input.endOfToday), input.everyone ?? false)),
})
