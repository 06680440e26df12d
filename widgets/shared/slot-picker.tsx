import { useState } from 'react'
import { slotDay, slotsByDay, slotTime } from '../../domain/appointments.ts'
import { FieldError } from './form-bits.tsx'

/**
 * Choosing a time (PRODUCT.md, "where shoppers book"): native controls only, so a keyboard and a
 * screen reader work it as they work any form, and it fits 320 px. With a script, a day (a
 * `<select>`) and then its times (radio buttons in a fieldset whose legend names the day: arrows
 * move between times); without one, every time in one `<select>` grouped by day (the
 * booking link's move), or, given `dayForm` (docs/decisions/0046), the same day `<select>` with a
 * "Show times" button that reloads the page with `?day=`, and that day's times as radios.
 */
export interface SlotPickerProps {
  id: string
  /** The free starts, ISO 8601, in order. */
  slots: readonly string[]
  value: string
  onChange?: (startsAt: string) => void
  /** A script runs: the two-step picker. */
  scripted: boolean
  /** Without a script: the id of the GET form that reloads the page with `?day=` (the day's select and button join it). */
  dayForm?: string
  /** Without a script: the day asked for (`?day=YYYY-MM-DD`); the first free day otherwise. */
  noScriptDay?: string
  label?: string
  error?: string
}

export function SlotPicker({ id, slots, value, onChange, scripted, dayForm, noScriptDay, error, label = 'Date and time' }: SlotPickerProps) {
  const days = slotsByDay(slots)
  const chosenDay = days.find((d) => d.starts.includes(value))?.day
  const [day, setDay] = useState<string | undefined>(chosenDay)
  const shownDay = days.find((d) => d.day === (day ?? chosenDay)) ?? days[0]
  const describedBy = error ? `${id}-error` : undefined

  /** A day's times: radios in a fieldset whose legend names the day. */
  const times = (shown: { starts: string[] }, control: (startsAt: string) => { checked?: boolean; defaultChecked?: boolean; onChange?: () => void }) => (
    <fieldset className="gc-slots__times" part="times" aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
      <legend>
        Time on {slotDay(shown.starts[0]!)}
        <span aria-hidden="true"> *</span>
      </legend>
      <div className="gc-slots__grid">
        {shown.starts.map((s) => (
          <label key={s} className="gc-slot" part={s === value ? 'slot slot-chosen' : 'slot'}>
            <input type="radio" name="startsAt" value={s} {...control(s)} />
            <span>{slotTime(s)}</span>
          </label>
        ))}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  )

  if (days.length === 0) {
    return (
      <div className="gc-field gc-slots" part="field">
        <p className="gc-slots__none" part="notice" role="status">
          No times are free in the next weeks. Please call us and we will find one.
        </p>
      </div>
    )
  }

  if (!scripted && !dayForm) {
    return (
      <div className="gc-field gc-slots" part="field">
        <label htmlFor={id}>
          {label}
          <span aria-hidden="true"> *</span>
        </label>
        <select id={id} name="startsAt" className="gc-input" part="input" defaultValue={value} aria-required aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
          <option value="">Choose a time</option>
          {days.map((d) => (
            <optgroup key={d.day} label={slotDay(d.starts[0]!)}>
              {d.starts.map((s) => (
                <option key={s} value={s}>
                  {slotDay(s)}, {slotTime(s)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        <FieldError id={`${id}-error`} message={error} />
      </div>
    )
  }

  if (!scripted) {
    // Without a script: the day is a GET of the page (`dayForm`, a form of its own outside the
    // booking's, which these controls join by its id), and the chosen day's times come as radios.
    const listed = days.find((d) => d.day === (noScriptDay ?? chosenDay)) ?? days[0]!
    return (
      <div className="gc-slots" part="slots">
        <div className="gc-field" part="field">
          <label htmlFor={`${id}-day`}>
            Day<span aria-hidden="true"> *</span>
          </label>
          <div className="gc-slots__day">
            <select id={`${id}-day`} name="day" form={dayForm} className="gc-input" part="input" defaultValue={listed.day}>
              {days.map((d) => (
                <option key={d.day} value={d.day}>
                  {slotDay(d.starts[0]!)} ({d.starts.length} free)
                </option>
              ))}
            </select>
            <button type="submit" form={dayForm} className="gc-button gc-button--secondary" part="button">
              Show times
            </button>
          </div>
        </div>
        {times(listed, (s) => ({ defaultChecked: s === value }))}
      </div>
    )
  }

  return (
    <div className="gc-slots" part="slots">
      <div className="gc-field" part="field">
        <label htmlFor={`${id}-day`}>
          Day<span aria-hidden="true"> *</span>
        </label>
        <select
          id={`${id}-day`}
          className="gc-input"
          part="input"
          value={shownDay?.day ?? ''}
          onChange={(event) => {
            setDay(event.currentTarget.value)
            onChange?.('')
          }}
        >
          {days.map((d) => (
            <option key={d.day} value={d.day}>
              {slotDay(d.starts[0]!)} ({d.starts.length} free)
            </option>
          ))}
        </select>
      </div>
      {shownDay && times(shownDay, (s) => ({ checked: s === value, onChange: () => onChange?.(s) }))}
    </div>
  )
}
