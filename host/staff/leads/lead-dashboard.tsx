import { TRPCError } from '@trpc/server'
import type { LeadDashboard } from '../../../api/staff/lead-dashboard.ts'
import { leadPaths } from '../../../domain/staff-paths.ts'
import { type StaffPageContext, type StaffPageProps, staffPage } from '../page.ts'
import { Field } from '../form-kit.tsx'
import { type ChartSeries, FiguresTable, WeekChart, WeekTable, weekLabel } from './week-chart.tsx'

/**
 * `/staff/leads/dashboard?from=&to=`: what the dealer learns from the leads, as charts drawn on
 * the server (plain SVG with a title and a summary), the figures as tables, and the same as CSV.
 */
async function loadDashboard(context: StaffPageContext) {
  const day = (name: string) => {
    const value = context.query.get(name)
    return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined
  }
  const asked = { from: day('from'), to: day('to') }
  const bookings = await context.caller.staff.appointment.summary()
  try {
    return { dashboard: await context.caller.staff.lead.dashboard(asked), problem: undefined, bookings }
  } catch (error) {
    // A range the dashboard refuses (reversed, longer than two years): the default weeks, and why.
    if (!(error instanceof TRPCError && error.code === 'BAD_REQUEST')) throw error
    return { dashboard: await context.caller.staff.lead.dashboard({}), problem: error.message, bookings }
  }
}

type DashboardData = Awaited<ReturnType<typeof loadDashboard>>

const percent = (share: number | null) => (share === null ? 'none yet' : `${Math.round(share * 100)}%`)

/** "4.5 min", "38 min", "2 h 05 min"; a dash when nothing was answered. */
export function minutes(value: number | null): string {
  if (value === null) return '–'
  if (value < 10) return `${(Math.round(value * 10) / 10).toLocaleString('en-US')} min`
  const whole = Math.round(value)
  if (whole < 60) return `${whole} min`
  return `${Math.floor(whole / 60)} h ${String(whole % 60).padStart(2, '0')} min`
}

function summary(what: string, d: LeadDashboard, series: readonly ChartSeries[]): string {
  const span = `the ${d.weeks.length} weeks starting ${weekLabel(d.weeks[0]?.week ?? d.from)} to ${weekLabel(d.weeks.at(-1)?.week ?? d.to)}`
  const top = series[0]
  return `${d.totals.leads} leads in ${span}${top && top.total > 0 ? `; the most by ${what}: ${top.label}, ${top.total}` : ''}.`
}

