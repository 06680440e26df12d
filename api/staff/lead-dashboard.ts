import { interestOptions } from '../../domain/inquiry.ts'
import { answerWithinMs, dealerTimeZone, unknownSource } from '../../domain/lead-status.ts'
import { afterBusinessMinutes } from '../../domain/business-hours.ts'
import type { Sql } from '../db/database.ts'
import { csvCell } from '../leads/leads-report.ts'
import { leadConditions } from '../leads/lead-read-model.ts'

/**
 * What the dealer learns from the leads (issue #18): leads per week by source and by interest,
 * the share answered within an hour, and won versus lost. Weeks start on Monday, New Jersey time.
 * Spam is left out, as in the inbox.
 */
export interface DashboardRange {
  /** `YYYY-MM-DD`, inclusive. */
  from: string
  to: string
}

export interface DashboardWeek {
  /** The Monday that starts the week, `YYYY-MM-DD`. */
  week: string
  leads: number
  won: number
  lost: number
  /** Answered (a reply or a logged call) within the hour. */
  answeredWithinHour: number
  /** Leads the hour has been decided for: answered, or received more than an hour ago. */
  measured: number
}

/** One line of a chart: a source or an interest, its count in each week (the `weeks` order). */
export interface DashboardSeries {
  key: string
  label: string
  counts: number[]
  total: number
}

/**
 * Speed to lead of one account (PRODUCT.md, "escalation" and "first response"): over the range's
 * leads it gave the first response to (a reply or a logged call), the minutes from arrival to that
 * response, as a median and 90th percentile (interpolated, as PostgreSQL's percentile_cont); the
 * range's leads it owns still unanswered; and the share answered within 5 minutes of business time
 * (domain/business-hours.ts): of its answered leads and its unanswered ones whose 5 business
 * minutes have passed, those it answered in time. That is the figure a mystery shopper measures.
 */
export interface SpeedToLead {
  /** Null: answers whose account was removed or not recorded, or (waiting only) leads nobody owns. */
  accountId: number | null
  account: string
  answered: number
  medianMinutes: number | null
  p90Minutes: number | null
  waiting: number
  /** Answered within 5 business minutes. */
  withinFiveMinutes: number
  /** Answered, or unanswered past its 5 business minutes: what the share is of. */
  measuredFiveMinutes: number
  /** withinFiveMinutes / measuredFiveMinutes, or null when nothing is measured yet. */
  shareWithinFiveMinutes: number | null
}

/** The mystery shopper's mark (PRODUCT.md, "first response"): an answer within this many business minutes. */
export const answerWithinBusinessMinutes = 5

export interface LeadDashboard extends DashboardRange {
  weeks: DashboardWeek[]
  /** Per account, most answered first. */
  speedToLead: SpeedToLead[]
  bySource: DashboardSeries[]
  byInterest: DashboardSeries[]
  totals: Omit<DashboardWeek, 'week'> & {
    /** Leads neither won nor lost. */
    open: number
    /** answeredWithinHour / measured, or null when nothing is measured yet. */
    shareWithinHour: number | null
  }
}

/** Sources beyond this many, by total, are summed as one line, so a chart stays readable. */
export const shownSources = 6
export const otherSources = 'other sources'
export const defaultWeeks = 12

const dayMs = 86_400_000
const isoDay = (date: Date) => date.toISOString().slice(0, 10)
const utcDay = (day: string) => new Date(`${day}T00:00:00Z`)

/** The last `weeks` weeks up to today, as the dealer counts days. */
export function defaultRange(now = new Date(), weeks = defaultWeeks): DashboardRange {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: dealerTimeZone }).format(now)
  const monday = utcDay(today)
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7) - (weeks - 1) * 7)
  return { from: isoDay(monday), to: today }
}

