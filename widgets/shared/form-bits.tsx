import type { ReactNode } from 'react'
import { business } from '../../domain/business.ts'
import { inquiryLimits } from '../../domain/inquiry.ts'

// What every lead form shares (the contact form, the rental request, the service request): a
// field's problem, focus on the first wrong field, the page sent as the lead's source, and what a
// page the dealer has not allowed shows instead of a form that could only fail.

/**
 * Focus alone scrolls just far enough to show the input, leaving its label under a sticky header
 * (the dealer's, or a partner's): the whole field is brought to the middle of the view instead.
 */
export function focusField(input: HTMLElement | null | undefined) {
  if (!input) return
  input.focus({ preventScroll: true })
  ;(input.closest('.gc-field') ?? input).scrollIntoView({ block: 'center' })
}

/** What a page the dealer has not allowed shows instead of a form that could only fail. */
export function ReachUsInstead({ heading: H }: { heading: 'h2' | 'h3' }) {
  return (
    <section className="gc-contact" part="contact">
      <H className="gc-heading" part="heading">
        Call or Email Us
      </H>
      <p className="gc-contact__closed" part="notice">
        Messages can't be sent to {business.name} from this page. Please call{' '}
        <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a> or email{' '}
        <a href={`mailto:${business.email}`}>{business.email}</a>, and we'll get back to you within{' '}
        {business.claims.replyWithinHours} hours.
      </p>
    </section>
  )
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null
  return (
    <p id={id} className="gc-field__error">
      {message}
    </p>
  )
}

/** How a lead form asks for one line of text: its type, what the browser may fill it with, its bounds. */
export interface TextInput {
  type?: string
  autoComplete: string
  maxLength: number
  required?: boolean
}

/**
 * One line of text as every lead form draws it: the label (a required one marked), the input
 * (`<idPrefix>-<name>`), and its problem beside it, tied to the input for screen readers.
 */
export function TextField(props: TextInput & { idPrefix: string; name: string; label: string; value: string; error?: string; onChange: (value: string) => void }) {
  const inputId = `${props.idPrefix}-${props.name}`
  return (
    <div className="gc-field" part="field">
      <label htmlFor={inputId}>
        {props.label}
        {props.required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={inputId}
        name={props.name}
        className="gc-input"
        part="input"
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        maxLength={props.maxLength}
        aria-required={props.required || undefined}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${inputId}-error` : undefined}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      />
      <FieldError id={`${inputId}-error`} message={props.error} />
    </div>
  )
}

/** The fields a lead names its visitor by, as the API's lead calls them. */
export type ContactField = 'firstName' | 'lastName' | 'email' | 'phone'

/**
 * The visitor's name, email and phone in two rows, as the contact, hold and rental forms ask for
 * them (the same labels, autofill hints and limits), each drawn by the form's own `field`.
 */
export function ContactRows({ field }: { field: (name: ContactField, label: string, input: TextInput) => ReactNode }) {
  return (
    <>
      <div className="gc-form__row">
        {field('firstName', 'First Name', { autoComplete: 'given-name', required: true, maxLength: inquiryLimits.name })}
        {field('lastName', 'Last Name', { autoComplete: 'family-name', required: true, maxLength: inquiryLimits.name })}
      </div>
      <div className="gc-form__row">
        {field('email', 'Email', { type: 'email', autoComplete: 'email', required: true, maxLength: inquiryLimits.email })}
        {field('phone', 'Phone', { type: 'tel', autoComplete: 'tel', maxLength: inquiryLimits.phone })}
      </div>
    </>
  )
}

/** The page the visitor is on, when it is an ordinary web page the API will accept. */
export function currentPage(): string | undefined {
  if (typeof location === 'undefined' || !/^https?:$/.test(location.protocol)) return undefined
  const href = location.href
  return href.length <= inquiryLimits.sourceUrl ? href : `${location.origin}${location.pathname}`.slice(0, inquiryLimits.sourceUrl)
}
