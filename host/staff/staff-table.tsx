import type { ReactNode } from 'react'

/** A column's heading; `{ hidden }` names a column of buttons for screen readers only. */
export type Column = string | { hidden: string }

/**
 * A console list as a table, written once: its caption (for screen readers unless `captionShown`),
 * its column headings and its rows, in the bordered box that scrolls on a phone
 * (`staff-table-wrap`), or without the box (`wrap={false}`, the lead lists, which turn each row
 * into a card on a phone by their cells' `data-label`).
 */
export function StaffTable(props: {
  className: string
  /** Left out where `labelledBy` names the table. */
  caption?: ReactNode
  captionShown?: boolean
  columns: readonly Column[]
  /** The id of what counts the rows ("51–100 of 230 leads"), read with the table. */
  describedBy?: string
  labelledBy?: string
  wrap?: boolean
  children: ReactNode
}) {
  const table = (
    <table className={props.className} aria-describedby={props.describedBy} aria-labelledby={props.labelledBy}>
      {props.caption !== undefined && <caption className={props.captionShown ? undefined : 'gc-sr-only'}>{props.caption}</caption>}
      <thead>
        <tr>
          {props.columns.map((column) =>
            typeof column === 'string' ? (
              <th key={column} scope="col">
                {column}
              </th>
            ) : (
              <th key={column.hidden} scope="col">
                <span className="gc-sr-only">{column.hidden}</span>
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  )
  return props.wrap === false ? table : <div className="staff-table-wrap">{table}</div>
}
