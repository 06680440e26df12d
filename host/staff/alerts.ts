import { createTRPCClient, httpLink } from '@trpc/client'
import type { AppRouter } from '../../api/trpc/router.ts'
import { canPush, subscribePush } from '../push-subscription.ts'

/**
 * "Turn on alerts on this phone" (PRODUCT.md, "lead alerts"): asks the browser's permission,
 * registers the console's service worker (`/staff/sw.js`, scope `/staff/`), subscribes to push
 * with the server's VAPID key and gives the subscription to `staff.alerts.subscribe`. The button
 * shows only where the browser can do all that; what happened is said in its status line.
 */
const worker = { path: '/staff/sw.js', scope: '/staff/' }

export function mountAlerts(): void {
  const box = document.querySelector<HTMLElement>('[data-alerts]')
  const button = box?.querySelector<HTMLButtonElement>('[data-alerts-button]')
  const status = box?.querySelector<HTMLElement>('[data-alerts-status]')
  if (!box || !button || !status) return
  if (!canPush()) return
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
      .register(worker.path, { scope: worker.scope })
      .then((registration) => registration.pushManager.getSubscription())
      .then((subscription) => (subscription ? showOn() : showOff()))
      .catch(() => showOff())
  }

  button.addEventListener('click', () => {
    void (async () => {
      button.disabled = true
      try {
        if (button.dataset.on !== undefined) {
          const registration = await navigator.serviceWorker.getRegistration(worker.scope)
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
        const subscription = await subscribePush(worker, async () => (await client.staff.alerts.publicKey.query()).publicKey)
        await client.staff.alerts.subscribe.mutate(subscription)
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
