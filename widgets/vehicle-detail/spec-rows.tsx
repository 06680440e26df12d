/**
 * One group of a cart's specifications as names and values: on the vehicle page, and in the
 * console's preview of it as staff type (host/staff/spec-preview.tsx), so the two read alike.
 * Its own file, so the console's script takes this and not the whole vehicle page.
 */
export function SpecRows(props: { rows: readonly (readonly [string, string])[]; rowClassName: string }) {
  return (
    <dl>
      {props.rows.map(([name, value]) => (
        <div key={name} className={props.rowClassName}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  )
}
