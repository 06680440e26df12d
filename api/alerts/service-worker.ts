import { paths } from '../../domain/site-paths.ts'
import { pushWorkerSource } from '../http/push-worker.ts'

/**
 * The shoppers' service worker (PRODUCT.md, "watching a cart or a search": Web Push where the
 * browser allows it). Its scope is `/alerts/`, apart from the staff console's `/staff/`
 * (api/staff/web-app.ts), so the two never replace each other; it controls no page of the site,
 * it only shows the alerts pushed to the browser and opens the cart or search when one is tapped.
 */
export const shopperWorkerPath = '/alerts/sw.js'
export const shopperWorkerScope = '/alerts/'

/** Plain JavaScript, run by the browser in the worker's scope (api/http/push-worker.ts). */
export const shopperWorkerSource = pushWorkerSource({
  payload: 'An alert: the payload the server encrypted for this browser (api/alerts/alert-messages.ts).',
  fallbackTitle: 'Golf cart alert',
  renotify: false,
  // Tapped: the cart or the search, on this site only.
  onTap: `  const path = typeof wanted === 'string' && wanted.startsWith('/') && !wanted.startsWith('//') ? wanted : '${paths.inventory}'
  event.waitUntil(self.clients.openWindow(new URL(path, self.location.origin).href))`,
})
