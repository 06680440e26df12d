import { paths } from '../../domain/site-paths.ts'
import cardCss from '../shared/cart-card.css?inline'
import { defineWidget } from '../shared/define-widget.tsx'
import { WidgetApi } from '../shared/widget-api.tsx'
import { resolveUrl } from '../shared/urls.ts'
import css from './vehicle-detail.css?inline'
import { VehicleDetail } from './vehicle-detail.tsx'

/**
 * `<gc-vehicle-detail slug="...">`: one cart with its specifications and quote buttons.
 *
 * Attributes: `api-base`, `slug` (either slug reading works).
 * Events: `gc-error` ({ message }).
 * Parts: root, vehicle, heading, image, badge, status (the On Hold or Sold badge), price, msrp
 * (the maker's price and the saving), location (the cart's showroom), button, specifications,
 * similar (a sold cart's similar carts), card, cta, not-found, error.
 */
defineWidget({
  tag: 'gc-vehicle-detail',
  attributes: { slug: 'string' },
  styles: [cardCss, css],
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
        onError={(message) => emit('gc-error', { message })}
      />
    ) : null,
})
