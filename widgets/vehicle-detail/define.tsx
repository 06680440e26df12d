import { paths } from '../../domain/site-paths.ts'
import cardCss from '../shared/cart-card.css?inline'
import { defineWidget } from '../shared/define-widget.tsx'
import { WidgetApi } from '../shared/widget-api.tsx'
import { resolveUrl } from '../shared/urls.ts'
import css from './vehicle-detail.css?inline'
import watchCss from '../shared/watch-form.css?inline'
import { VehicleDetail } from './vehicle-detail.tsx'

/**
 * `<gc-vehicle-detail slug="...">`: one cart with its specifications and quote buttons, and,
 * where the dealer takes deposits, "Hold it with a $500 deposit" on an available cart (on pages
 * whose origin the dealer allows for leads), which sends the shopper to Stripe's page to pay.
 *
 * Attributes: `api-base`, `slug` (either slug reading works), `source` (a label stored with the
 * lead a deposit makes).
 * Events: `gc-error` ({ message }).
 * Parts: root, vehicle, heading, image, badge, status (the On Hold or Sold badge), hold-until (a
 * held cart's "On hold until {date}"), price, monthly ("From $X/mo" beside the price; not for a
 * sold cart), msrp (the maker's price and the saving), location
 * (the cart's showroom), button, hold (the deposit's button and form), hold-button, hold-form,
 * field, input, notice, specifications, similar (a sold cart's similar carts, each a card with
 * its specs, monthly, compare-button and save-button parts), card, cta,
 * not-found, error; watch (the "Tell me if the price drops" box: its button is also
 * `watch-button`, then form, field, input, notice).
 * A cart for sale offers "Tell me if the price drops" by email, through the API from the
 * partner's page (its origin must be allowed, as for leads); Web Push is the dealer's site only.
 */
defineWidget({
  tag: 'gc-vehicle-detail',
  attributes: { slug: 'string', source: 'string' },
  styles: [cardCss, css, watchCss],
  wrap: (content, apiBase) => <WidgetApi apiBase={apiBase}>{content}</WidgetApi>,
  render: (a, emit) =>
    a.slug ? (
      <VehicleDetail
        slug={String(a.slug)}
        headingLevel={2}
        homeHref={resolveUrl(a.apiBase, paths.home)}
        inventoryHref={resolveUrl(a.apiBase, paths.inventory)}
        contactHref={(slug) => resolveUrl(a.apiBase, paths.quoteForm(slug))}
        vehicleHref={(slug) => resolveUrl(a.apiBase, paths.vehicle(slug))}
        source={a.source as string | undefined}
        checkOrigin
        privacyHref={resolveUrl(a.apiBase, paths.privacy)}
        watch={{ checkOrigin: true }}
        onError={(message) => emit('gc-error', { message })}
      />
    ) : null,
})
