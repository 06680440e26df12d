import { newJerseyDay } from '../../domain/appointments.ts'
import { atWallClock } from '../../domain/business-hours.ts'
import { dueWords } from '../../domain/lead-tasks.ts'
import { leadPaths } from '../../domain/staff-paths.ts'
import type { StaffCaller } from './page.ts'

/**
 * The console's first page opens with the signed-in person's follow-ups (PRODUCT.md,
 * "follow-ups"): open tasks due today or overdue, on their leads or written by them, each a link to
 * its lead, where it is marked done.
 */
export async function loadDueFollowUps(caller: StaffCaller) {
  const [y, m, d] = newJerseyDay(Date.now()).split('-').map(Number)
  const endOfToday = new Date(atWallClock(y!, m!, d! + 1, 0, 0))
  return caller.staff.task.due({ endOfToday: endOfToday.toISOString() })
}

export function DueFollowUps({ tasks }: { tasks: Awaited<ReturnType<typeof loadDueFollowUps>> }) {
  const now = Date.now()
  const overdue = tasks.filter((t) => t.dueAt.getTime() < now).length
  return (
    <section className="lead-panel staff-follow-ups" aria-labelledby="follow-ups-heading">
      <h2 id="follow-ups-heading">
        Your follow-ups today{overdue > 0 ? ` (${overdue} overdue)` : ''}
      </h2>
      {tasks.length === 0 ? (
        <p className="staff-muted">Nothing due today.</p>
      ) : (
        <ul className="staff-tasks">
          {tasks.map((task) => (
            <li key={task.id} className={`staff-task${task.dueAt.getTime() < now ? ' staff-task--overdue' : ''}`}>
              <span className="staff-task__what">
                <strong>{dueWords(task.dueAt)}</strong>
                {task.dueAt.getTime() < now ? ' (overdue)' : ''}: {task.note}
              </span>
              <a href={`${leadPaths.lead(task.leadId)}#follow-ups`}>
                {task.firstName} {task.lastName}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
