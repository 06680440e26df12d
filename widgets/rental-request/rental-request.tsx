import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { business, showrooms } from '../../domain/business.ts'
import { addDays, formatDay, newJerseyToday } from '../../domain/calendar-days.ts'
import { countyByValue } from '../../domain/counties.ts'
import { formatDollars } from '../../domain/dollars.ts'
import { type InquiryReceipt, inquiryLimits } from '../../domain/inquiry.ts'
import { leadInput } from '../../domain/lead-input.ts'
import {
  type CartType,
  isCartType,
  isPlanKey,
  type PlanKey,
  rentalCartType,
  rentalCartTypes,
  rentalPlan,
  rentalTerms,
} from '../../domain/rental-plans.ts'
import {
  availabilitySentence,
  callToConfirm,
  latestStartDays,
  pickupOptions,
  rentalEndDate,
  rentalLeadInput,
  rentalRequestFieldNames,
  type RentalQuote,
  rentalRequestLimits,
  zipPattern,
  startDateProblem,
} from '../../domain/rental-request.ts'
import { busyRetryDelay, describeFailure, fieldIssuesOf, retryWhileBusy, useTRPC } from '../shared/api.tsx'
import { ContactRows, currentPage, FieldError, ReachUsInstead } from '../shared/form-bits.tsx'
import { useFieldErrors, useRefusedOrigin } from '../shared/lead-form.ts'
import { useToast } from '../shared/toast.tsx'
import { useKeepTypedEarly } from '../shared/typed-early.ts'
import { TextConsent } from '../shared/text-consent.tsx'

/**
 * The rental request (PRODUCT.md, "rental requests"): cart type, plan, start date, pickup at a
 * showroom or delivery to an address, and the contact fields. As the visitor chooses, it shows
 * the plan's price (SPEC's table), the end date, the delivery fee estimate for the ZIP code and
 * whether a cart of that type is free on every day (`rental.quote`, the calendar's own rows). It
 * is a lead with interest `rentals`, sent through `inquiry.submit` like the contact form; on the
 * dealer's site it posts without JavaScript too (host/server/contact-post.ts).
 */
export interface RentalRequestProps {
  /** The cart chosen when the form opens: `4-seater`, `6-seater` or `utility`. */
  cartType?: string
  /** The plan chosen when the form opens: `daily`, `3-day`, `weekly` or `monthly`. */
  plan?: string
  /** A county value (`cape-may`) names the county in the heading. */
  county?: string
  /** A label stored with every lead from this form: which page or embed brought it. */
  source?: string
  /** Where the form posts when JavaScript has not run (the dealer's site only). */
  action?: string
  /** What a server-handled post sends back: the fields as typed (by their names) and their problems. */
  initial?: { values: Record<string, string>; errors: Record<string, string> }
  /** The server took a post without JavaScript and redirected here with `?sent=1`. */
  sent?: boolean
  headingLevel?: 2 | 3
  /** The form's own heading, where the page's already says "Request a Golf Cart Rental". */
  heading?: string
  checkOrigin?: boolean
  onOriginRefused?: (origin: string | null) => void
  onSubmitted?: (receipt: InquiryReceipt) => void
  onError?: (message: string) => void
}

type FieldName = (typeof rentalRequestFieldNames)[number]
type Values = Partial<Record<FieldName, string>>

function presetValues(props: Pick<RentalRequestProps, 'cartType' | 'plan'>): Values {
  return {
    'rental.cartType': isCartType(props.cartType) ? props.cartType : '4-seater',
    'rental.plan': isPlanKey(props.plan) ? props.plan : 'daily',
    'rental.pickup': 'showroom',
  }
}

