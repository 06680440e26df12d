import { business } from '../../domain/business.ts'
import { leadPaths, staffPaths } from '../../domain/staff-paths.ts'
import { pushWorkerSource } from '../http/push-worker.ts'

/**
 * The console as an installable web app (PRODUCT.md, "lead alerts"): its manifest and the service
 * worker that shows lead alerts and opens the lead when one is tapped. Both are fetched by the
 * browser without the session cookie, so they need none and hold nothing private.
 */
export const webAppPaths = {
  manifest: '/staff/manifest.webmanifest',
  serviceWorker: '/staff/sw.js',
} as const

export function webAppManifest(): string {
  return JSON.stringify({
    name: `${business.name} staff`,
    short_name: 'Staff',
    description: 'Leads and inventory for the staff',
    id: staffPaths.console + '/',
    start_url: leadPaths.inbox,
    scope: `${staffPaths.console}/`,
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#1d4ed8',
    icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  })
}

/** Plain JavaScript, run by the browser in the service worker's scope, `/staff/` (api/http/push-worker.ts). */
export const serviceWorkerSource = pushWorkerSource({
  payload: 'A lead alert: the payload the server encrypted for this browser (api/leads/messages.ts, pushPayload).',
  fallbackTitle: 'New lead',
  renotify: true,
  // Tapped: the lead's page, in the console's window when one is open.
  onTap: `  const url = new URL(typeof wanted === 'string' && wanted.startsWith('/staff/') ? wanted : '${leadPaths.inbox}', self.location.origin).href
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url) || windows.find((client) => 'navigate' in client)
      if (open) return open.focus().then((client) => (client.url === url ? client : client.navigate(url)))
      return self.clients.openWindow(url)
    }),
  )`,
})
