import { useMutation, useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { business } from '../../domain/business.ts'
import { formatPrice } from '../../domain/golf-cart.ts'
import { specificationsFor } from '../../domain/specifications.ts'
import {
  type InquiryReceipt,
  inquiryInput,
  inquiryLimits,
  interestOptions,
  type TypedFields,
  type VisitorField,
  visitorFieldNames,
} from '../../domain/inquiry.ts'
import { describeFailure, fieldIssuesOf, useTRPC } from '../shared/api.tsx'
import { useFieldErrors, useRefusedOrigin } from '../shared/lead-form.ts'
import { useToast } from '../shared/toast.tsx'
import { useKeepTypedEarly } from '../shared/typed-early.ts'
import { ContactRows, currentPage, FieldError, ReachUsInstead, type TextInput, TextField } from '../shared/form-bits.tsx'
import { TextConsent } from '../shared/text-consent.tsx'

export interface ContactFormProps {
  /** The interest chosen when the form opens (and again after a successful send, when given). */
  interest?: string
  /** A label stored with every lead from this form: which page or embed brought it. */
  source?: string
  /** The cart a quote is for (Get Quote on a vehicle page); stored with the lead. */
  cartSlug?: string
  /**
   * Where the form posts when JavaScript has not run (yet, or at all): the dealer's site sets
   * it so a message is never lost to a slow or failed script. Embeds leave it out.
   */
  action?: string
  /** What a server-handled post sends back: the fields as typed and their problems. */
  initial?: { values: TypedFields; errors: Record<string, string> }
  headingLevel?: 2 | 3
  /**
   * In an embed: ask the API first whether it accepts leads from this page. If it does not,
   * the visitor gets the phone number and email before typing anything, and `onOriginRefused`
   * hears which origin the dealer would have to allow.
   */
  checkOrigin?: boolean
  onOriginRefused?: (origin: string | null) => void
  onSubmitted?: (receipt: InquiryReceipt) => void
  onError?: (message: string) => void
}


const presetInterest = (value: string | undefined) =>
  interestOptions.some((o) => o.value === value) ? (value as string) : ''

/** A quote for an Evolution or Denago cart starts with that brand chosen. */
function brandInterest(title: string | undefined): string {
  const brand = title ? specificationsFor(title).brand.toLowerCase() : ''
  return presetInterest(brand)
}

/** Sending... while it goes; cleared on success; kept, with the reason, on failure (docs/PRODUCT.md). */
export function ContactForm({ headingLevel = 2, ...props }: ContactFormProps) {
  const id = useId()
  const trpc = useTRPC()
  const toast = useToast()
  const form = useRef<HTMLFormElement>(null)
  const { errors, setErrors, showErrors } = useFieldErrors(form, visitorFieldNames, props.initial?.errors)
  // The cart a quote is about until that quote is sent: a second message from the same form is
  // the visitor's next question, not another quote filed under the cart.
  const [cartSlug, setCartSlug] = useState(props.cartSlug)
  useEffect(() => setCartSlug(props.cartSlug), [props.cartSlug])
  const cart = useQuery({ ...trpc.cart.bySlug.queryOptions({ slug: cartSlug ?? '' }), enabled: Boolean(cartSlug) })
  const cartTitle = cartSlug ? cart.data?.title : undefined
  const initialInterest = presetInterest(props.interest) || brandInterest(cartTitle)
  const [values, setValues] = useState<TypedFields>({ ...props.initial?.values })
  // The chosen interest is held apart from the other fields and sent in their place.
  const [interest, setInterest] = useState(presetInterest(props.initial?.values.interest) || initialInterest)
  const mutation = useMutation(trpc.inquiry.submit.mutationOptions())
  const typedInterest = useRef(Boolean(props.initial?.values.interest))
  useEffect(() => {
    if (!typedInterest.current) setInterest(initialInterest)
  }, [initialInterest])
  const [trap, setTrap] = useState('')
  // The last failure, written beside Send until the next try: the toast saying it lasts 5 s.
  const [failure, setFailure] = useState<string>()
  const send = useRef<HTMLButtonElement>(null)
  useKeepTypedEarly(form, {
    ...Object.fromEntries(
      (['firstName', 'lastName', 'email', 'phone', 'message', 'textConsent'] as const).map((name) => [
        name,
        [values[name] ?? '', (value: string) => setValues((v) => ({ ...v, [name]: value }))] as const,
      ]),
    ),
    interest: [
      interest,
      (value) => {
        typedInterest.current = true
        setInterest(value)
      },
    ],
    website: [trap, setTrap],
  })
  const refusedOrigin = useRefusedOrigin(props.checkOrigin, props.onOriginRefused)


  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (mutation.isPending) return
    const input = {
      ...values,
      interest,
      sourceUrl: currentPage(),
      sourceLabel: props.source || undefined,
      cartSlug: cartSlug || undefined,
      website: trap || undefined,
    }
    const checked = inquiryInput.safeParse(input)
    if (!checked.success) {
      showErrors(checked.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })))
      return
    }
    setErrors({})
    setFailure(undefined)
    mutation.mutate(checked.data, {
      onSuccess(receipt) {
        setValues({})
        setCartSlug(undefined)
        // SPEC: the chosen interest is cleared on success. A partner's preset (the `interest`
        // attribute of a rentals landing page, say) stays; the cart's brand does not come back.
        typedInterest.current = true
        setInterest(presetInterest(props.interest))
        toast({
          title: 'Message sent successfully!',
          description: `We'll get back to you within ${business.claims.replyWithinHours} hours.`,
        })
        props.onSubmitted?.(receipt)
      },
      onError(error) {
        const message = describeFailure(error)
        // Field problems are shown beside their fields; anything else gets the toast.
        if (!showErrors(fieldIssuesOf(error))) {
          toast({ variant: 'destructive', title: 'Error sending message', description: message, avoid: send.current })
          setFailure(message)
        }
        props.onError?.(message)
      },
    })
  }

  const H = `h${headingLevel}` as const
  if (refusedOrigin !== undefined) return <ReachUsInstead heading={H} />

  const field = (name: VisitorField, label: string, input: TextInput) => (
    <TextField idPrefix={id} name={name} label={label} {...input} value={values[name] ?? ''} error={errors[name]} onChange={(value) => setValues((v) => ({ ...v, [name]: value }))} />
  )

  return (
    <section className="gc-contact" part="contact">
      <H id={`${id}-heading`} className="gc-heading" part="heading">
        Send Us a Message
      </H>
      <form
        ref={form}
        className="gc-form"
        onSubmit={submit}
        noValidate
        part="form"
        aria-labelledby={`${id}-heading`}
        method="post"
        action={props.action}
      >
        {props.action && (
          <>
            <input type="hidden" name="cartSlug" value={cartSlug ?? ''} />
            <input type="hidden" name="sourceLabel" value={props.source ?? ''} />
          </>
        )}
        {cartTitle &&
          (cart.data?.status === 'sold' ? (
            <p className="gc-form__about" part="about">
              The <strong>{cartTitle}</strong> has been sold. Tell us what you are looking for and we will find you a similar cart.
            </p>
          ) : (
            <p className="gc-form__about" part="about">
              Quote for: <strong>{cartTitle}</strong>
              {cart.data && ` (${formatPrice(cart.data.price)})`}
            </p>
          ))}
        <p className="gc-form__note">
          Fields marked <span aria-hidden="true">*</span>
          <span className="gc-sr-only">with an asterisk</span> are required.
        </p>
        <ContactRows field={field} />
        <div className="gc-field" part="field">
          <label htmlFor={`${id}-interest`}>I'm interested in</label>
          <select
            id={`${id}-interest`}
            name="interest"
            className="gc-input"
            part="input"
            value={interest}
            aria-invalid={errors.interest ? true : undefined}
            aria-describedby={errors.interest ? `${id}-interest-error` : undefined}
            onChange={(e) => {
              typedInterest.current = true
              setInterest(e.currentTarget.value)
            }}
          >
            <option value="">Select an option</option>
            {interestOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <FieldError id={`${id}-interest-error`} message={errors.interest} />
        </div>
        <div className="gc-field" part="field">
          <label htmlFor={`${id}-message`}>Message</label>
          <textarea
            id={`${id}-message`}
            name="message"
            className="gc-input"
            part="input"
            rows={4}
            maxLength={inquiryLimits.message}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={errors.message ? `${id}-message-error` : undefined}
            value={values.message ?? ''}
            onChange={(e) => {
              const value = e.currentTarget.value
              setValues((v) => ({ ...v, message: value }))
            }}
          />
          <FieldError id={`${id}-message-error`} message={errors.message} />
        </div>
        <TextConsent
          id={`${id}-textConsent`}
          checked={values.textConsent === 'on'}
          onChange={(ticked) => setValues((v) => ({ ...v, textConsent: ticked ? 'on' : '' }))}
          error={errors.textConsent}
        />
        {/* For bots only: people never see or reach this field, so anything in it means spam. */}
        <div className="gc-trap" aria-hidden="true">
          <label htmlFor={`${id}-website`}>Leave this field empty</label>
          <input
            id={`${id}-website`}
            name="website"
            type="text"
            tabIndex={-1}
            autoComplete="off"
            value={trap}
            onChange={(e) => setTrap(e.currentTarget.value)}
          />
        </div>
        {failure && (
          <p className="gc-form__failure" part="error">
            <strong>Your message was not sent.</strong> {failure.replace(/\.?$/, '.')} Everything you typed is still here: try again, or call{' '}
            <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a>.
          </p>
        )}
        <button ref={send} type="submit" className="gc-button gc-button--primary" part="button" disabled={mutation.isPending}>
          {mutation.isPending ? 'Sending...' : 'Send Message'}
        </button>
      </form>
    </section>
  )
}