export async function leadDashboard(sql: Sql, range: DashboardRange, now = new Date()): Promise<LeadDashboard> {
  const week = sql`to_char(date_trunc('week', i.created_at at time zone ${dealerTimeZone}), 'YYYY-MM-DD')`
  // The inbox's leads received in the range (spam left out), as its filter reads the days.
  const inRange = leadConditions(sql, { from: range.from, to: range.to })
  const within = `${answerWithinMs} milliseconds`
  const [weekRows, counted, sources, interests, answeredBy, waitingFor, timings] = await Promise.all([
    sql<{ week: string }[]>`
      select to_char(d, 'YYYY-MM-DD') as week
      from generate_series(date_trunc('week', ${range.from}::date::timestamp), ${range.to}::date::timestamp, interval '1 week') d
    `,
    sql<DashboardWeek[]>`
      select ${week} as week, count(*)::int as leads,
        count(*) filter (where i.status = 'won')::int as won,
        count(*) filter (where i.status = 'lost')::int as lost,
        count(*) filter (where i.first_response_at <= i.created_at + ${within}::interval)::int as answered_within_hour,
        count(*) filter (where i.first_response_at is not null or i.created_at < now() - ${within}::interval)::int as measured
      from contact_inquiries i where ${inRange} group by 1
    `,
    sql<{ week: string; key: string | null; leads: number }[]>`
      select ${week} as week, i.source as key, count(*)::int as leads
      from contact_inquiries i where ${inRange} group by 1, 2
    `,
    sql<{ week: string; key: string | null; leads: number }[]>`
      select ${week} as week, i.interest as key, count(*)::int as leads
      from contact_inquiries i where ${inRange} group by 1, 2
    `,
    sql<{ accountId: number | null; username: string | null; answered: number; medianMinutes: number; p90Minutes: number }[]>`
      select i.first_response_by as account_id, u.username, count(*)::int as answered,
        percentile_cont(0.5) within group (order by extract(epoch from i.first_response_at - i.created_at)::float8 / 60) as median_minutes,
        percentile_cont(0.9) within group (order by extract(epoch from i.first_response_at - i.created_at)::float8 / 60) as p90_minutes
      from contact_inquiries i left join users u on u.id = i.first_response_by
      where ${inRange} and i.first_response_at is not null
      group by 1, 2
    `,
    sql<{ accountId: number | null; username: string | null; waiting: number }[]>`
      select i.owner_id as account_id, u.username, count(*)::int as waiting
      from contact_inquiries i left join users u on u.id = i.owner_id
      where ${inRange} and i.first_response_at is null
      group by 1, 2
    `,
    sql<Timing[]>`
      select i.first_response_by, i.owner_id, i.created_at, i.first_response_at
      from contact_inquiries i where ${inRange}
    `,
  ])
  const order = weekRows.map((w) => w.week)
  const byWeek = new Map(counted.map((w) => [w.week, w]))
  const weeks = order.map((w) => byWeek.get(w) ?? { week: w, leads: 0, won: 0, lost: 0, answeredWithinHour: 0, measured: 0 })
  const sum = (field: keyof Omit<DashboardWeek, 'week'>) => weeks.reduce((n, w) => n + w[field], 0)
  const totals = {
    leads: sum('leads'),
    won: sum('won'),
    lost: sum('lost'),
    answeredWithinHour: sum('answeredWithinHour'),
    measured: sum('measured'),
  }
  return {
    ...range,
    weeks,
    speedToLead: withinFiveMinutes(speedPerAccount(answeredBy, waitingFor), timings, now),
    bySource: series(order, sources, (key) => key ?? unknownSource, shownSources),
    byInterest: series(
      order,
      interests,
      (key) => interestOptions.find((o) => o.value === key)?.label ?? (key === null ? 'No interest given' : key),
    ),
    totals: {
      ...totals,
      open: totals.leads - totals.won - totals.lost,
      shareWithinHour: totals.measured === 0 ? null : totals.answeredWithinHour / totals.measured,
    },
  }
}

const notRecorded = 'not recorded (a removed account)'
const nobody = 'nobody'

interface Timing {
  firstResponseBy: number | null
  ownerId: number | null
  createdAt: Date
  firstResponseAt: Date | null
}

/**
 * Each line's share answered within 5 business minutes: an answered lead counts for who answered
 * it, an unanswered one for its owner once its 5 minutes have passed. Business minutes are never
 * fewer than wall-clock ones, so an answer within 5 minutes of wall clock needs no calendar, nor
 * does a lead left more than 8 days (no week closes longer).
 */
function withinFiveMinutes(lines: SpeedToLead[], timings: readonly Timing[], now: Date): SpeedToLead[] {
  const mark = answerWithinBusinessMinutes * 60_000
  const lineOf = (accountId: number | null, answered: boolean) =>
    lines.find((line) => line.accountId === accountId && (accountId !== null || line.account === (answered ? notRecorded : nobody)))
  for (const lead of timings) {
    const answered = lead.firstResponseAt !== null
    const line = lineOf(answered ? lead.firstResponseBy : lead.ownerId, answered)
    if (!line) continue
    const since = lead.createdAt.getTime()
    const until = (lead.firstResponseAt ?? now).getTime()
    const inTime = until - since <= mark || until <= afterBusinessMinutes(lead.createdAt, answerWithinBusinessMinutes).getTime()
    if (answered) {
      line.measuredFiveMinutes++
      if (inTime) line.withinFiveMinutes++
    } else if (until - since > 8 * dayMs || !inTime) {
      line.measuredFiveMinutes++
    }
  }
  for (const line of lines) line.shareWithinFiveMinutes = line.measuredFiveMinutes === 0 ? null : line.withinFiveMinutes / line.measuredFiveMinutes
  return lines
}

