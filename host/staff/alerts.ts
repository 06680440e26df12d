import { createTRPCClient, httpLink } from '@trpc/client'
import type { AppRouter } from '../../api/trpc/router.ts'

/**
 * "Turn on alerts on this phone" (PRODUCT.md, "lead alerts"): asks the browser's permission,
 * registers the console's service worker (`/staff/sw.js`, scope `/staff/`), subscribes to push
 * with the server's VAPID key and gives the subscription to `staff.alerts.subscribe`. The button
 * shows only where the browser can do all that; what happened is said in its status line.
 */
const workerPath = '/staff/sw.js'

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=')
  const text = atob(base64)
  const bytes = new Uint8Array(new ArrayBuffer(text.length))
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}

/**
 * How long subscribing may take. A browser that cannot reach its push service (offline, or a
 * Chromium without Google's) never settles the promise: without this the button would say
 * "Turning alerts on…" for ever.
 */
const subscribeWaitMs = 30_000

function answerWithin<T>(promise: Promise<T>, ms: number, why: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(why)), ms)))
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/**
 * Waits for the worker to be active, which subscribing needs. Not `navigator.serviceWorker.ready`:
 * that waits for a worker whose scope holds this page, and the console's home, `/staff`, is
 * outside `/staff/`, so on it `ready` never settles.
 */
function whenActive(registration: ServiceWorkerRegistration): Promise<void> {
  if (registration.active) return Promise.resolve()
  const worker = registration.installing ?? registration.waiting
  return new Promise((resolve, reject) => {
    if (!worker) return reject(new Error('the service worker did not install'))
    worker.addEventListener('statechange', () => {
      if (worker.state === 'activated') resolve()
      if (worker.state === 'redundant') reject(new Error('the service worker did not install'))
    })
  })
}

export function mountAlerts(): void {
  const box = document.querySelector<HTMLElement>('[data-alerts]')
  const button = box?.querySelector<HTMLButtonElement>('[data-alerts-button]')
  const status = box?.querySelector<HTMLElement>('[data-alerts-status]')
  if (!box || !button || !status) return
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return
  box.hidden = false
  const client = createTRPCClient<AppRouter>({ links: [httpLink({ url: '/trpc' })] })
  const say = (text: string) => (status.textContent = text)

  const showOn = () => {
    button.textContent = 'Alerts are on: turn off on this phone'
    button.dataset.on = ''
  }
  const showOff = () => {
    button.textContent = 'Turn on alerts on this phone'
    delete button.dataset.on
  }

  // Already on here: keep the worker current and say so.
  if (Notification.permission === 'granted') {
    void navigator.serviceWorker
      .register(workerPath, { scope: '/staff/' })
      .then((registration) => registration.pushManager.getSubscription())
      .then((subscription) => (subscription ? showOn() : showOff()))
      .catch(() => showOff())
  }

  button.addEventListener('click', () => {
    void (async () => {
      button.disabled = true
      try {
        if (button.dataset.on !== undefined) {
          const registration = await navigator.serviceWorker.getRegistration('/staff/')
          const subscription = await registration?.pushManager.getSubscription()
          if (subscription) {
            await client.staff.alerts.unsubscribe.mutate({ endpoint: subscription.endpoint })
            await subscription.unsubscribe()
          }
          showOff()
          say('Alerts are off on this phone.')
          return
        }
        const permission = await Notification.requestPermission()
        if (permission !== 'granted') {
          say('This browser blocks notifications from the console: allow them in its site settings, then try again.')
          return
        }
        say('Turning alerts on…')
        const registration = await navigator.serviceWorker.register(workerPath, { scope: '/staff/' })
        await whenActive(registration)
        const { publicKey } = await client.staff.alerts.publicKey.query()
        const subscription =
          (await registration.pushManager.getSubscription()) ??
          (await answerWithin(
            registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }),
            subscribeWaitMs,
            "the browser's push service did not answer in 30 seconds; check this phone's connection and try again",
          ))
        const { endpoint, keys } = subscription.toJSON()
        await client.staff.alerts.subscribe.mutate({ endpoint: endpoint ?? '', keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' } })
        showOn()
        say('Alerts are on: new leads for you show on this phone within seconds.')
      } catch (error) {
        say(`Alerts could not be turned on in this browser: ${error instanceof Error ? error.message : String(error)}`)
      } finally {
        button.disabled = false
      }
    })()
  })
}
