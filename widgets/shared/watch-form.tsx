import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useId, useRef, useState } from 'react'
import { business } from '../../domain/business.ts'
import { watchInput } from '../../domain/cart-alerts-schema.ts'
import { cartSearchParams } from '../../domain/cart-query.ts'
import { describeFailure, fieldIssuesOf, useTRPC } from './api.tsx'
import { FieldError } from './form-bits.tsx'
import { useFieldErrors, useRefusedOrigin } from './lead-form.ts'
import { WatchBox, type WatchFormProps, type WatchFormSubject } from './watch-box.tsx'

export type { PostedWatch, WatchFormProps, WatchFormSubject } from './watch-box.tsx'

/**
 * "Tell me if the price drops" / "Tell me about new carts like these" (PRODUCT.md, "watching a
 * cart or a search"): one button that opens an email field (a `<details>`, so it opens without
 * JavaScript). Sent, the shopper is told to follow the link in the confirmation email.
 */
export function WatchForm(props: WatchFormProps) {
  return (
    <WatchBox label={props.label} open={Boolean(props.posted)}>
      <WatchPanel {...props} />
    </WatchBox>
  )
}

/**
 * What the box holds: the email field and its button, or what became of it. Its own module's
 * code (the checks, the mutation) is what `WatchFormOnOpen` (watch-on-open.tsx) loads when opened.
 */
export function WatchPanel(props: WatchFormProps) {
  const id = useId()
  const trpc = useTRPC()
  const form = useRef<HTMLFormElement>(null)
  const { errors, setErrors, showErrors } = useFieldErrors(form, ['email', 'query', 'cartId'], props.posted?.errors)
  const [email, setEmail] = useState(props.posted?.email ?? '')
  const [sent, setSent] = useState(Boolean(props.posted?.sent))
  const [failure, setFailure] = useState(props.posted?.message)
  const mutation = useMutation(trpc.alert.watch.mutationOptions())
  const refused = useRefusedOrigin(props.checkOrigin)
  const input = { email, ...props.subject }

  const submit = (event: FormEvent) => {
    // On the site the form posts as it is (a page the server renders again); here it goes by the API.
    if (props.action) return
    event.preventDefault()
    if (mutation.isPending) return
    const checked = watchInput.safeParse(input)
    if (!checked.success) {
      showErrors(checked.error.issues.map((i) => ({ path: String(i.path[0] ?? ''), message: i.message })))
      return
    }
    setErrors({})
    setFailure(undefined)
    mutation.mutate(input, {
      onSuccess: () => setSent(true),
      onError(error) {
        if (!showErrors(fieldIssuesOf(error).map((i) => ({ ...i, path: i.path.split('.')[0]! })))) setFailure(describeFailure(error))
      },
    })
  }

  const errorOf = errors.email ?? errors.cartId ?? errors.query
  return refused !== undefined ? (
    <p className="gc-watch__note" part="notice">
      Alerts can't be set up from this page. Call{' '}
      <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a> and we'll tell you ourselves.
    </p>
  ) : sent ? (
    <p className="gc-watch__sent" role="status" part="notice">
      Check your email: follow the link in it to turn the alert on. Nothing is sent until you do.
    </p>
  ) : (
    <form ref={form} className="gc-watch__form" method="post" action={props.action} onSubmit={submit} noValidate part="form">
      {props.action && <WatchFields subject={props.subject} />}
      <p className="gc-watch__promise">{props.promise}</p>
      <div className="gc-watch__row">
        <div className="gc-field" part="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            className="gc-input"
            part="input"
            autoComplete="email"
            maxLength={254}
            aria-required="true"
            aria-invalid={errorOf ? true : undefined}
            aria-describedby={errorOf ? `${id}-email-error` : undefined}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <FieldError id={`${id}-email-error`} message={errorOf} />
        </div>
        <button type="submit" className="gc-button gc-button--primary" part="button" disabled={mutation.isPending}>
          {mutation.isPending ? 'Sending...' : 'Email me'}
        </button>
      </div>
      {failure && (
        <p className="gc-form__failure" part="error">
          <strong>The alert was not set up.</strong> {failure.replace(/\.?$/, '.')} Try again, or call{' '}
          <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a>.
        </p>
      )}
      {props.push && (
        <div className="gc-watch__push" data-watch-push={JSON.stringify(props.subject)}>
          <button type="button" className="gc-button gc-button--secondary" data-watch-push-button="">
            Notify me in this browser instead
          </button>
          <p className="gc-watch__status" role="status" data-watch-push-status="" />
        </div>
      )}
      <p className="gc-watch__note">
        We email you once to confirm, then only when it happens, at most once a day. Every alert has a one-click unsubscribe.{' '}
        <a href={props.privacyHref}>Privacy</a>
      </p>
    </form>
  )
}

/** What the form posts besides the address when the server reads it: the cart, or the search's fields. */
function WatchFields({ subject }: { subject: WatchFormSubject }) {
  const fields = 'cartId' in subject ? [['cartId', String(subject.cartId)] as const] : [...cartSearchParams(subject.query).entries()]
  return (
    <>
      <input type="hidden" name="form" value="watch" />
      {fields.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  )
}