/** One line per account from its answers and its waiting leads. */
function speedPerAccount(
  answered: readonly { accountId: number | null; username: string | null; answered: number; medianMinutes: number; p90Minutes: number }[],
  waiting: readonly { accountId: number | null; username: string | null; waiting: number }[],
): SpeedToLead[] {
  // Answers of no account and leads of no owner are two lines, not one.
  const lines = new Map<string, SpeedToLead>()
  const line = (accountId: number | null, username: string | null, none: string) => {
    const key = accountId === null ? none : String(accountId)
    let found = lines.get(key)
    if (!found) {
      found = {
        accountId,
        account: username ?? none,
        answered: 0,
        medianMinutes: null,
        p90Minutes: null,
        waiting: 0,
        withinFiveMinutes: 0,
        measuredFiveMinutes: 0,
        shareWithinFiveMinutes: null,
      }
      lines.set(key, found)
    }
    return found
  }
  for (const row of answered) {
    Object.assign(line(row.accountId, row.username, notRecorded), {
      answered: row.answered,
      medianMinutes: Number(row.medianMinutes),
      p90Minutes: Number(row.p90Minutes),
    })
  }
  for (const row of waiting) line(row.accountId, row.username, nobody).waiting = row.waiting
  return [...lines.values()].sort((a, b) => b.answered - a.answered || b.waiting - a.waiting || a.account.localeCompare(b.account))
}

/** Counts per key and week as lines in the weeks' order, biggest first; beyond `keep`, one "other" line. */
function series(
  weeks: readonly string[],
  rows: readonly { week: string; key: string | null; leads: number }[],
  label: (key: string | null) => string,
  keep = Number.POSITIVE_INFINITY,
): DashboardSeries[] {
  const index = new Map(weeks.map((w, i) => [w, i]))
  const lines = new Map<string | null, number[]>()
  for (const row of rows) {
    const counts = lines.get(row.key) ?? weeks.map(() => 0)
    counts[index.get(row.week)!]! += row.leads
    lines.set(row.key, counts)
  }
  const all = [...lines]
    .map(([key, counts]) => ({ key: key ?? 'none', label: label(key), counts, total: counts.reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.total - a.total || a.label.localeCompare(b.label))
  if (all.length <= keep) return all
  const rest = all.slice(keep - 1)
  const counts = weeks.map((_, i) => rest.reduce((n, line) => n + line.counts[i]!, 0))
  return [...all.slice(0, keep - 1), { key: 'other', label: otherSources, counts, total: counts.reduce((a, b) => a + b, 0) }]
}

/**
 * The dashboard as a spreadsheet: one row per week, a column per source and per interest, then
 * won, lost and the hour's figures; a last row of totals. Cells are made safe as in `npm run leads`.
 */
export function dashboardAsCsv(dashboard: LeadDashboard): string {
  const header = [
    'week starting',
    'leads',
    ...dashboard.bySource.map((s) => `source: ${s.label}`),
    ...dashboard.byInterest.map((s) => `interest: ${s.label}`),
    'won',
    'lost',
    'answered within an hour',
    'answered or over an hour old',
  ]
  const row = (label: string, w: Omit<DashboardWeek, 'week'>, i: number | undefined) => [
    label,
    w.leads,
    ...dashboard.bySource.map((s) => (i === undefined ? s.total : s.counts[i])),
    ...dashboard.byInterest.map((s) => (i === undefined ? s.total : s.counts[i])),
    w.won,
    w.lost,
    w.answeredWithinHour,
    w.measured,
  ]
  const lines = [header, ...dashboard.weeks.map((w, i) => row(w.week, w, i)), row('total', dashboard.totals, undefined)]
  return lines.map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n'
}

/** Checks a range: both days real, in order, and at most two years apart. */
export function rangeProblem(range: DashboardRange): string | undefined {
  const [from, to] = [utcDay(range.from), utcDay(range.to)]
  if (Number.isNaN(from.getTime()) || isoDay(from) !== range.from) return `from must be a date like 2026-11-01, not "${range.from}"`
  if (Number.isNaN(to.getTime()) || isoDay(to) !== range.to) return `to must be a date like 2026-11-30, not "${range.to}"`
  if (to < from) return 'The range ends before it starts'
  if ((to.getTime() - from.getTime()) / dayMs > 731) return 'Choose a range of at most two years'
  return undefined
}
