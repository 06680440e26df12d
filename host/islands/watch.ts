import { canPush } from '../push-subscription.ts'
import { showState } from './watch-memory.ts'

/**
 * "Notify me in this browser instead" beside a price or search alert's email form
 * (widgets/shared/watch-form.tsx), on the dealer's own pages: shown only where the browser can
 * take Web Push (a class on the document, so the inventory's swapped-in regions show it too), and
 * handled by one listener for the whole page. The work (the API client, the service worker) loads
 * with the first click. Plain script: the pages it runs on hydrate no React for it.
 */
export function enhanceWatches(root: HTMLElement): void {
  if (!canPush() || Notification.permission === 'denied') return
  document.documentElement.classList.add('gc-can-push')
  const boxes = () => [...root.querySelectorAll<HTMLElement>('[data-watch-push]')]
  const load = () => import('./watch-push.ts')
  // Where this browser already watches, the button offers to stop.
  boxes().forEach(showState)
  // A panel opened after the inventory swapped its region in: its box shows its state too.
  root.addEventListener(
    'toggle',
    (event) => {
      const box = (event.target as Element).querySelector?.<HTMLElement>('[data-watch-push]')
      if (box) showState(box)
    },
    true,
  )
  root.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('[data-watch-push-button]')
    const box = button?.closest<HTMLElement>('[data-watch-push]')
    if (!button || !box) return
    void load().then((push) => push.toggle(box, button))
  })
}
