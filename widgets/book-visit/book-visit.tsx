import { useMutation, useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import {
  type AppointmentKind,
  appointmentFormFields,
  appointmentInput,
  appointmentKindLabels,
  appointmentKinds,
  type BookingReceipt,
  pickerDays,
  slotTime,
  slotWhen,
} from '../../domain/appointments.ts'
import { business, formatAddress, showroomByKey, showrooms } from '../../domain/business.ts'
import { inquiryLimits } from '../../domain/inquiry.ts'
import { describeFailure, fieldIssuesOf, useTRPC } from '../shared/api.tsx'
import { consentTicked } from '../../domain/texting.ts'
import { currentPage, FieldError, ReachUsInstead, type TextInput, TextField } from '../shared/form-bits.tsx'
import { useFieldErrors, useRefusedOrigin } from '../shared/lead-form.ts'
import { SlotPicker } from '../shared/slot-picker.tsx'
import { TextConsent } from '../shared/text-consent.tsx'
import { useToast } from '../shared/toast.tsx'

/**
 * Booking a visit (PRODUCT.md, "appointments", "where shoppers book"): a test drive or showroom
 * visit, or a service drop-off, at one showroom, in a free slot (`appointment.slots`), booked with
 * `appointment.book`: a lead like any other, and a confirmation email with the calendar
 * invitation and a link to move or cancel. The vehicle page's "Book a test drive" (the cart
 * named), `/services/request`'s drop-off time and `<gc-book-visit>` are this one component.
 */
export interface BookVisitProps {
  /** A showroom key (`bayville`): fixed; otherwise the shopper chooses. */
  showroom?: string
  /** `test-drive` or `service`: fixed; otherwise the shopper chooses. */
  kind?: string
  /** The cart a test drive is for, by its slug: named in the heading and stored with the lead. */
  cart?: string
  /** The cart as its page already knows it (the vehicle page's island): then it is not asked for. */
  knownCart?: { id: number; title: string }
  /** A label stored with every lead from this form. */
  source?: string
  heading?: string
  headingLevel?: 2 | 3
  /** How many days ahead the picker offers (the API's limit is 60). */
  days?: number
  /**
   * Behind a "Book a test drive" button (the vehicle page): the free times are asked for only once
   * it is opened, so a page view costs no API call.
   */
  closed?: boolean
  /**
   * The page's own address (the vehicle page's island): without a script the form posts there
   * (`form=book`), "Book a test drive" is a link to `?day=`, and the day a GET of the page
   * (docs/decisions/0046). A partner's element has none: it needs its script anyway.
   */
  action?: string
  /** The id of the element the page scrolls to after a reload (`#test-drive`). */
  anchor?: string
  /** The day the page was asked for without a script (`?day=YYYY-MM-DD`, or empty): the form is open. */
  day?: string
  /** A booking posted without a script and refused: what was typed and why. */
  initial?: { values: Record<string, string>; errors: Record<string, string>; message?: string }
  /** A booking posted without a script and made: its time and place (`?booked=`). */
  booked?: { startsAt: string; endsAt: string }
  checkOrigin?: boolean
  onOriginRefused?: (origin: string | null) => void
  onBooked?: (receipt: BookingReceipt, interest: 'test-drive' | 'service') => void
  onError?: (message: string) => void
}

type Field = (typeof appointmentFormFields)[number]
const isKind = (value: string | undefined): value is AppointmentKind => (appointmentKinds as readonly string[]).includes(value ?? '')

export function BookVisit({ headingLevel = 2, days = pickerDays, ...props }: BookVisitProps) {
  const id = useId()
  const trpc = useTRPC()
  const toast = useToast()
  const form = useRef<HTMLFormElement>(null)
  const send = useRef<HTMLButtonElement>(null)
  const fixedShowroom = props.showroom && showroomByKey(props.showroom) ? props.showroom : undefined
  const fixedKind = isKind(props.kind) ? props.kind : undefined
  const [showroom, setShowroom] = useState(fixedShowroom ?? '')
  const [kind, setKind] = useState<AppointmentKind>(fixedKind ?? 'test-drive')
  const [values, setValues] = useState<Partial<Record<Field, string>>>(props.initial?.values ?? {})
  const [consent, setConsent] = useState(consentTicked(props.initial?.values.textConsent ?? ''))
  const [booked, setBooked] = useState<{ showroom: string; startsAt: string; endsAt: string; email?: string } | undefined>(
    props.booked && fixedShowroom ? { ...props.booked, showroom: fixedShowroom } : undefined,
  )
  const [opened, setOpened] = useState(!props.closed || props.day !== undefined)
  const headingRef = useRef<HTMLHeadingElement>(null)
  // Opened by its button: the keyboard moves on to the form's heading, which the button gave way to.
  useEffect(() => {
    if (opened && props.closed) headingRef.current?.focus()
  }, [opened, props.closed])
  const [scripted, setScripted] = useState(false)
  useEffect(() => setScripted(true), [])
  const { errors, setErrors, showErrors } = useFieldErrors(form, ['showroom', ...appointmentFormFields], props.initial?.errors)
  const refusedOrigin = useRefusedOrigin(props.checkOrigin, props.onOriginRefused)
  const asked = useQuery({ ...trpc.cart.bySlug.queryOptions({ slug: props.cart ?? '' }), enabled: Boolean(props.cart) && !props.knownCart })
  const cart = { data: props.knownCart ?? asked.data }
  const slots = useQuery({ ...trpc.appointment.slots.queryOptions({ showroom, kind, days }), enabled: showroom !== '' && opened })
  const mutation = useMutation(trpc.appointment.book.mutationOptions())
  const set = (name: Field) => (value: string) => setValues((v) => ({ ...v, [name]: value }))
  const cartTitle = cart.data?.title

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (mutation.isPending) return
    if (!showroom) {
      showErrors([{ path: 'showroom', message: 'Choose a showroom' }])
      return
    }
    const input = {
      showroom,
      kind,
      startsAt: values.startsAt ?? '',
      firstName: values.firstName ?? '',
      lastName: values.lastName ?? '',
      email: values.email ?? '',
      phone: values.phone || undefined,
      message: values.message || undefined,
      textConsent: consent,
      cartId: kind === 'test-drive' ? cart.data?.id : undefined,
      sourceUrl: currentPage(),
      sourceLabel: props.source || undefined,
    }
    const checked = appointmentInput.safeParse(input)
    if (!checked.success) {
      showErrors(checked.error.issues.map((i) => ({ path: i.path.join('.') === 'startsAt' && !input.startsAt ? 'startsAt' : i.path.join('.'), message: i.path.join('.') === 'startsAt' && !input.startsAt ? 'Choose a time' : i.message })))
      return
    }
    setErrors({})
    mutation.mutate(checked.data, {
      onSuccess(receipt) {
        setBooked({ ...receipt, email: checked.data.email })
        setValues({})
        setConsent(false)
        toast({ title: 'Booked!', description: `${slotWhen(receipt.startsAt)}. A confirmation is on its way to your email.` })
        props.onBooked?.(receipt, kind === 'service' ? 'service' : 'test-drive')
      },
      onError(error) {
        const message = describeFailure(error)
        void slots.refetch()
        if (!showErrors(fieldIssuesOf(error))) {
          // The slot filled meanwhile (409) or anything else: said beside the times, which are fetched again.
          setErrors({ startsAt: message })
          toast({ variant: 'destructive', title: 'Not booked', description: message, avoid: send.current })
        }
        props.onError?.(message)
      },
    })
  }

  const H = `h${headingLevel}` as const
  /** Rendered without a script on a page of the site: the form posts to the page (docs/decisions/0046). */
  const noScript = !scripted && Boolean(props.action)
  if (refusedOrigin !== undefined) return <ReachUsInstead heading={H} />
  const chosenShowroom = showroomByKey(showroom)
  const heading =
    props.heading ??
    (kind === 'service'
      ? 'Book a Service Drop-off'
      : cartTitle
        ? `Book a Test Drive of the ${cartTitle}`
        : 'Book a Test Drive')

  const describedBy = (name: string) => (errors[name] ? `${id}-${name}-error` : undefined)
  const text = (name: Field, label: string, input: TextInput) => (
    <TextField idPrefix={id} name={name} label={label} {...input} value={values[name] ?? ''} error={errors[name]} onChange={set(name)} />
  )

  if (booked) {
    const place = showroomByKey(booked.showroom)
    return (
      <section className="gc-book" part="book">
        <H className="gc-heading" part="heading">
          You're booked
        </H>
        <div className="gc-booking__done" part="notice" role="status">
          <p>
            <strong>{slotWhen(booked.startsAt)}</strong> to {slotTime(booked.endsAt)}
          </p>
          {place?.address && (
            <p>
              {business.name} {place.name}, {formatAddress(place.address)}
            </p>
          )}
          <p>A confirmation with a calendar invitation and a link to move or cancel is on its way to {booked.email ?? 'your email'}.</p>
        </div>
        {!scripted && props.action ? (
          <a className="gc-button gc-button--secondary" part="button" rel="nofollow" href={`${props.action}?day=#${props.anchor ?? ''}`}>
            Book another visit
          </a>
        ) : (
          <button type="button" className="gc-button gc-button--secondary" part="button" onClick={() => setBooked(undefined)}>
            Book another visit
          </button>
        )}
      </section>
    )
  }

  if (!opened) {
    // Without a script (before hydration, or none): a link to the page with the form open, which
    // crawlers need not follow (the page is never indexed: its free times change by the minute).
    if (!scripted && props.action) {
      return (
        <section className="gc-book" part="book">
          <a className="gc-button gc-button--primary" part="button" rel="nofollow" href={`${props.action}?day=#${props.anchor ?? ''}`}>
            {kind === 'service' ? 'Book a drop-off time' : 'Book a test drive'}
          </a>
        </section>
      )
    }
    return (
      <section className="gc-book" part="book">
        <button type="button" className="gc-button gc-button--primary" part="button" aria-expanded="false" onClick={() => setOpened(true)}>
          {kind === 'service' ? 'Book a drop-off time' : 'Book a test drive'}
        </button>
      </section>
    )
  }

  return (
    <section className="gc-book" part="book">
      <H id={`${id}-heading`} className="gc-heading" part="heading" tabIndex={-1} ref={headingRef}>
        {heading}
      </H>
      {noScript && (
        // The day's GET (the slot picker's select and button join it by its id): the page again, that day's times in it.
        <form id={`${id}-day-form`} method="get" action={`${props.action}#${props.anchor ?? ''}`} hidden />
      )}
      {noScript && props.initial?.message && (
        <p className="gc-field__error" role="alert">
          Not booked: {props.initial.message}
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
        action={props.action && `${props.action}#${props.anchor ?? ''}`}
      >
        {noScript && <input type="hidden" name="form" value="book" />}
        {noScript && fixedShowroom && <input type="hidden" name="showroom" value={fixedShowroom} />}
        {noScript && kind === 'test-drive' && cart.data && <input type="hidden" name="cartId" value={cart.data.id} />}
        {!fixedKind && (
          <div className="gc-field" part="field">
            <label htmlFor={`${id}-kind`}>What for</label>
            <select id={`${id}-kind`} className="gc-input" part="input" value={kind} onChange={(e) => (setKind(e.currentTarget.value as AppointmentKind), set('startsAt')(''))}>
              {appointmentKinds.map((k) => (
                <option key={k} value={k}>
                  {appointmentKindLabels[k]}
                </option>
              ))}
            </select>
          </div>
        )}
        {fixedShowroom ? (
          chosenShowroom?.address && (
            <p className="gc-form__note" part="notice">
              At {business.name} {chosenShowroom.name}, {formatAddress(chosenShowroom.address)}
            </p>
          )
        ) : (
          <div className="gc-field" part="field">
            <label htmlFor={`${id}-showroom`}>
              Showroom<span aria-hidden="true"> *</span>
            </label>
            <select
              id={`${id}-showroom`}
              name="showroom"
              className="gc-input"
              part="input"
              value={showroom}
              aria-required
              aria-invalid={errors.showroom ? true : undefined}
              aria-describedby={describedBy('showroom')}
              onChange={(e) => (setShowroom(e.currentTarget.value), set('startsAt')(''))}
            >
              <option value="">Choose a showroom</option>
              {showrooms.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
            <FieldError id={`${id}-showroom-error`} message={errors.showroom} />
          </div>
        )}
        {showroom !== '' &&
          (slots.isPending ? (
            <p className="gc-form__note" part="notice" role="status">
              Finding free times…
            </p>
          ) : slots.isError ? (
            <p className="gc-field__error" role="alert">
              {describeFailure(slots.error)} Call {business.tollFree.display} to book.
            </p>
          ) : (
            <SlotPicker
              id={`${id}-startsAt`}
              slots={slots.data.slots.map((s) => s.startsAt)}
              value={values.startsAt ?? ''}
              onChange={set('startsAt')}
              scripted={scripted}
              dayForm={noScript ? `${id}-day-form` : undefined}
              noScriptDay={props.day}
              error={errors.startsAt}
            />
          ))}
        <div className="gc-form__row">
          {text('firstName', 'First name', { autoComplete: 'given-name', maxLength: inquiryLimits.name, required: true })}
          {text('lastName', 'Last name', { autoComplete: 'family-name', maxLength: inquiryLimits.name, required: true })}
        </div>
        <div className="gc-form__row">
          {text('email', 'Email', { type: 'email', autoComplete: 'email', maxLength: inquiryLimits.email, required: true })}
          {text('phone', 'Phone', { type: 'tel', autoComplete: 'tel', maxLength: inquiryLimits.phone })}
        </div>
        <div className="gc-field" part="field">
          <label htmlFor={`${id}-message`}>Anything we should know</label>
          <textarea
            id={`${id}-message`}
            name="message"
            className="gc-input"
            part="input"
            rows={3}
            maxLength={inquiryLimits.message}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={describedBy('message')}
            value={values.message ?? ''}
            onChange={(e) => set('message')(e.currentTarget.value)}
          />
          <FieldError id={`${id}-message-error`} message={errors.message} />
        </div>
        <TextConsent id={`${id}-consent`} checked={consent} onChange={setConsent} error={errors.textConsent} />
        <button ref={send} type="submit" className="gc-button gc-button--primary" part="button" disabled={mutation.isPending}>
          {mutation.isPending ? 'Booking…' : 'Book this time'}
        </button>
      </form>
    </section>
  )
}
