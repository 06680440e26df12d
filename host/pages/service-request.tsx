import { useQuery } from '@tanstack/react-query'
import { Phone } from 'lucide-react'
import type { ReactNode } from 'react'
import { pickerDays, slotTime, slotWhen } from '../../domain/appointments.ts'
import { business, formatAddress, showroomByKey, showrooms } from '../../domain/business.ts'
import { inquiryLimits } from '../../domain/inquiry.ts'
import { serviceCallToConfirm, serviceDays, serviceNeeds, serviceRequestLimits } from '../../domain/service-request.ts'
import { dropOffAnchor, paths, requestFormAnchor } from '../../domain/site-paths.ts'
import { useTRPC } from '../../widgets/shared/api.tsx'
import { FieldError } from '../../widgets/shared/form-bits.tsx'
import { SlotPicker } from '../../widgets/shared/slot-picker.tsx'
import { TextConsent } from '../../widgets/shared/text-consent.tsx'
import { Hero } from '../components/hero.tsx'
import { usePostedForm } from '../form-state.ts'
import { callPrompt, useDocumentMeta } from '../meta.ts'
import type { MetaContext, PageProps, Route } from '../page.ts'

const meta = () => ({
  title: 'Schedule Golf Cart Service',
  description: `Tell us your cart's make, model and year, what it needs and the days that suit you, and we will call to book the visit or the pick-up. ${callPrompt}`,
  keywords: ['golf cart service NJ', 'golf cart repair appointment', 'golf cart battery service', 'golf cart pick-up service'],
  pageType: 'services' as const,
  path: paths.serviceRequest,
})

/** The showroom whose drop-off times the address asks for (`?showroom=bayville`), if it is one. */
const dropOffShowroom = (query: URLSearchParams) => {
  const key = query.get('showroom') ?? ''
  return showroomByKey(key) ? key : undefined
}
const dropOffSlots = ({ trpc }: Pick<MetaContext, 'trpc'>, showroom: string) =>
  trpc.appointment.slots.queryOptions({ showroom, kind: 'service', days: pickerDays })
/** The GET form the drop-off's showroom and day belong to (by its id): the page again with their times. */
const dayFormId = 'drop-off-day'

/**
 * `/services/request` (PRODUCT.md, "service requests"), where every Schedule Service button
 * leads: a plain form the server renders and takes (host/server/contact-post.ts), with no script
 * at all: nothing here needs one. A lead with interest `service`, in the inbox with its details.
 * It may carry a drop-off time (docs/decisions/0046): a showroom and a day chosen reload the page
 * with that day's free times; with one chosen, the post is a booking and the request, one lead.
 */
