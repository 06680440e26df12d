import { appointmentKindLabels, newJerseyDay, slotDay, slotShortDay, slotTime } from '../../domain/appointments.ts'
import { atWallClock } from '../../domain/business-hours.ts'
import { showroomByKey, showrooms } from '../../domain/business.ts'
import { leadPaths, staffPaths } from '../../domain/staff-paths.ts'
import { type PostOutcome, type StaffPageContext, type StaffPageProps, staffPage } from './page.ts'

/**
 * `/staff/appointments` (PRODUCT.md, "confirmations and reminders"): the bookings of a day or a
 * week, for one showroom or all, phone first (one card a visit, the time and the call button
 * first); after a visit's time, Showed or No-show (and Undo). Plain links and forms: no script.
 */
type View = 'day' | 'week'

const dayPattern = /^\d{4}-\d{2}-\d{2}$/

function shiftDay(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10)
}

/** Monday of the week a day is in. */
function mondayOf(day: string): string {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay()
  return shiftDay(day, -((weekday + 6) % 7))
}

const startOf = (day: string) => {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(atWallClock(y!, m!, d!, 0, 0))
}

export function appointmentsUrl(choice: { view?: View; day?: string; showroom?: string }): string {
  const query = new URLSearchParams()
  if (choice.view === 'week') query.set('view', 'week')
  if (choice.day) query.set('day', choice.day)
  if (choice.showroom) query.set('showroom', choice.showroom)
  const text = query.toString()
  return text ? `${staffPaths.appointments}?${text}` : staffPaths.appointments
}

async function loadAppointments(context: StaffPageContext) {
  const view: View = context.query.get('view') === 'week' ? 'week' : 'day'
  const asked = context.query.get('day') ?? ''
  const today = newJerseyDay(Date.now())
  const day = dayPattern.test(asked) && !Number.isNaN(Date.parse(`${asked}T12:00:00Z`)) ? asked : today
  const showroom = showroomByKey(context.query.get('showroom') ?? '')?.id
  const first = view === 'week' ? mondayOf(day) : day
  const days = view === 'week' ? 7 : 1
  const bookings = await context.caller.staff.appointment.list({
    from: startOf(first).toISOString(),
    to: startOf(shiftDay(first, days)).toISOString(),
    showroom,
  })
  return { view, day, first, days, today, showroom, bookings }
}

type AppointmentsData = Awaited<ReturnType<typeof loadAppointments>>

const statusLabels = { booked: 'Booked', showed: 'Showed', 'no-show': 'No-show', cancelled: 'Cancelled' } as const

async function postAppointments(context: StaffPageContext, form: Record<string, string>): Promise<PostOutcome> {
  // The appointment and its new status, read by staff.appointment.mark's own schema.
  const parsed = context.parse('staff.appointment.mark')
  if (!parsed.ok) return { status: 400, posted: { values: form, errors: {}, message: 'Choose Showed, No-show or Undo.' } }
  const { id, status } = parsed.value
  try {
    await context.caller.staff.appointment.mark(parsed.value)
    const back = appointmentsUrl({ view: form.view === 'week' ? 'week' : 'day', day: form.day, showroom: form.showroom || undefined })
    return { redirect: `${back}#appointment-${id}`, notice: `Marked ${statusLabels[status].toLowerCase()}.` }
  } catch (error) {
    return context.refused(error, form, id)
  }
}

