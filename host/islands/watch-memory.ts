/**
 * What this browser watches by Web Push, kept in it by the alert's subject (the endpoint it
 * watches with), and the button and status line that say so (host/islands/watch.ts).
 */
const memoryKey = (box: HTMLElement) => `gc-watch:${box.dataset.watchPush ?? ''}`

export function remembered(box: HTMLElement): string | null {
  try {
    return localStorage.getItem(memoryKey(box))
  } catch {
    return null
  }
}

export function remember(box: HTMLElement, endpoint: string | null) {
  try {
    if (endpoint) localStorage.setItem(memoryKey(box), endpoint)
    else localStorage.removeItem(memoryKey(box))
  } catch {
    // Not kept: the button offers to turn it on again next time, which keeps the one watch.
  }
}

export function say(box: HTMLElement, text: string) {
  const status = box.querySelector<HTMLElement>('[data-watch-push-status]')
  if (status) status.textContent = text
}

/** The button as this browser's watch stands: on (offer to stop) or off. */
export function showState(box: HTMLElement) {
  const button = box.querySelector<HTMLButtonElement>('[data-watch-push-button]')
  if (!button) return
  const on = remembered(box) !== null
  button.textContent = on ? 'Stop notifications in this browser' : 'Notify me in this browser instead'
  button.toggleAttribute('data-on', on)
}