function ServiceRequestPage({ search }: PageProps) {
  useDocumentMeta(meta())
  const query = new URLSearchParams(search)
  const trpc = useTRPC()
  const showroom = dropOffShowroom(query)
  const slots = useQuery({ ...dropOffSlots({ trpc }, showroom ?? ''), enabled: showroom !== undefined })
  const booked = query.get('booked')
  const endsAt = query.get('ends')
  const bookedAt = booked && endsAt && !Number.isNaN(Date.parse(booked)) && !Number.isNaN(Date.parse(endsAt)) ? { startsAt: booked, endsAt } : undefined
  const posted = usePostedForm()
  const typed = { ...posted?.values, ...posted?.request } as Record<string, string | string[] | undefined>
  const errors = posted?.errors ?? {}
  const text = (name: string) => {
    const value = typed[name]
    return typeof value === 'string' ? value : ''
  }
  const list = (name: string) => {
    const value = typed[name]
    return Array.isArray(value) ? value : typeof value === 'string' && value ? [value] : []
  }
  const id = (name: string) => `service-${name.replace('.', '-')}`
  const described = (name: string, hint?: boolean) =>
    [errors[name] ? `${id(name)}-error` : '', hint ? `${id(name)}-hint` : ''].filter(Boolean).join(' ') || undefined
  const field = (name: string, label: string, input: { type?: string; autoComplete?: string; maxLength: number; required?: boolean; inputMode?: 'numeric'; hint?: string }): ReactNode => (
    <div className="gc-field">
      <label htmlFor={id(name)}>
        {label}
        {input.required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id(name)}
        name={name}
        className="gc-input"
        type={input.type ?? 'text'}
        autoComplete={input.autoComplete}
        maxLength={input.maxLength}
        inputMode={input.inputMode}
        aria-required={input.required || undefined}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={described(name, Boolean(input.hint))}
        defaultValue={text(name)}
      />
      {input.hint && (
        <p id={`${id(name)}-hint`} className="gc-field__hint">
          {input.hint}
        </p>
      )}
      <FieldError id={`${id(name)}-error`} message={errors[name]} />
    </div>
  )
  const choices = (name: string, legend: string, options: readonly { value: string; label: string }[], required = false) => (
    <fieldset className="choice-group" aria-describedby={errors[name] ? `${id(name)}-error` : undefined}>
      <legend>
        {legend}
        {required && <span aria-hidden="true"> *</span>}
      </legend>
      <div className="choice-group__options">
        {options.map((o) => (
          <label key={o.value} className="choice">
            <input type="checkbox" name={name} value={o.value} defaultChecked={list(name).includes(o.value)} />
            {o.label}
          </label>
        ))}
      </div>
      <FieldError id={`${id(name)}-error`} message={errors[name]} />
    </fieldset>
  )
  /** A drop-off time, if the shopper wants one now: first, as choosing its day reloads the page. */
  const dropOff = () => (
    <fieldset className="choice-group drop-off" id={dropOffAnchor}>
      <legend>Drop-off time (optional)</legend>
      <p className="gc-form__note">Book a time to bring the cart in now, or leave this and we will call to agree one.</p>
      <div className="gc-field">
        <label htmlFor="service-showroom">Showroom</label>
        <div className="gc-slots__day">
          <select id="service-showroom" name="showroom" form={dayFormId} className="gc-input" defaultValue={showroom ?? ''}>
            <option value="">Choose a showroom</option>
            {showrooms.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          {!showroom && (
            <button type="submit" form={dayFormId} className="gc-button gc-button--secondary">
              Show free times
            </button>
          )}
        </div>
      </div>
      {showroom && <input type="hidden" name="showroom" value={showroom} />}
      {showroom &&
        (slots.isError ? (
          <p className="gc-field__error" role="alert">
            The free times could not be read just now. Send the request and we will call, or call {business.tollFree.display}.
          </p>
        ) : (
          slots.data && (
            <>
              <SlotPicker
                id="service-startsAt"
                slots={slots.data.slots.map((s) => s.startsAt)}
                value={text('startsAt')}
                scripted={false}
                dayForm={dayFormId}
                noScriptDay={query.get('day') ?? undefined}
                error={errors.startsAt}
              />
              <label className="choice">
                <input type="radio" name="startsAt" value="" defaultChecked={!text('startsAt')} />
                No drop-off time: call me to agree one
              </label>
            </>
          )
        ))}
    </fieldset>
  )
  return (
    <>
      <Hero
        title="Schedule Service"
        subtitle="Tell us about your cart and what it needs. We'll call to book a day at the nearest showroom, or to collect it."
        actions={
          <a className="gc-button gc-button--secondary" href={`tel:${business.tollFree.tel}`}>
            <Phone aria-hidden="true" size={18} /> Or call {business.tollFree.display}
          </a>
        }
      />
      <section className="section" aria-label="Service request">
        <div className="container split split--top">
          <div className="panel" id={requestFormAnchor}>
            {bookedAt && showroom && !posted && (
              <div className="notice notice--success" role="status">
                <p>
                  <strong>You're booked: {slotWhen(bookedAt.startsAt)}</strong> to {slotTime(bookedAt.endsAt)}, at {business.name} {showroomByKey(showroom)?.name},{' '}
                  {formatAddress(showroomByKey(showroom)!.address!)}.
                </p>
                <p>We have your request too. A confirmation with a calendar invitation and a link to move or cancel is on its way to your email.</p>
              </div>
            )}
            {query.get('sent') === '1' && !posted && (
              <p className="notice notice--success" role="status">
                <strong>Request sent.</strong> {serviceCallToConfirm}
              </p>
            )}
            {posted?.message && (
              <p className="notice notice--error" role="alert">
                <strong>Your request was not sent.</strong> {posted.message}
              </p>
            )}
            <h2 id="service-heading" className="gc-heading">
              Request Service
            </h2>
            <form id={dayFormId} method="get" action={`${paths.serviceRequest}#${dropOffAnchor}`} hidden />
            <form className="gc-form" method="post" action={`${paths.serviceRequest}#${requestFormAnchor}`} aria-labelledby="service-heading" noValidate>
              <input type="hidden" name="sourceLabel" value="dealer-site" />
              {dropOff()}
              <p className="gc-form__note">
                Fields marked <span aria-hidden="true">*</span>
                <span className="gc-sr-only">with an asterisk</span> are required. {serviceCallToConfirm}
              </p>
              <div className="gc-form__row">
                {field('service.make', 'Make', { maxLength: serviceRequestLimits.make, required: true, hint: 'The brand on the cart, like Club Car or Evolution.' })}
                {field('service.model', 'Model', { maxLength: serviceRequestLimits.model })}
              </div>
              {field('service.year', 'Year', { maxLength: 4, inputMode: 'numeric' })}
              {choices('service.needs', 'What it needs', serviceNeeds, true)}
              {choices(
                'service.preferredDays',
                'Days that suit you (leave empty for any day we are open)',
                serviceDays.map((day) => ({ value: day, label: day })),
              )}
              <label className="choice">
                <input type="checkbox" name="service.pickup" defaultChecked={text('service.pickup') === 'on'} />
                Please pick the cart up and bring it back
              </label>
              <div className="gc-form__row">
                {field('firstName', 'First Name', { autoComplete: 'given-name', maxLength: inquiryLimits.name, required: true })}
                {field('lastName', 'Last Name', { autoComplete: 'family-name', maxLength: inquiryLimits.name, required: true })}
              </div>
              <div className="gc-form__row">
                {field('email', 'Email', { type: 'email', autoComplete: 'email', maxLength: inquiryLimits.email, required: true })}
                {field('phone', 'Phone', { type: 'tel', autoComplete: 'tel', maxLength: inquiryLimits.phone })}
              </div>
              <div className="gc-field">
                <label htmlFor={id('message')}>Message (what else we should know)</label>
                <textarea
                  id={id('message')}
                  name="message"
                  className="gc-input"
                  rows={4}
                  maxLength={inquiryLimits.message}
                  aria-invalid={errors.message ? true : undefined}
                  aria-describedby={described('message')}
                  defaultValue={text('message')}
                />
                <FieldError id={`${id('message')}-error`} message={errors.message} />
              </div>
              <TextConsent id={id('textConsent')} defaultChecked={text('textConsent') === 'on'} error={errors.textConsent} />
              <div className="gc-trap" aria-hidden="true">
                <label htmlFor="service-website">Leave this field empty</label>
                <input id="service-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
              </div>
              <button type="submit" className="gc-button gc-button--primary">
                Send Request
              </button>
            </form>
          </div>
          <div className="stack">
            <h2 className="section__title">What Happens Next</h2>
            <ol className="steps">
              <li>We read your request and check the shop's calendar at the nearest showroom.</li>
              <li>{serviceCallToConfirm}</li>
              <li>Bring the cart in on the day, or we collect it and bring it back.</li>
            </ol>
            <p>
              Not sure what it needs? Call <a href={`tel:${business.tollFree.tel}`}>{business.tollFree.display}</a> and describe the problem.
            </p>
          </div>
        </div>
      </section>
    </>
  )
}

export const serviceRequestRoute: Route = {
  Page: ServiceRequestPage,
  meta,
  // A showroom chosen for the drop-off (`?showroom=`): its free times are in the HTML.
  async prefetch(context, _params, search) {
    const showroom = dropOffShowroom(search)
    if (showroom) await context.queryClient.prefetchQuery(dropOffSlots(context, showroom))
  },
}
