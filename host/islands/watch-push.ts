import { createTRPCClient, httpLink } from '@trpc/client'
import type { AppRouter } from '../../api/trpc/router.ts'
import type { WatchFormSubject } from '../../widgets/shared/watch-form.tsx'
import { subscribePush } from '../push-subscription.ts'
import { remember, remembered, say, showState } from './watch-memory.ts'

/**
 * A price or search alert by Web Push on this browser (PRODUCT.md, "watching a cart or a
 * search"): asks the visitor's permission, registers the shoppers' worker (`/alerts/sw.js`, scope
 * `/alerts/`, apart from the console's), subscribes with the server's VAPID key and gives the
 * subscription to `alert.watchInBrowser`. What this browser watches is remembered here, so the
 * button can offer to stop it.
 */
const worker = { path: '/alerts/sw.js', scope: '/alerts/' }
const client = createTRPCClient<AppRouter>({ links: [httpLink({ url: '/trpc' })] })

const subjectOf = (box: HTMLElement) => JSON.parse(box.dataset.watchPush ?? '{}') as WatchFormSubject

export async function toggle(box: HTMLElement, button: HTMLButtonElement) {
  if (button.disabled) return
  button.disabled = true
  const subject = subjectOf(box)
  try {
    const endpoint = remembered(box)
    if (endpoint) {
      await client.alert.stopInBrowser.mutate({ endpoint, ...subject })
      remember(box, null)
      showState(box)
      say(box, 'Notifications for this alert are off in this browser.')
      return
    }
    const permission = await Notification.requestPermission()
    if (permission !== 'granted') {
      say(box, 'This browser blocks notifications from this site: allow them in its site settings, or use your email above.')
      return
    }
    say(box, 'Turning notifications on…')
    const subscription = await subscribePush(worker, async () => (await client.alert.pushKey.query()).publicKey)
    await client.alert.watchInBrowser.mutate({ subscription, ...subject })
    remember(box, subscription.endpoint)
    showState(box)
    say(box, "Done: this browser will show a notification when it happens. You can stop it here.")
  } catch (error) {
    say(box, `Notifications could not be turned on in this browser: ${error instanceof Error ? error.message : String(error)}. Use your email above instead.`)
  } finally {
    button.disabled = false
  }
}
