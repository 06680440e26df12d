/**
 * The source of a service worker that shows Web Push notifications, served as plain JavaScript
 * and run by the browser in its scope: the staff console's lead alerts (`/staff/`,
 * api/staff/web-app.ts) and shoppers' price alerts (`/alerts/`, api/alerts/service-worker.ts).
 * Both take the payload the server encrypted for the browser (`title`, `body`, `tag`, `url`),
 * show it, and open a page of the site when it is tapped; they differ in the title used when the
 * payload has none, whether a repeated tag alerts again, and what a tap opens.
 */
export function pushWorkerSource(worker: {
  /** What the payload is, for the comment in the source. */
  payload: string
  /** The title when the payload has none. */
  fallbackTitle: string
  /** A notification with the tag of one already shown alerts again (a lead's news does). */
  renotify: boolean
  /** The `notificationclick` handler's body: `event` is the click, `wanted` the payload's url. */
  onTap: string
}): string {
  return `'use strict'
self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

// ${worker.payload}
self.addEventListener('push', (event) => {
  let alert = {}
  try {
    alert = event.data ? event.data.json() : {}
  } catch (error) {
    alert = { body: event.data ? event.data.text() : '' }
  }
  event.waitUntil(
    self.registration.showNotification(alert.title || ${JSON.stringify(worker.fallbackTitle)}, {
      body: alert.body || '',
      tag: alert.tag,${worker.renotify ? '\n      renotify: Boolean(alert.tag),' : ''}
      icon: '/favicon.svg',
      data: { url: alert.url },
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const wanted = event.notification.data && event.notification.data.url
${worker.onTap}
})
`
}
