import { defineWidget } from '../shared/define-widget.tsx'
import toastCss from '../shared/toast.css?inline'
import { ToastProvider } from '../shared/toast.tsx'
import { WidgetApi } from '../shared/widget-api.tsx'
import css from './rental-request.css?inline'
import { RentalRequest } from './rental-request.tsx'

/**
 * `<gc-rental-request>`: the rental request (PRODUCT.md, "rental requests"): cart, plan, start
 * date, pickup or delivery, with the price, the delivery fee estimate and whether a cart is free.
 * A request, not a booking: the dealer calls to confirm. Leads are accepted only from the dealer's
 * site and the origins in ALLOWED_ORIGINS, as for `<gc-contact-form>`.
 *
 * Attributes: `api-base`, `cart-type` (`4-seater`, `6-seater`, `utility`), `plan` (`daily`,
 * `3-day`, `weekly`, `monthly`), `county` (a county value; names the county in the heading),
 * `source` (a label stored with every lead from this element).
 * Events: `gc-lead-submitted` ({ id, interest }), `gc-error` ({ message }).
 * Parts: root, request, heading, form, field, input, result, notice, error, button, toasts, toast.
 */
defineWidget({
  tag: 'gc-rental-request',
  attributes: { cartType: 'string', plan: 'string', county: 'string', source: 'string' },
  styles: [toastCss, css],
  wrap: (content, apiBase) => (
    <WidgetApi apiBase={apiBase}>
      <ToastProvider>{content}</ToastProvider>
    </WidgetApi>
  ),
  render: (a, emit) => (
    <RentalRequest
      // A new preset from the page starts the form again with it.
      key={`${String(a.cartType)}/${String(a.plan)}`}
      cartType={a.cartType as string | undefined}
      plan={a.plan as string | undefined}
      county={a.county as string | undefined}
      source={a.source as string | undefined}
      checkOrigin
      onOriginRefused={(origin) => {
        const page = origin ?? 'this page'
        const message = `Leads from ${page} are not accepted; the form shows the phone number and email instead.`
        console.error(`gc-rental-request: ${message} Ask the dealer to add ${page} to ALLOWED_ORIGINS.`)
        emit('gc-error', { message })
      }}
      onSubmitted={(receipt) => emit('gc-lead-submitted', { id: receipt.id, interest: receipt.interest })}
      onError={(message) => emit('gc-error', { message })}
    />
  ),
})
