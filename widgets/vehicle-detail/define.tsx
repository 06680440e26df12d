import { paths } from '../../domain/site-paths.ts'
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
 * Parts: root, vehicle, heading, image, badge, price, button, specifications, cta, not-found, error.
 */
defineWidget({
  tag: 'gc-vehicle-detail',
  attributes: { slug: 'string' },
  events: ['gc-error'],
  styles: [css],
  wrap: (content, apiBase) => <WidgetApi apiBase={apiBase}>{content}</WidgetApi>,
  render: (a, emit) =>
    a.slug ? (
      <VehicleDetail
        slug={String(a.slug)}
        headingLevel={2}
        homeHref={resolveUrl(a.apiBase, paths.home)}
        inventoryHref={resolveUrl(a.apiBase, paths.inventory)}
        contactHref={(slug) => resolveUrl(a.apiBase, paths.quote(slug))}
        onError={(message) => emit('gc-error', { message })}
      />
    ) : null,
})
