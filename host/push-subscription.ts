/**
 * Subscribing this browser to Web Push (RFC 8030 and RFC 8292): the staff console's lead alerts
 * (host/staff/alerts.ts, worker `/staff/sw.js`) and shoppers' price alerts (host/islands/watch-push.ts,
 * worker `/alerts/sw.js`) do it the same way, each with its own worker and scope.
 */

/** Whether this browser can take Web Push at all. */
export function canPush(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
}

/** The server's VAPID public key (base64url) as the bytes `subscribe` wants. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=')
  const text = atob(base64)
  const bytes = new Uint8Array(new ArrayBuffer(text.length))
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}

/**
 * How long subscribing may take. A browser that cannot reach its push service (offline, or a
 * Chromium without Google's) never settles the promise: without this a button would say
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
 * that waits for a worker whose scope holds this page, and neither worker's scope holds the pages
 * their buttons are on (the console's home `/staff`, a cart's page), so there `ready` never settles.
 */
export function whenActive(registration: ServiceWorkerRegistration): Promise<void> {
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

/** A subscription as the servers take it (`PushSubscription.toJSON()`, every part present). */
export interface PushSubscriptionJson {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

/**
 * Registers the worker, waits for it, and returns this browser's subscription for the key (the
 * one it has, or a new one). The caller has the visitor's permission already.
 */
export async function subscribePush(worker: { path: string; scope: string }, publicKey: () => Promise<string>): Promise<PushSubscriptionJson> {
  const registration = await navigator.serviceWorker.register(worker.path, { scope: worker.scope })
  await whenActive(registration)
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await answerWithin(
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(await publicKey()) }),
      subscribeWaitMs,
      "the browser's push service did not answer in 30 seconds; check this phone's connection and try again",
    ))
  const { endpoint, keys } = subscription.toJSON()
  return { endpoint: endpoint ?? '', keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' } }
}