function AppointmentsPage({ data, posted }: StaffPageProps<AppointmentsData>) {
  const link = (change: Partial<{ view: View; day: string; showroom: string | undefined }>) =>
    appointmentsUrl({ view: data.view, day: data.day, showroom: data.showroom, ...change })
  const step = data.view === 'week' ? 7 : 1
  const byDay = Array.from({ length: data.days }, (_, i) => shiftDay(data.first, i)).map((day) => ({
    day,
    bookings: data.bookings.filter((b) => newJerseyDay(b.startsAt.getTime()) === day),
  }))
  const now = Date.now()
  const heading = data.view === 'week' ? `Week of ${slotDay(`${data.first}T17:00:00Z`)}` : slotDay(`${data.day}T17:00:00Z`)
  return (
    <>
      <h1>Appointments</h1>
      {posted?.message && (
        <p className="staff-alert staff-alert--error" role="alert">
          {posted.message}
        </p>
      )}
      <nav className="appointments-nav" aria-label="Which appointments">
        <p className="appointments-nav__views">
          <a href={link({ view: 'day' })} aria-current={data.view === 'day' ? 'page' : undefined}>
            Day
          </a>
          <a href={link({ view: 'week' })} aria-current={data.view === 'week' ? 'page' : undefined}>
            Week
          </a>
        </p>
        <p className="appointments-nav__days">
          <a href={link({ day: shiftDay(data.day, -step) })}>← Previous</a>
          <a href={link({ day: data.today })}>Today</a>
          <a href={link({ day: shiftDay(data.day, step) })}>Next →</a>
        </p>
        <p className="appointments-nav__showrooms">
          <a href={link({ showroom: undefined })} aria-current={data.showroom === undefined ? 'page' : undefined}>
            All showrooms
          </a>
          {showrooms.map((s) => (
            <a key={s.id} href={link({ showroom: s.id })} aria-current={data.showroom === s.id ? 'page' : undefined}>
              {s.name}
            </a>
          ))}
        </p>
      </nav>
      <h2>{heading}</h2>
      {byDay.map(({ day, bookings }) => (
        <section key={day} className="appointments-day" aria-label={slotDay(`${day}T17:00:00Z`)}>
          {data.view === 'week' && <h3>{slotShortDay(`${day}T17:00:00Z`)}</h3>}
          {bookings.length === 0 ? (
            <p className="staff-muted">No appointments.</p>
          ) : (
            <ol className="appointments-list">
              {bookings.map((b) => {
                const started = b.startsAt.getTime() <= now
                return (
                  <li key={b.id} id={`appointment-${b.id}`} className={`appointment appointment--${b.status}`}>
                    <p className="appointment__when">
                      <strong>{slotTime(b.startsAt)}</strong> {appointmentKindLabels[b.kind]}
                      {data.showroom === undefined && <> · {showroomByKey(b.showroom)?.name ?? b.showroom}</>}
                    </p>
                    <p className="appointment__who">
                      <a href={leadPaths.lead(b.leadId)}>
                        {b.firstName} {b.lastName}
                      </a>
                      {b.cartTitle && b.kind === 'test-drive' ? <> · {b.cartTitle}</> : null}
                      {b.ownerName ? <> · {b.ownerName}</> : <> · nobody owns it</>}
                    </p>
                    <p className="appointment__actions">
                      {b.phone && (
                        <a className="staff-button staff-button--quiet" href={`tel:${b.phone.replace(/[^\d+]/g, '')}`}>
                          Call {b.phone}
                        </a>
                      )}
                      <span className="appointment__status">{statusLabels[b.status]}</span>
                    </p>
                    {b.status !== 'cancelled' && started && (
                      <form method="post" action={staffPaths.appointments} className="appointment__mark">
                        <input type="hidden" name="id" value={b.id} />
                        <input type="hidden" name="view" value={data.view} />
                        <input type="hidden" name="day" value={data.day} />
                        <input type="hidden" name="showroom" value={data.showroom ?? ''} />
                        {b.status === 'booked' ? (
                          <>
                            <button type="submit" name="status" value="showed" className="staff-button">
                              Showed
                            </button>
                            <button type="submit" name="status" value="no-show" className="staff-button staff-button--quiet">
                              No-show
                            </button>
                          </>
                        ) : (
                          <button type="submit" name="status" value="booked" className="staff-button staff-button--quiet">
                            Undo
                          </button>
                        )}
                      </form>
                    )}
                  </li>
                )
              })}
            </ol>
          )}
        </section>
      ))}
    </>
  )
}

export const appointmentsPage = staffPage({
  path: staffPaths.appointments,
  // Appointments (issue #51): the day and week per showroom, showed and no-show.
  roles: { get: ['sales', 'see the appointments'], post: ['sales', 'mark who came to appointments'] },
  nav: { label: 'Appointments', place: 50 },
  title: () => 'Appointments',
  load: loadAppointments,
  Page: AppointmentsPage,
  post: postAppointments,
})
