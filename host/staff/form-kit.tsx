import type { ReactNode } from 'react'
import type { PostedState } from './page.ts'

/**
 * The console's form pieces (issue #46), each written once: a field with its label, hint and
 * problem; a group of boxes posting a list under one name; a confirm step; a notice. Plain HTML
 * that posts without any script (decision 0016), named as the procedure's input schema names its
 * fields, so the post is read by that schema (host/server/staff-forms.ts, decision 0037).
 */

/** What went through, or what was refused: one sentence in the console's alert box. */
export function Notice({ children, tone = 'done', id }: { children?: ReactNode; tone?: 'done' | 'error'; id?: string }) {
  if (children === undefined || children === null || children === '' || children === false) return null
  return (
    <p className={`staff-alert staff-alert--${tone}`} id={id} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  )
}

/**
 * A field: its label, the control (an `<input>` unless `children` gives another), a hint under it
 * and, refused, the problem beside it, tied to the control for screen readers.
 */
export function Field(props: {
  /** The name it posts under: the procedure's field. */
  name: string
  label: ReactNode
  /** The control's id; the name, prefixed by the form's `idPrefix`, when omitted. */
  id?: string
  hint?: ReactNode
  posted?: PostedState
  type?: string
  defaultValue?: string | number
  required?: boolean
  autoComplete?: string
  inputMode?: 'numeric' | 'decimal' | 'email' | 'tel' | 'text'
  /** Added to the field's own class (`staff-field`): its place in a row of filters. */
  className?: string
  /**
   * A control in a list's row, labelled for screen readers only ("Price of Lot Special"): no box
   * of its own, so it sits in its cell; its problem still beside it.
   */
  hiddenLabel?: boolean
  /** The form it posts with, when the control stands outside it (a row's cells, one form per row). */
  form?: string
  /** Another control (a `<select>`, a `<textarea>`), given the same id, name and descriptions. */
  children?: (control: { id: string; name: string; form?: string; 'aria-invalid'?: true; 'aria-describedby'?: string; defaultValue?: string }) => ReactNode
}) {
  const id = props.id ?? props.name
  const error = props.posted?.errors[props.name]
  const described = [props.hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined
  // A password is never sent back into the page, refused or not.
  const value = props.type === 'password' ? undefined : (props.posted?.values[props.name] ?? (props.defaultValue === undefined ? undefined : String(props.defaultValue)))
  const control = { id, name: props.name, form: props.form, 'aria-invalid': error ? (true as const) : undefined, 'aria-describedby': described, defaultValue: value }
  const parts = (
    <>
      <label htmlFor={id} className={props.hiddenLabel ? 'gc-sr-only' : undefined}>
        {props.label}
      </label>
      {props.children ? (
        props.children(control)
      ) : (
        <input {...control} type={props.type ?? 'text'} required={props.required} autoComplete={props.autoComplete} inputMode={props.inputMode} />
      )}
      {props.hint && (
        <p className="staff-hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {error && (
        <p className="staff-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </>
  )
  return props.hiddenLabel ? parts : <div className={props.className ? `staff-field ${props.className}` : 'staff-field'}>{parts}</div>
}

/** A `<select>` for a `Field`: its choices, in order (a filter's first is the one that narrows nothing). */
export const choices = (options: readonly { value: string | number; label: string }[]) =>
  function Choices(control: { id: string; name: string; form?: string; defaultValue?: string }) {
    return (
      <select {...control}>
        {options.map((o) => (
          <option key={`${o.value}:${o.label}`} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    )
  }

/** A form's one button, at its foot. */
export function Submit({ children }: { children: ReactNode }) {
  return (
    <div className="staff-form__actions">
      <button className="staff-button" type="submit">
        {children}
      </button>
    </div>
  )
}

/**
 * A box with its label, as a field of its own (its hint and problem beside it), or in a list's
 * row (`hiddenLabel`). It posts `value` under `name` when ticked: several under one name are a list
 * (`ids=3&ids=7`), which the schema reads as `ids: [3, 7]`; one alone is true-or-false (`on`).
 */
export function Checkbox(props: {
  name: string
  value?: string | number
  label: ReactNode
  /** Shown to screen readers only (a row's box, labelled by the row). */
  hiddenLabel?: boolean
  id: string
  form?: string
  defaultChecked?: boolean
  posted?: PostedState
  /** What ticking it does, under it. */
  hint?: ReactNode
}) {
  const value = props.value === undefined ? undefined : String(props.value)
  const posted = props.posted && (value === undefined ? props.posted.values[props.name] === 'on' : postedList(props.posted, props.name).includes(value))
  // A true-or-false box (`on`, `true`) has its problem beside it; a list's, or a row's, is said above the list.
  const alone = value === undefined || value === 'true'
  const error = alone && !props.hiddenLabel ? props.posted?.errors[props.name] : undefined
  const described = [props.hint ? `${props.id}-hint` : undefined, error ? `${props.id}-error` : undefined].filter(Boolean).join(' ') || undefined
  const box = (
    <>
      <input
        type="checkbox"
        id={props.id}
        name={props.name}
        value={value}
        form={props.form}
        defaultChecked={props.posted ? posted : props.defaultChecked}
        aria-describedby={described}
        aria-invalid={error ? true : undefined}
      />
      <label className={props.hiddenLabel ? 'gc-sr-only' : undefined} htmlFor={props.id}>
        {props.label}
      </label>
    </>
  )
  if (props.hiddenLabel) return box
  return (
    <div className="staff-field staff-field--check">
      {box}
      {props.hint && (
        <p className="staff-hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      {error && (
        <p className="staff-error" id={`${props.id}-error`}>
          {error}
        </p>
      )}
    </div>
  )
}

/** What a refused form posted under one name, one value or several. */
export function postedList(posted: PostedState | undefined, name: string): string[] {
  if (!posted) return []
  return posted.lists?.[name] ?? (posted.values[name] === undefined ? [] : [posted.values[name]])
}

/**
 * The question before something that cannot be taken back, as its own page: what it does, the
 * button that does it (posting `fields`), and the way back that does nothing.
 */
export function ConfirmStep(props: {
  action: string
  fields: Record<string, string | number | readonly (string | number)[]>
  confirm: string
  keep: { label: string; href: string }
  posted?: PostedState
  children: ReactNode
}) {
  return (
    <>
      <Notice tone="error">{props.posted?.message}</Notice>
      {props.children}
      <form method="post" action={props.action} className="staff-form__actions">
        {Object.entries(props.fields).flatMap(([name, value]) =>
          [value].flat().map((item) => <input key={`${name}-${item}`} type="hidden" name={name} value={item} />),
        )}
        <button className="staff-button staff-button--danger" type="submit">
          {props.confirm}
        </button>
        <a className="staff-link-button" href={props.keep.href}>
          {props.keep.label}
        </a>
      </form>
    </>
  )
}

/**
 * What a scripted part of a page (the photos, the spreadsheet import) is doing, read out as it
 * changes (`status`, in a line styled by `className`), and what went wrong, read out at once in
 * the console's alert box (`problem`).
 */
export function LiveStatus({ className, status, problem }: { className: string; status: ReactNode; problem?: ReactNode }) {
  return (
    <>
      <p className={className} role="status">
        {status}
      </p>
      {problem && (
        <div className="staff-alert staff-alert--error" role="alert">
          {problem}
        </div>
      )}
    </>
  )
}

/**
 * A form posting one of its page's actions to `to`: `action` is the field the page's `post`
 * switches on. Given what was `posted`, a refusal of this action comes back at its top, beside its
 * own fields, with everything typed kept. `data` becomes `data-*` attributes (a script's hook).
 */
export function ActionForm(props: {
  to: string
  action: string
  posted?: PostedState
  className?: string
  labelledBy?: string
  id?: string
  hidden?: boolean
  data?: Record<string, string>
  children: ReactNode
}) {
  const data = Object.fromEntries(Object.entries(props.data ?? {}).map(([name, value]) => [`data-${name}`, value]))
  return (
    <form method="post" action={props.to} className={props.className} id={props.id} aria-labelledby={props.labelledBy} hidden={props.hidden} {...data}>
      {props.posted && <Notice tone="error">{props.posted.values.action === props.action && props.posted.message}</Notice>}
      <input type="hidden" name="action" value={props.action} />
      {props.children}
    </form>
  )
}