export function RentalRequest({ headingLevel = 2, ...props }: RentalRequestProps) {
  const id = useId()
  const trpc = useTRPC()
  const toast = useToast()
  const form = useRef<HTMLFormElement>(null)
  const { errors, setErrors, showErrors } = useFieldErrors(form, rentalRequestFieldNames, props.initial?.errors)
  const send = useRef<HTMLButtonElement>(null)
  const [values, setValues] = useState<Values>({ ...presetValues(props), ...props.initial?.values })
  const [trap, setTrap] = useState('')
  const [failure, setFailure] = useState<string>()
  const [sent, setSent] = useState<string | undefined>(props.sent ? callToConfirm : undefined)
  // Without a script (the dealer's page before hydration, or never) the choice between pickup and
  // delivery cannot change the form, so both the showroom and the address show, each saying when
  // it is needed; with one, only the fields the choice needs. An embed always has its script.
  const [scripted, setScripted] = useState(!props.action)
  useEffect(() => setScripted(true), [])
  const mutation = useMutation(trpc.inquiry.submit.mutationOptions())
  const set = (name: FieldName) => (value: string) => setValues((v) => ({ ...v, [name]: value }))
  useKeepTypedEarly(form, {
    ...Object.fromEntries(rentalRequestFieldNames.map((name) => [name, [values[name] ?? '', set(name)] as const])),
    website: [trap, setTrap],
  })

  const refusedOrigin = useRefusedOrigin(props.checkOrigin, props.onOriginRefused)

  const cartType: CartType = isCartType(values['rental.cartType']) ? values['rental.cartType'] : '4-seater'
  const plan: PlanKey = isPlanKey(values['rental.plan']) ? values['rental.plan'] : 'daily'
  const today = newJerseyToday()
  const typedStart = values['rental.startDate'] ?? ''
  // Only a date a request may start on is quoted: the quote refuses the others (400) as the request does.
  const startDate = startDateProblem(typedStart, today) === undefined ? typedStart : undefined
  const delivery = values['rental.pickup'] === 'delivery'
  const typedZip = (values['rental.zip'] ?? '').trim()
  const zip = delivery && zipPattern.test(typedZip) ? typedZip : undefined
  const quote = useQuery({
    ...trpc.rental.quote.queryOptions({ cartType, plan, startDate, zip }),
    enabled: Boolean(startDate || zip),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: retryWhileBusy,
    retryDelay: busyRetryDelay,
  })


  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (mutation.isPending) return
    const input = rentalLeadInput(values, { sourceUrl: currentPage(), sourceLabel: props.source || undefined, website: trap || undefined })
    const checked = leadInput.safeParse(input)
    if (!checked.success) {
      showErrors(checked.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })))
      return
    }
    setErrors({})
    setFailure(undefined)
    mutation.mutate(checked.data, {
      onSuccess(receipt) {
        const type = rentalCartType(cartType)
        const chosen = rentalPlan(cartType, plan)
        setSent(
          `We have your request for a ${type.title} (${chosen.title} plan)${startDate ? ` from ${formatDay(startDate)}` : ''}. ${callToConfirm}`,
        )
        setValues(presetValues({ cartType: props.cartType, plan: props.plan }))
        toast({ title: 'Request sent!', description: callToConfirm })
        props.onSubmitted?.(receipt)
      },
      onError(error) {
        const message = describeFailure(error)
        if (!showErrors(fieldIssuesOf(error))) {
          toast({ variant: 'destructive', title: 'Error sending request', description: message, avoid: send.current })
          setFailure(message)
        }
        props.onError?.(message)
      },
    })
  }

  const H = `h${headingLevel}` as const
  if (refusedOrigin !== undefined) return <ReachUsInstead heading={H} />
  const county = props.county ? countyByValue(props.county) : undefined

  // Ids without the names' dots, which a CSS selector would read as classes.
  const idOf = (name: FieldName) => `${id}-${name.replace('.', '-')}`
  const control = (name: FieldName) => ({
    id: idOf(name),
    name,
    className: 'gc-input',
    part: 'input',
    value: values[name] ?? '',
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': [errors[name] ? `${idOf(name)}-error` : '', hints[name] ? `${idOf(name)}-hint` : ''].filter(Boolean).join(' ') || undefined,
    onChange: (e: { currentTarget: { value: string } }) => set(name)(e.currentTarget.value),
  })
  const field = (name: FieldName, label: string, input: ReactNode, required = false) => (
    <div className="gc-field" part="field">
      <label htmlFor={idOf(name)}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {input}
      {hints[name] && (
        <p id={`${idOf(name)}-hint`} className="gc-field__hint">
          {hints[name]}
        </p>
      )}
      <FieldError id={`${idOf(name)}-error`} message={errors[name]} />
    </div>
  )
  const text = (name: FieldName, label: string, input: { type?: string; autoComplete: string; maxLength: number; required?: boolean; inputMode?: 'numeric' }) =>
    field(
      name,
      label,
      <input
        {...control(name)}
        type={input.type ?? 'text'}
        autoComplete={input.autoComplete}
        maxLength={input.maxLength}
        inputMode={input.inputMode}
        aria-required={input.required || undefined}
      />,
      input.required,
    )

  const showroomField = (label: string, required: boolean) =>
    field(
      'rental.showroom',
      label,
      <select {...control('rental.showroom')} aria-required={required || undefined}>
        <option value="">Choose a showroom</option>
        {showrooms.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>,
      required,
    )
  const addressFields = (suffix: string, required: boolean) => (
    <>
      {text('rental.street', `Street address${suffix}`, { autoComplete: 'address-line1', maxLength: rentalRequestLimits.street, required })}
      <div className="gc-form__row">
        {text('rental.town', `Town${suffix}`, { autoComplete: 'address-level2', maxLength: rentalRequestLimits.town, required })}
        {text('rental.zip', `ZIP code${suffix}`, { autoComplete: 'postal-code', maxLength: 10, required, inputMode: 'numeric' })}
      </div>
    </>
  )

  return (
    <section className="gc-rental-request" part="request">
      <H id={`${id}-heading`} className="gc-heading" part="heading">
        {props.heading ?? (county ? `Request a Golf Cart Rental in ${county.name} County` : 'Request a Golf Cart Rental')}
      </H>
      {sent && (
        <p className="gc-form__sent" part="notice" role="status">
          <strong>Request sent.</strong> {sent}
        </p>
      )}
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
            <input type="hidden" name="sourceLabel" value={props.source ?? ''} />
            <input type="hidden" name="county" value={county?.value ?? ''} />
          </>
        )}
        <p className="gc-form__note">
          Fields marked <span aria-hidden="true">*</span>
          <span className="gc-sr-only">with an asterisk</span> are required. {callToConfirm}
        </p>
        <div className="gc-form__row">
          {field(
            'rental.cartType',
            'Cart',
            <select {...control('rental.cartType')} aria-required>
              {rentalCartTypes.map((type) => (
                <option key={type.key} value={type.key}>
                  {type.title}
                </option>
              ))}
            </select>,
            true,
          )}
          {field(
            'rental.plan',
            'Plan',
            <select {...control('rental.plan')} aria-required>
              {rentalCartType(cartType).plans.map((p) => (
                <option key={p.key} value={p.key}>
                  {p.title} ({p.period}): {p.price}
                </option>
              ))}
            </select>,
            true,
          )}
        </div>
        <div className="gc-form__row">
          {field(
            'rental.startDate',
            'Start date',
            <input {...control('rental.startDate')} type="date" min={today} max={addDays(today, latestStartDays)} aria-required />,
            true,
          )}
          {field(
            'rental.pickup',
            'Pickup or delivery',
            <select {...control('rental.pickup')} aria-required>
              {pickupOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>,
            true,
          )}
        </div>
        {scripted && delivery && addressFields('', true)}
        {scripted && !delivery && showroomField('Showroom', true)}
        {!scripted && (
          <>
            {showroomField('Showroom (for a pickup)', false)}
            {addressFields(' (for a delivery)', false)}
          </>
        )}
        <RentalSummary
          cartType={cartType}
          plan={plan}
          startDate={startDate}
          delivery={delivery}
          zip={zip}
          quote={quote.data}
          quoteFailed={quote.isError}
          checking={quote.isFetching}
        />
        <ContactRows field={text} />
        {field('message', 'Anything else we should know', <textarea {...control('message')} rows={3} maxLength={inquiryLimits.message} />)}
        <TextConsent
          id={idOf('textConsent')}
          checked={values.textConsent === 'on'}
          onChange={(ticked) => set('textConsent')(ticked ? 'on' : '')}
          error={errors.textConsent}
        />
        <div className="gc-trap" aria-hidden="true">
          <label htmlFor={`${id}-website`}>Leave this field empty</label>
          <input id={`${id}-website`} name="website" type="text" tabIndex={-1} autoComplete="off" value={trap} onChange={(e) => setTrap(e.currentTarget.value)} />
        </div>
        {failure && (
          <p className="gc-form__failure" part="error">
            <strong>Your request was not sent.</strong> {failure.replace(/\.?$/, '.')} Everything you typed is still here: try again, or call{' '}
            <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a>.
          </p>
        )}
        <button ref={send} type="submit" className="gc-button gc-button--primary" part="button" disabled={mutation.isPending}>
          {mutation.isPending ? 'Sending...' : 'Send Request'}
        </button>
      </form>
    </section>
  )
}

