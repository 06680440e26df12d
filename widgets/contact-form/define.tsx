import { defineWidget } from '../shared/define-widget.tsx'
import toastCss from '../shared/toast.css?inline'
import { ToastProvider } from '../shared/toast.tsx'
import { WidgetApi } from '../shared/widget-api.tsx'
import { ContactForm } from './contact-form.tsx'

/**
 * `<gc-contact-form>`: the quote / contact form. Leads are accepted only from the dealer's site
 * and the origins in ALLOWED_ORIGINS.
 *
 * Attributes: `api-base`, `interest` (preset: denago, evolution, swift-ev, rentals, service),
 * `source` (a label stored with every lead from this element).
 * On a page whose origin the dealer has not allowed, the form is replaced by the phone number
 * and email before the visitor types, and the console names the origin to allow.
 *
 * Events: `gc-lead-submitted` ({ id, interest }), `gc-error` ({ message }).
 * Parts: root, contact, heading, form, field, input, button, notice, toasts, toast.
 */
defineWidget({
  tag: 'gc-contact-form',
  attributes: { interest: 'string', source: 'string' },
  styles: [toastCss],
  wrap: (content, apiBase) => (
    <WidgetApi apiBase={apiBase}>
      <ToastProvider>{content}</ToastProvider>
    </WidgetApi>
  ),
  render: (a, emit) => (
    <ContactForm
      interest={a.interest as string | undefined}
      source={a.source as string | undefined}
      checkOrigin
      onOriginRefused={(origin) => {
        const page = origin ?? 'this page'
        const message = `Leads from ${page} are not accepted; the form shows the phone number and email instead.`
        console.error(`gc-contact-form: ${message} Ask the dealer to add ${page} to ALLOWED_ORIGINS.`)
        emit('gc-error', { message })
      }}
      onSubmitted={(receipt) => emit('gc-lead-submitted', { id: receipt.id, interest: receipt.interest })}
      onError={(message) => emit('gc-error', { message })}
    />
  ),
})
