import { business } from '../../domain/business.ts'
import { leadPaths, staffPaths } from '../../domain/staff-paths.ts'

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

/** Plain JavaScript, run by the browser in the service worker's scope (`/staff/`). */
export const serviceWorkerSource = `'use strict'
self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

// A lead alert: the payload the server encrypted for this browser (api/leads/messages.ts, pushPayload).
self.addEventListener('push', (event) => {
  let alert = {}
  try {
    alert = event.data ? event.data.json() : {}
  } catch (error) {
    alert = { body: event.data ? event.data.text() : '' }
  }
  event.waitUntil(
    self.registration.showNotification(alert.title || 'New lead', {
      body: alert.body || '',
      tag: alert.tag,
      renotify: Boolean(alert.tag),
      icon: '/favicon.svg',
      data: { url: alert.url },
    }),
  )
})

// Tapped: the lead's page, in the console's window when one is open.
self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const wanted = event.notification.data && event.notification.data.url
  const url = new URL(typeof wanted === 'string' && wanted.startsWith('/staff/') ? wanted : '${leadPaths.inbox}', self.location.origin).href
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url) || windows.find((client) => 'navigate' in client)
      if (open) return open.focus().then((client) => (client.url === url ? client : client.navigate(url)))
      return self.clients.openWindow(url)
    }),
  )
})
`