const hints: Partial<Record<FieldName, string>> = {
  'rental.startDate': `Up to ${latestStartDays} days ahead. Rentals run in ${rentalTerms.billingIncrementHours}-hour days from the time you take the cart.`,
  'rental.zip': `Delivery is free within ${rentalTerms.freeDeliveryMiles} miles of a showroom, then ${rentalTerms.deliveryFeePerMile} a mile. New Jersey addresses only.`,
}

/**
 * What the request would cost and whether a cart is free, as the visitor chooses: the price and
 * end date from the table (no API needed, so it shows without JavaScript too), the delivery
 * estimate and availability from `rental.quote`. Announced politely as it changes.
 */
function RentalSummary(props: {
  cartType: CartType
  plan: PlanKey
  startDate?: string
  delivery: boolean
  zip?: string
  quote?: RentalQuote
  quoteFailed: boolean
  checking: boolean
}) {
  const type = rentalCartType(props.cartType)
  const chosen = rentalPlan(props.cartType, props.plan)
  // An answer kept from the previous choice is shown only where it still fits the new one.
  const quote = props.quote && props.quote.cartType === props.cartType && props.quote.plan === props.plan ? props.quote : undefined
  const availability = quote?.availability && quote.startDate === props.startDate ? quote.availability : undefined
  const estimate = props.delivery && props.zip && quote?.delivery ? quote.delivery : undefined
  return (
    <div className="gc-rental-summary" part="result" aria-live="polite">
      <p className="gc-rental-summary__price">
        <span>
          {type.title}, {chosen.title} plan ({chosen.period}):
        </span>{' '}
        <strong>{chosen.price}</strong>
      </p>
      {props.startDate && (
        <p>
          From {formatDay(props.startDate)}, due back {formatDay(rentalEndDate(props.startDate, props.plan))}.
        </p>
      )}
      {props.delivery &&
        (estimate ? (
          'refused' in estimate ? (
            <p className="gc-rental-summary__problem">{estimate.refused}</p>
          ) : (
            <p>
              Delivery from our {estimate.showroom} showroom, about {estimate.miles} miles:{' '}
              <strong>{estimate.fee === 0 ? 'no delivery fee' : `estimated fee ${formatDollars(estimate.fee)}`}</strong>.
            </p>
          )
        ) : (
          <p>
            Delivery is free within {rentalTerms.freeDeliveryMiles} miles of a showroom, then {rentalTerms.deliveryFeePerMile} a mile; enter the
            ZIP code for an estimate.
          </p>
        ))}
      {availability && (
        <p className={availability.free ? 'gc-rental-summary__free' : 'gc-rental-summary__problem'}>
          {availabilitySentence(type.title, availability, formatDay)}
        </p>
      )}
      {props.quoteFailed && !quote && <p>We could not check availability just now; send the request and we will check for you.</p>}
      {props.checking && !availability && props.startDate && <p className="gc-sr-only">Checking availability...</p>}
    </div>
  )
}
