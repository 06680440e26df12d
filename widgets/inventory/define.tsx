import cardCss from '../shared/cart-card.css?inline'
import { defineWidget } from '../shared/define-widget.tsx'
import { WidgetApi } from '../shared/widget-api.tsx'
import { defaultVehicleHref, fillVehicleHref } from '../shared/urls.ts'
import css from './inventory-grid.css?inline'
import { InventoryGrid } from './inventory-grid.tsx'

/**
 * `<gc-inventory>`: the dealer's inventory with its category filter, 24 carts a page.
 *
 * Attributes: `api-base`, `category` (e.g. `new`; empty means all), `vehicle-href` (link
 * template, default `{api-base}/vehicle/{slug}`).
 * Events: `gc-vehicle-select` ({ slug }) when a visitor opens a cart, `gc-error` ({ message }).
 * Parts: root, inventory, heading, filter, grid, card, image, badge, price, button, empty,
 * error, pagination. Custom properties: --gc-accent, --gc-font, --gc-radius, --gc-surface, --gc-text.
 */
defineWidget({
  tag: 'gc-inventory',
  attributes: { category: 'string', vehicleHref: 'string' },
  styles: [cardCss, css],
  wrap: (content, apiBase) => <WidgetApi apiBase={apiBase}>{content}</WidgetApi>,
  render: (a, emit) => (
    <InventoryGrid
      category={a.category as string | undefined}
      vehicleHref={(slug) => fillVehicleHref((a.vehicleHref as string | undefined) ?? defaultVehicleHref, a.apiBase, slug)}
      onVehicleSelect={(slug) => emit('gc-vehicle-select', { slug })}
      onError={(message) => emit('gc-error', { message })}
    />
  ),
})
