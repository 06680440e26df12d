import { paths } from '../../domain/site-paths.ts'

/**
 * The shoppers' service worker (PRODUCT.md, "watching a cart or a search": Web Push where the
 * browser allows it). Its scope is `/alerts/`, apart from the staff console's `/staff/`
 * (api/staff/web-app.ts), so the two never replace each other; it controls no page of the site,
 * it only shows the alerts pushed to the browser and opens the cart or search when one is tapped.
 */
export const shopperWorkerPath = '/alerts/sw.js'
export const shopperWorkerScope = '/alerts/'

/** Plain JavaScript, run by the browser in the worker's scope. */
export const shopperWorkerSource = `'use strict'
self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

// An alert: the payload the server encrypted for this browser (api/alerts/alert-messages.ts).
self.addEventListener('push', (event) => {
  let alert = {}
  try {
    alert = event.data ? event.data.json() : {}
  } catch (error) {
    alert = { body: event.data ? event.data.text() : '' }
  }
  event.waitUntil(
    self.registration.showNotification(alert.title || 'Golf cart alert', {
      body: alert.body || '',
      tag: alert.tag,
      icon: '/favicon.svg',
      data: { url: alert.url },
    }),
  )
})

// Tapped: the cart or the search, on this site only.
self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const wanted = event.notification.data && event.notification.data.url
  const path = typeof wanted === 'string' && wanted.startsWith('/') && !wanted.startsWith('//') ? wanted : '${paths.inventory}'
  event.waitUntil(self.clients.openWindow(new URL(path, self.location.origin).href))
})
`
