import { TRPCError } from '@trpc/server'
import type { Sql } from '../db/database.ts'
import { type Actor, recordChanges } from './audit.ts'

/**
 * Follow-ups on leads (PRODUCT.md, "follow-ups"): staff add a task (a due time and a note) and
 * mark it done; each is in the audit log of its lead. The alert at the due time is the upkeep's
 * (api/appointments/follow-up-upkeep.ts).
 */
export interface LeadTask {
  id: number
  leadId: number
  dueAt: Date
  note: string
  author: string | null
  createdAt: Date
  alertedAt: Date | null
  doneAt: Date | null
  /** The lead's shopper and owner, for the lists. */
  firstName: string
  lastName: string
  ownerName: string | null
}

const columns = (sql: Sql) => sql`
  t.id, t.inquiry_id as lead_id, t.due_at, t.note, t.author, t.created_at, t.alerted_at, t.done_at,
  i.first_name, i.last_name, u.username as owner_name
`

export function createLeadTasks(sql: Sql, options: { clock?: () => Date } = {}) {
  const clock = options.clock ?? (() => new Date())
  return {
    async create(actor: Actor, input: { leadId: number; dueAt: Date; note: string }): Promise<{ id: number }> {
      return sql.begin(async (tx) => {
        const [lead] = await tx<{ id: number }[]>`select id from contact_inquiries where id = ${input.leadId} and spam_reason is null for update`
        if (!lead) throw new TRPCError({ code: 'NOT_FOUND', message: `No lead has the id ${input.leadId}` })
        const [task] = await tx<[{ id: number }]>`
          insert into lead_tasks (inquiry_id, due_at, note, author_id, author)
          values (${input.leadId}, ${input.dueAt}, ${input.note}, ${actor.id}, ${actor.name})
          returning id
        `
        await recordChanges(tx, actor, 'task', task.id, [{ action: 'create', after: { lead: input.leadId, dueAt: input.dueAt.toISOString(), note: input.note } }])
        return { id: task.id }
      })
    },

    /** Marks a task done (again: nothing changes). */
    async done(actor: Actor, id: number): Promise<{ id: number; leadId: number }> {
      return sql.begin(async (tx) => {
        const [task] = await tx<{ leadId: number; doneAt: Date | null }[]>`select inquiry_id as lead_id, done_at from lead_tasks where id = ${id} for update`
        if (!task) throw new TRPCError({ code: 'NOT_FOUND', message: `No task has the id ${id}` })
        if (!task.doneAt) {
          await tx`update lead_tasks set done_at = ${clock()}, done_by = ${actor.id} where id = ${id}`
          await recordChanges(tx, actor, 'task', id, [{ action: 'update', field: 'done', before: false, after: true }])
        }
        return { id, leadId: task.leadId }
      })
    },

    /** A lead's tasks: open ones first by due time, then done ones, newest first. */
    forLead(leadId: number): Promise<LeadTask[]> {
      return sql<LeadTask[]>`
        select ${columns(sql)} from lead_tasks t join contact_inquiries i on i.id = t.inquiry_id left join users u on u.id = i.owner_id
        where t.inquiry_id = ${leadId}
        order by (t.done_at is not null), case when t.done_at is null then t.due_at end, t.done_at desc, t.id
      `
    },

    /**
     * What the console's first page lists for this account: open tasks due by the end of today (New
     * Jersey's day) or overdue, on its own leads or written by it (`everyone`: every account's).
     */
    dueBy(userId: number, endOfToday: Date, everyone = false): Promise<LeadTask[]> {
      return sql<LeadTask[]>`
        select ${columns(sql)} from lead_tasks t join contact_inquiries i on i.id = t.inquiry_id left join users u on u.id = i.owner_id
        where t.done_at is null and t.due_at < ${endOfToday}
          and (${everyone} or i.owner_id = ${userId} or (i.owner_id is null and t.author_id = ${userId}))
        order by t.due_at, t.id
        limit 200
      `
    },
  }
}

export type LeadTasks = ReturnType<typeof createLeadTasks>
