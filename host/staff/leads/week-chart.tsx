import { type ReactNode, useId } from 'react'

/**
 * Leads per week as stacked bars, drawn as plain SVG on the server (no chart library, no script).
 * Screen readers get the chart's title and a one-sentence summary (`role="img"` with `<title>`
 * and `<desc>`); every figure is also in the table that follows, and in the CSV.
 */
export interface ChartSeries {
  key: string
  label: string
  counts: readonly number[]
  total: number
  /** A colour that means something (won green, lost grey); else the next of `seriesColours`. */
  colour?: string
}

/** Colours for up to eight lines, each at least 3:1 against white and told apart by the legend too. */
export const seriesColours = ['#1d4ed8', '#b45309', '#047857', '#be123c', '#6d28d9', '#0e7490', '#4d7c0f', '#525252'] as const

const size = { width: 900, height: 260, left: 40, right: 8, top: 12, bottom: 34 }

/** A round top for the y axis: 1, 2 or 5 times a power of ten. */
export function niceMax(value: number): number {
  if (value <= 4) return 4
  const power = 10 ** Math.floor(Math.log10(value))
  const step = [1, 2, 5, 10].find((m) => m * power >= value)!
  return step * power
}

/** "Nov 23" for a week starting 2026-11-23. */
export const weekLabel = (week: string) =>
  new Date(`${week}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })

export function WeekChart(props: { title: string; summary: string; weeks: readonly string[]; series: readonly ChartSeries[] }) {
  const id = useId()
  const { weeks, series } = props
  const totals = weeks.map((_, i) => series.reduce((n, s) => n + (s.counts[i] ?? 0), 0))
  const top = niceMax(Math.max(0, ...totals))
  const plotWidth = size.width - size.left - size.right
  const plotHeight = size.height - size.top - size.bottom
  const slot = plotWidth / Math.max(1, weeks.length)
  const bar = Math.max(4, slot * 0.7)
  const y = (value: number) => size.top + plotHeight - (value / top) * plotHeight
  // Every label when they fit, else every second or third, counted back from the last week's.
  const labelEvery = Math.ceil(weeks.length / 12)
  return (
    <figure className="week-chart">
      {/* On a phone the chart keeps a readable size and scrolls sideways inside its box. */}
      <div className="lead-scroll" tabIndex={0} role="region" aria-label={`${props.title}, chart`}>
      <svg
        viewBox={`0 0 ${size.width} ${size.height}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        className="week-chart__svg"
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-title`}>{props.title}</title>
        <desc id={`${id}-desc`}>{props.summary}</desc>
        {[0, top / 2, top].map((tick) => (
          <g key={tick}>
            <line x1={size.left} x2={size.width - size.right} y1={y(tick)} y2={y(tick)} className="week-chart__grid" />
            <text x={size.left - 6} y={y(tick) + 4} textAnchor="end" className="week-chart__tick">
              {tick}
            </text>
          </g>
        ))}
        {weeks.map((week, i) => {
          let base = 0
          const x = size.left + i * slot + (slot - bar) / 2
          return (
            <g key={week}>
              {series.map((s, k) => {
                const count = s.counts[i] ?? 0
                if (count === 0) return null
                const from = base
                base += count
                return (
                  <rect
                    key={s.key}
                    x={x}
                    y={y(base)}
                    width={bar}
                    height={Math.max(0, y(from) - y(base))}
                    fill={s.colour ?? seriesColours[k % seriesColours.length]}
                  />
                )
              })}
              {(weeks.length - 1 - i) % labelEvery === 0 && (
                <text x={x + bar / 2} y={size.height - 12} textAnchor="middle" className="week-chart__tick">
                  {weekLabel(week)}
                </text>
              )}
            </g>
          )
        })}
      </svg>
      </div>
      <figcaption>
        <ul className="week-chart__legend">
          {series.map((s, k) => (
            <li key={s.key}>
              {/* A presentation attribute, not a style: the pages' policy allows no inline styles. */}
              <svg className="week-chart__swatch" width="14" height="14" aria-hidden="true">
                <rect width="14" height="14" rx="3" fill={s.colour ?? seriesColours[k % seriesColours.length]} />
              </svg>
              {s.label} <span className="week-chart__total">({s.total})</span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  )
}

/** The chart's figures as a table: a row per week, a column per line. */
export function WeekTable(props: { caption: string; weeks: readonly string[]; series: readonly ChartSeries[] }) {
  return (
    <FiguresTable
      label={props.caption}
      caption={props.caption}
      columns={['Week starting', ...props.series.map((s) => s.label)]}
      rows={props.weeks.map((week, i) => ({ key: week, cells: [weekLabel(week), ...props.series.map((s) => s.counts[i] ?? 0)] }))}
      total={['Total', ...props.series.map((s) => s.total)]}
    />
  )
}

/**
 * Figures as a table in a region that scrolls sideways on a phone: a header row, a row per item
 * headed by its first cell, a row saying `empty` when there is none, and a total row.
 */
export function FiguresTable(props: {
  /** The region's name: "<label>, figures". */
  label: string
  /** What the table is, for screen readers. */
  caption: ReactNode
  columns: readonly string[]
  rows: readonly { key: string; cells: readonly ReactNode[] }[]
  empty?: ReactNode
  total?: readonly ReactNode[]
}) {
  const row = (cells: readonly ReactNode[]) => (
    <>
      <th scope="row">{cells[0]}</th>
      {cells.slice(1).map((cell, i) => (
        <td key={i}>{cell}</td>
      ))}
    </>
  )
  return (
    <div className="lead-scroll" tabIndex={0} role="region" aria-label={`${props.label}, figures`}>
      <table className="lead-figures">
        <caption className="gc-sr-only">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column, i) => (
              <th scope="col" key={i}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.length === 0 && props.empty !== undefined ? (
            <tr>
              <td colSpan={props.columns.length}>{props.empty}</td>
            </tr>
          ) : (
            props.rows.map((r) => <tr key={r.key}>{row(r.cells)}</tr>)
          )}
        </tbody>
        {props.total && (
          <tfoot>
            <tr>{row(props.total)}</tr>
          </tfoot>
        )}
      </table>
    </div>
  )
}
