import { useMutation } from '@tanstack/react-query'
import { Lock } from 'lucide-react'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { business } from '../../domain/business.ts'
import { type DepositOffer, depositFieldNames, depositInput, holdButtonLabel, holdTerms } from '../../domain/deposits.ts'
import { describeFailure, fieldIssuesOf, useTRPC } from '../shared/api.tsx'
import { ContactRows, currentPage, type TextInput, TextField } from '../shared/form-bits.tsx'
import { useFieldErrors } from '../shared/lead-form.ts'
import { TextConsent } from '../shared/text-consent.tsx'

export interface HoldFormProps {
  cartId: number
  cartTitle: string
  offer: DepositOffer
  /** A label stored with the deposit's lead: which page or embed brought it. */
  source?: string
  /** Where the shopper goes to pay; by default the browser goes there (a test or a host may watch instead). */
  onCheckout?: (url: string) => void
  onError?: (message: string) => void
}

type Field = (typeof depositFieldNames)[number]

/** What Stripe's page sent the shopper back with (`?deposit=paid` or `cancelled`), read in the browser. */
function useReturnFromCheckout(): 'paid' | 'cancelled' | undefined {
  const [answer, setAnswer] = useState<'paid' | 'cancelled'>()
  useEffect(() => {
    const value = new URLSearchParams(location.search).get('deposit')
    if (value === 'paid' || value === 'cancelled') setAnswer(value)
  }, [])
  return answer
}

/**
 * "Hold it with a $500 deposit" (PRODUCT.md, "holding a cart"): a button on an available cart's
 * page and in `gc-vehicle-detail` that opens a short form (name, email, phone, the consent box),
 * then sends the shopper to Stripe's page, where the card is typed: no card data ever touches
 * this site. The hold is made by Stripe's signed event, not here; back from Stripe, the form says
 * what happens next.
 */
export function HoldForm(props: HoldFormProps) {
  const id = useId()
  const trpc = useTRPC()
  const form = useRef<HTMLFormElement>(null)
  const [open, setOpen] = useState(false)
  const [values, setValues] = useState<Partial<Record<Field, string>>>({})
  const { errors, setErrors, showErrors } = useFieldErrors(form, depositFieldNames)
  const [failure, setFailure] = useState<string>()
  const mutation = useMutation(trpc.deposit.start.mutationOptions())
  const returned = useReturnFromCheckout()
  const label = holdButtonLabel(props.offer)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (mutation.isPending) return
    const checked = depositInput.safeParse({
      ...values,
      cartId: props.cartId,
      sourceUrl: currentPage(),
      sourceLabel: props.source || undefined,
    })
    if (!checked.success) {
      showErrors(checked.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })))
      return
    }
    setErrors({})
    setFailure(undefined)
    mutation.mutate(checked.data, {
      onSuccess({ url }) {
        if (props.onCheckout) props.onCheckout(url)
        else location.assign(url)
      },
      onError(error) {
        const message = describeFailure(error)
        if (!showErrors(fieldIssuesOf(error))) setFailure(message)
        props.onError?.(message)
      },
    })
  }

  const field = (name: Exclude<Field, 'textConsent'>, text: string, input: TextInput) => (
    <TextField idPrefix={id} name={name} label={text} {...input} value={values[name] ?? ''} error={errors[name]} onChange={(value) => setValues((v) => ({ ...v, [name]: value }))} />
  )

  return (
    <div className="gc-hold" part="hold">
      {returned === 'paid' && (
        <p className="gc-hold__notice" role="status" part="notice">
          Thank you: your payment went through. The cart is held for you as soon as Stripe confirms it, usually within a
          minute, and your receipt comes by email.
        </p>
      )}
      {returned === 'cancelled' && (
        <p className="gc-hold__notice" role="status" part="notice">
          No payment was taken and the cart is not held. You can try again below, or call {business.tollFree.display}.
        </p>
      )}
      <button
        type="button"
        className="gc-button gc-button--hold"
        part="button hold-button"
        aria-expanded={open}
        aria-controls={`${id}-form`}
        onClick={() => setOpen((o) => !o)}
      >
        <Lock aria-hidden="true" size={18} /> {label}
      </button>
      <form
        ref={form}
        id={`${id}-form`}
        className="gc-form gc-hold__form"
        onSubmit={submit}
        noValidate
        hidden={!open}
        part="hold-form"
        aria-labelledby={`${id}-heading`}
      >
        <p id={`${id}-heading`} className="gc-hold__heading">
          {label}: the {props.cartTitle}
        </p>
        <p className="gc-hold__terms">{holdTerms(props.offer)}</p>
        <ContactRows field={field} />
        <TextConsent
          id={`${id}-textConsent`}
          checked={values.textConsent === 'on'}
          onChange={(ticked) => setValues((v) => ({ ...v, textConsent: ticked ? 'on' : '' }))}
          error={errors.textConsent}
        />
        {failure && (
          <p className="gc-form__failure" role="alert" part="error">
            <strong>Nothing was paid.</strong> {failure.replace(/\.?$/, '.')} Everything you typed is still here: try again, or call{' '}
            <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a>.
          </p>
        )}
        <button type="submit" className="gc-button gc-button--primary" part="button" disabled={mutation.isPending}>
          {mutation.isPending ? 'Opening secure payment...' : 'Continue to secure payment'}
        </button>
      </form>
    </div>
  )
}
