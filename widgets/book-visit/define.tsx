import { defineWidget } from '../shared/define-widget.tsx'
import slotCss from '../shared/slot-picker.css?inline'
import toastCss from '../shared/toast.css?inline'
import { ToastProvider } from '../shared/toast.tsx'
import { WidgetApi } from '../shared/widget-api.tsx'
import css from './book-visit.css?inline'
import { BookVisit } from './book-visit.tsx'

/**
 * `<gc-book-visit>`: books a test drive or showroom visit, or a service drop-off, at a showroom in
 * a free slot (PRODUCT.md, "appointments", "where shoppers book"). The shopper gets a confirmation
 * email with a calendar invitation and a link to move or cancel. Bookings are accepted only from
 * the dealer's site and the origins in ALLOWED_ORIGINS, as leads are.
 *
 * Attributes: `api-base`, `showroom` (a showroom key: `ocean-view`, `bayville`, `waretown`,
 * `pleasantville`; unset, the shopper chooses), `kind` (`test-drive` or `service`; unset, the
 * shopper chooses), `cart` (a cart's slug: a test drive of that cart), `source` (a label stored
 * with every lead from this element).
 * Events: `gc-lead-submitted` ({ id, interest, appointmentId, startsAt }), `gc-error` ({ message }).
 * Parts: root, book, heading, form, field, input, slots, times, slot, slot-chosen, notice, consent,
 * button, toasts, toast.
 */
defineWidget({
  tag: 'gc-book-visit',
  attributes: { showroom: 'string', kind: 'string', cart: 'string', source: 'string' },
  styles: [toastCss, slotCss, css],
  wrap: (content, apiBase) => (
    <WidgetApi apiBase={apiBase}>
      <ToastProvider>{content}</ToastProvider>
    </WidgetApi>
  ),
  render: (a, emit) => (
    <BookVisit
      key={`${String(a.showroom)}/${String(a.kind)}/${String(a.cart)}`}
      showroom={a.showroom as string | undefined}
      kind={a.kind as string | undefined}
      cart={a.cart as string | undefined}
      source={a.source as string | undefined}
      checkOrigin
      onOriginRefused={(origin) => {
        const page = origin ?? 'this page'
        const message = `Bookings from ${page} are not accepted; the element shows the phone number and email instead.`
        console.error(`gc-book-visit: ${message} Ask the dealer to add ${page} to ALLOWED_ORIGINS.`)
        emit('gc-error', { message })
      }}
      onBooked={(receipt, interest) => emit('gc-lead-submitted', { id: receipt.leadId, interest, appointmentId: receipt.id, startsAt: receipt.startsAt })}
      onError={(message) => emit('gc-error', { message })}
    />
  ),
})
