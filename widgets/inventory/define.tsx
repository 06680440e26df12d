import { useState } from 'react'
import { type CartSearch, type CartSearchField, cartSearchFields, readCartSearch } from '../../domain/cart-query.ts'
import cardCss from '../shared/cart-card.css?inline'
import { defineWidget, type Emit } from '../shared/define-widget.tsx'
import { WidgetApi } from '../shared/widget-api.tsx'
import { defaultVehicleHref, fillVehicleHref, shortlistHref } from '../shared/urls.ts'
import css from './inventory-grid.css?inline'
import watchCss from '../shared/watch-form.css?inline'
import { paths } from '../../domain/site-paths.ts'
import { resolveUrl } from '../shared/urls.ts'
import { WatchFormOnOpen } from '../shared/watch-on-open.tsx'
import { InventoryGrid } from './inventory-grid.tsx'

/**
 * `<gc-inventory>`: the dealer's inventory with its filters, 24 carts a page.
 *
 * Attributes: `api-base`; the search (PRODUCT.md, "search"), each of which fixes that filter for
 * the partner's visitors and takes it out of the panel: `category` (e.g. `new`), `make`
 * (comma-separated: `denago,evolution`), `seats` (at least), `battery` (`lithium`, `lead-acid`),
 * `street-legal` (`true`), `lifted` (`true`), `location` (a showroom's key: `ocean-view`,
 * `bayville`, `waretown`, `pleasantville`), `min-price`, `max-price`, `q`, `sort`
 * (`price-asc`, `price-desc`, `newest`); a value not understood is ignored. `filters="hidden"`
 * hides the filter panel (shown by default). `vehicle-href` (link template, default
 * `{api-base}/vehicle/{slug}`).
 * The visitor's own choices are kept for the tab's session, per page, so coming back from a
 * cart shows the same list.
 * "Tell me about new carts like these" watches the search on screen (the fixed filters and the
 * visitor's) by email, through the API (the page's origin must be allowed, as for leads); Web Push
 * is the dealer's site only.
 * Events: `gc-vehicle-select` ({ slug }) when a visitor opens a cart, `gc-error` ({ message }).
 * Parts: root, inventory, heading, notice, filters, filter-group, search, input, summary, grid,
 * card, image, badge (only a badge that tells the cart apart: On Hold, also `status`; Used; Just
 * arrived), location, specs (seats, range, battery), price, monthly ("From $X/mo"), button,
 * compare-button and save-button (toggles of this browser's lists, `aria-pressed`), shortlist
 * (the links once a list has a cart: compare-link to the dealer's `/compare?carts=...`,
 * saved-link to `/saved?carts=...`), empty, error, pagination, watch (the alert's box: its
 * button is also `watch-button`, then form, field, input). Custom properties: --gc-accent,
 * --gc-font, --gc-radius, --gc-surface, --gc-text.
 */
const searchAttributes = Object.fromEntries(cartSearchFields.map((field) => [field, 'string' as const]))

defineWidget({
  tag: 'gc-inventory',
  attributes: { ...searchAttributes, filters: 'string', vehicleHref: 'string' },
  styles: [cardCss, css, watchCss],
  wrap: (content, apiBase) => <WidgetApi apiBase={apiBase}>{content}</WidgetApi>,
  render: (a, emit) => <EmbeddedInventory attributes={a} emit={emit} />,
})

function EmbeddedInventory({ attributes: a, emit }: { attributes: Record<string, unknown>; emit: Emit }) {
  const fixed = readCartSearch(Object.fromEntries(cartSearchFields.map((field) => [field, a[field]]))).search
  const locked = Object.keys(fixed) as CartSearchField[]
  const memoryKey = `gc-inventory:${location.pathname}:${locked.map((f) => `${f}=${String(fixed[f])}`).join('&')}`
  const [remembered] = useState(() => recall(memoryKey))
  const search: CartSearch = { ...remembered.search, ...fixed }
  return (
    <InventoryGrid
      search={search}
      page={remembered.page}
      locked={locked}
      filters={a.filters !== 'hidden'}
      filtersWhenShown
      vehicleHref={(slug) => fillVehicleHref((a.vehicleHref as string | undefined) ?? defaultVehicleHref, a.apiBase as string, slug)}
      onSearchChange={(next, page) => remember(memoryKey, next, page)}
      privacyHref={resolveUrl(a.apiBase as string, paths.privacy)}
      watch={{ checkOrigin: true }}
      watchForm={WatchFormOnOpen}
      onVehicleSelect={(slug) => emit('gc-vehicle-select', { slug })}
      shortlistHref={shortlistHref(a.apiBase as string)}
      onError={(message) => emit('gc-error', { message })}
    />
  )
}

/** The visitor's last search on this page; storage may be refused (privacy modes, sandboxes). */
function recall(key: string): { search: CartSearch; page: number } {
  try {
    const saved = JSON.parse(sessionStorage.getItem(key) ?? 'null') as { search?: Record<string, unknown>; page?: unknown } | null
    if (!saved) return { search: {}, page: 0 }
    return { search: readCartSearch(saved.search ?? {}).search, page: typeof saved.page === 'number' && saved.page >= 0 ? saved.page : 0 }
  } catch {
    return { search: {}, page: 0 }
  }
}

function remember(key: string, search: CartSearch, page: number) {
  try {
    sessionStorage.setItem(key, JSON.stringify({ search, page }))
  } catch {
    // Not kept: the list still works, it just starts afresh next time.
  }
}
