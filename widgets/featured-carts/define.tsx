import cardCss from '../shared/cart-card.css?inline'
import { defineWidget } from '../shared/define-widget.tsx'
import { WidgetApi } from '../shared/widget-api.tsx'
import { defaultVehicleHref, fillVehicleHref, shortlistHref } from '../shared/urls.ts'
import css from './featured-carts.css?inline'
import { FeaturedCarts } from './featured-carts.tsx'

/**
 * `<gc-featured-carts>`: the dealer's featured carts.
 *
 * Attributes: `api-base`, `limit` (default 3), `vehicle-href` (link template).
 * Events: `gc-vehicle-select` ({ slug }), `gc-error` ({ message }).
 * Parts: root, featured, heading, grid, card, image, badge (only a badge that tells the cart
 * apart: On Hold, also `status`; Used; Just arrived), location, specs (seats, range, battery),
 * price, monthly ("From $X/mo"), button, compare-button and save-button (toggles of this
 * browser's lists, `aria-pressed`), shortlist (the links once a list has a cart: compare-link to
 * the dealer's `/compare?carts=...`, saved-link to `/saved?carts=...`), error.
 * Compare and Save keep slugs in the partner page's local storage (no cookie, nothing sent).
 */
defineWidget({
  tag: 'gc-featured-carts',
  attributes: { limit: 'number', vehicleHref: 'string' },
  styles: [cardCss, css],
  wrap: (content, apiBase) => <WidgetApi apiBase={apiBase}>{content}</WidgetApi>,
  render: (a, emit) => (
    <FeaturedCarts
      limit={validLimit(a.limit)}
      vehicleHref={(slug) => fillVehicleHref((a.vehicleHref as string | undefined) ?? defaultVehicleHref, a.apiBase, slug)}
      onVehicleSelect={(slug) => emit('gc-vehicle-select', { slug })}
      shortlistHref={shortlistHref(a.apiBase)}
      onError={(message) => emit('gc-error', { message })}
    />
  ),
})

/** A partner typing `limit="six"` gets the default, not an error. */
function validLimit(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 24 ? value : undefined
}