function LeadDashboardPage({ data }: StaffPageProps<DashboardData>) {
  const d = data.dashboard
  const weeks = d.weeks.map((w) => w.week)
  const outcome: ChartSeries[] = [
    { key: 'won', label: 'Won', counts: d.weeks.map((w) => w.won), total: d.totals.won, colour: '#047857' },
    { key: 'lost', label: 'Lost', counts: d.weeks.map((w) => w.lost), total: d.totals.lost, colour: '#6b7280' },
  ]
  const csv = `${leadPaths.dashboardCsv}?from=${d.from}&to=${d.to}`
  return (
    <div className="lead-dashboard">
      <p className="lead-back">
        <a href={leadPaths.inbox}>All leads</a>
      </p>
      <h1>Leads dashboard</h1>
      <form className="staff-filters" method="get" action={leadPaths.dashboard} aria-label="Weeks">
        <Field name="from" id="dashboard-from" label="From" type="date" defaultValue={d.from} />
        <Field name="to" id="dashboard-to" label="To" type="date" defaultValue={d.to} />
        <div className="staff-filters__actions">
          <button className="staff-button" type="submit">
            Show
          </button>
          <a className="staff-link-button" href={csv} download>
            Download CSV
          </a>
        </div>
      </form>
      {data.problem && (
        <p className="staff-alert staff-alert--error" role="alert">
          {data.problem}. Showing the last 12 weeks.
        </p>
      )}

      <ul className="lead-kpis" aria-label="These weeks in figures">
        <li>
          <span className="lead-kpis__value">{d.totals.leads.toLocaleString('en-US')}</span> leads
        </li>
        <li>
          <span className="lead-kpis__value">{percent(d.totals.shareWithinHour)}</span> answered within an hour{' '}
          <span className="lead-kpis__detail">
            ({d.totals.answeredWithinHour} of {d.totals.measured})
          </span>
        </li>
        <li>
          <span className="lead-kpis__value">{d.totals.won}</span> won
        </li>
        <li>
          <span className="lead-kpis__value">{d.totals.lost}</span> lost
        </li>
        <li>
          <span className="lead-kpis__value">{d.totals.open}</span> still open
        </li>
      </ul>

      <ChartSection id="by-source" title="Leads per week by source" summary={summary('source', d, d.bySource)} weeks={weeks} series={d.bySource} />
      <ChartSection id="by-interest" title="Leads per week by interest" summary={summary('interest', d, d.byInterest)} weeks={weeks} series={d.byInterest} />
      <ChartSection
        id="won-lost"
        title="Won and lost, by the week the lead arrived"
        summary={`${d.totals.won} won and ${d.totals.lost} lost of ${d.totals.leads} leads; ${d.totals.open} still open.`}
        weeks={weeks}
        series={outcome}
      />

      <section aria-labelledby="speed-to-lead" className="lead-panel">
        <h2 id="speed-to-lead">Speed to lead, per account</h2>
        <p className="staff-hint">
          Within 5 business minutes: the share of an account's leads it answered within 5 minutes of business hours (of those answered, and those waiting longer), the figure a mystery
          shopper measures. Median and 90th percentile: minutes from a lead's arrival to its first response (an email or text sent from the console, or a logged call; a status change or
          a note is none), for the account that gave it, over these weeks' leads. Waiting: the account's leads with no response yet.
        </p>
        {d.speedToLead.length === 0 ? (
          <p className="staff-muted">No leads in these weeks.</p>
        ) : (
          <FiguresTable
            label="Speed to lead"
            caption="Speed to lead per account: median and 90th percentile minutes to first response, and the share answered within 5 business minutes"
            columns={['Account', 'Within 5 business minutes', 'Median', '90th percentile', 'Answered', 'Waiting']}
            rows={d.speedToLead.map((a) => ({
              key: `${a.accountId ?? a.account}`,
              cells: [
                a.account,
                <>
                  {percent(a.shareWithinFiveMinutes)}
                  {a.measuredFiveMinutes > 0 && (
                    <span className="lead-figures__detail">
                      {' '}
                      ({a.withinFiveMinutes} of {a.measuredFiveMinutes})
                    </span>
                  )}
                </>,
                minutes(a.medianMinutes),
                minutes(a.p90Minutes),
                a.answered,
                a.waiting,
              ],
            }))}
          />
        )}
      </section>

      <section aria-labelledby="within-hour" className="lead-panel">
        <h2 id="within-hour">Answered within an hour, per week</h2>
        <p className="staff-hint">
          A lead is answered by its first reply or logged call. Leads under an hour old and not answered yet are not counted.
        </p>
        <FiguresTable
          label="Answered within an hour"
          caption="Leads answered within an hour, per week"
          columns={['Week starting', 'Within an hour', 'Counted', 'Share']}
          rows={d.weeks.map((w) => ({
            key: w.week,
            cells: [weekLabel(w.week), w.answeredWithinHour, w.measured, <ShareBar share={w.measured === 0 ? null : w.answeredWithinHour / w.measured} />],
          }))}
        />
      </section>

      <Bookings bookings={data.bookings} />
    </div>
  )
}

/** Test drives and drop-offs booked (PRODUCT.md, "confirmations and reminders"): per week, and the no-show rate. */
function Bookings({ bookings }: { bookings: DashboardData['bookings'] }) {
  return (
    <section aria-labelledby="bookings" className="lead-panel">
      <h2 id="bookings">Appointments booked, and no-shows</h2>
      <p>
        No-show rate: <strong>{percent(bookings.noShowRate)}</strong> ({bookings.noShow} no-show of {bookings.showed + bookings.noShow} marked
        {bookings.unmarked > 0 ? `; ${bookings.unmarked} past visits not marked yet` : ''}).
      </p>
      <FiguresTable
        label="Appointments booked"
        caption="Appointments booked per week, by what became of them"
        columns={['Week starting', 'Booked', 'Cancelled', 'Showed', 'No-show']}
        rows={bookings.weeks.map((w) => ({ key: w.week, cells: [weekLabel(w.week), w.booked, w.cancelled, w.showed, w.noShow] }))}
        empty="No bookings in the last 12 weeks."
      />
    </section>
  )
}

function ChartSection(props: { id: string; title: string; summary: string; weeks: string[]; series: readonly ChartSeries[] }) {
  return (
    <section aria-labelledby={props.id} className="lead-panel">
      <h2 id={props.id}>{props.title}</h2>
      <WeekChart title={props.title} summary={props.summary} weeks={props.weeks} series={props.series} />
      <details className="lead-figures-details">
        <summary>The figures</summary>
        <WeekTable caption={props.title} weeks={props.weeks} series={props.series} />
      </details>
    </section>
  )
}

/** A share as a number with a small bar beside it; the number is what is read out. */
function ShareBar({ share }: { share: number | null }) {
  if (share === null) return <span className="staff-muted">none</span>
  return (
    <span className="share-bar">
      <svg width="80" height="10" aria-hidden="true">
        <rect width="80" height="10" rx="3" fill="#e5e7eb" />
        <rect width={Math.round(share * 80)} height="10" rx="3" fill="#047857" />
      </svg>{' '}
      {percent(share)}
    </span>
  )
}

export const leadDashboardPage = staffPage<DashboardData>({
  path: leadPaths.dashboard,
  roles: { get: ['manager', 'see the lead dashboard'] },
  title: () => 'Leads dashboard',
  load: loadDashboard,
  Page: LeadDashboardPage,
})
