import { TRPCError } from '@trpc/server'
import type { AppointmentStatus } from '../../domain/appointments.ts'
import type { Sql } from '../db/database.ts'
import type { AppointmentFacts } from './appointment-store.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'

/**
 * `/staff/appointments` (PRODUCT.md, "confirmations and reminders"): the bookings of a showroom
 * (or all) between two moments, staff marking who showed and who did not, and the dashboard's
 * bookings and no-show rate. Each mark is in the audit log.
 */
/** A visit as the console lists it: the booking's facts (but its revision) and who has its lead. */
export interface StaffAppointment extends Omit<AppointmentFacts, 'revision'> {
  ownerName: string | null
}

export interface BookingSummary {
  /** Bookings made per week (Monday of the week, New Jersey's calendar), the last 12 weeks. */
  weeks: { week: string; booked: number; cancelled: number; showed: number; noShow: number }[]
  /** Of the visits marked, the share nobody came to (null before any is marked). */
  noShowRate: number | null
  showed: number
  noShow: number
  /** Past visits still unmarked. */
  unmarked: number
}

export function createStaffAppointments(sql: Sql, options: { clock?: () => Date } = {}) {
  const clock = options.clock ?? (() => new Date())
  return {
    list(input: { from: Date; to: Date; showroom?: string }): Promise<StaffAppointment[]> {
      return sql<StaffAppointment[]>`
        select a.id, a.inquiry_id as lead_id, a.showroom, a.kind, a.starts_at, a.minutes, a.status,
               i.first_name, i.last_name, i.phone, i.email, i.cart_title, u.username as owner_name
        from appointments a join contact_inquiries i on i.id = a.inquiry_id left join users u on u.id = i.owner_id
        where a.starts_at >= ${input.from} and a.starts_at < ${input.to}
          ${input.showroom ? sql`and a.showroom = ${input.showroom}` : sql``}
        order by a.starts_at, a.showroom, a.id
        limit 2000
      `
    },

    /** Showed or no-show, once its time has come; booked again undoes a mistaken mark. */
    async mark(actor: Actor, id: number, status: 'showed' | 'no-show' | 'booked'): Promise<{ id: number; status: AppointmentStatus }> {
      return sql.begin(async (tx) => {
        const [row] = await tx<{ status: AppointmentStatus; startsAt: Date }[]>`select status, starts_at from appointments where id = ${id} for update`
        if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: `No appointment has the id ${id}` })
        if (row.status === 'cancelled') throw new TRPCError({ code: 'CONFLICT', message: 'The shopper cancelled this visit.' })
        if (status !== 'booked' && row.startsAt.getTime() > clock().getTime()) {
          throw new TRPCError({ code: 'CONFLICT', message: 'This visit has not started yet: mark it once its time has come.' })
        }
        if (row.status !== status) {
          await tx`update appointments set status = ${status}, marked_by = ${actor.id}, marked_at = ${clock()}, updated_at = now() where id = ${id}`
          await recordChanges(tx, actor, 'appointment', id, [{ action: 'update', field: 'status', before: row.status, after: status }])
        }
        return { id, status }
      })
    },

    async summary(): Promise<BookingSummary> {
      const weeks = await sql<BookingSummary['weeks']>`
        select to_char(date_trunc('week', created_at at time zone 'America/New_York'), 'YYYY-MM-DD') as week,
               count(*)::int as booked,
               count(*) filter (where status = 'cancelled')::int as cancelled,
               count(*) filter (where status = 'showed')::int as showed,
               count(*) filter (where status = 'no-show')::int as no_show
        from appointments
        where created_at >= ${new Date(clock().getTime() - 12 * 7 * 86_400_000)}
        group by 1 order by 1
      `
      const [totals] = await sql<{ showed: number; noShow: number; unmarked: number }[]>`
        select count(*) filter (where status = 'showed')::int as showed,
               count(*) filter (where status = 'no-show')::int as no_show,
               count(*) filter (where status = 'booked' and starts_at < ${clock()})::int as unmarked
        from appointments
      `
      const { showed, noShow, unmarked } = totals!
      return { weeks, showed, noShow, unmarked, noShowRate: showed + noShow > 0 ? noShow / (showed + noShow) : null }
    },
  }
}

export type StaffAppointments = ReturnType<typeof createStaffAppointments>
