import { type IslandStart, islandNeeds, isIslandName } from './islands.ts'

/** What tells that the shopper reaches for a form: focus (keyboard or tap), a press, typing (autofill included). */
const reachEvents = ['focusin', 'pointerdown', 'touchstart', 'input'] as const

/**
 * Starts the page's islands (docs/decisions/0014-islands.md): each one now, or, as islands.ts
 * says (`starts`), when the shopper first reaches for it or when it scrolls into view. Loading
 * React and a form's code (its zod schemas included) and hydrating it is the longest work a page
 * does (docs/BENCHMARKS.md, "Lighthouse, mobile"); a shopper who only reads the page never pays it.
 * Resolves when the islands that start now are hydrated and the others wait for the shopper:
 * the page is interactive. Each island's element gets `data-hydrated` once it is hydrated.
 * Plain script: nothing of React loads before an island needs it.
 */
export async function startIslands(elements: readonly HTMLElement[]): Promise<void> {
  let runtime: Promise<typeof import('./client.tsx')> | undefined
  const hydrate = (element: HTMLElement, index: number) => async () => {
    await (await (runtime ??= import('./client.tsx'))).hydrateIsland(element, index)
    element.setAttribute('data-hydrated', '')
  }
  const now: Promise<void>[] = []
  elements.forEach((element, index) => {
    const name = element.dataset.island ?? ''
    const starts = isIslandName(name) ? islandNeeds[name].starts : undefined
    if (starts) hydrateLater(element, starts, hydrate(element, index))
    else now.push(hydrate(element, index)())
  })
  await Promise.all(now)
}

/**
 * Hydrates `element` on the shopper's first reach into it, when it comes near the screen for
 * `seen`, or at once on a page opened at it (its address names it or the part around it). A form
 * sent before it has hydrated (Send pressed first, or Enter while its code loads) waits for it
 * and is then sent through the island, which checks it in the page as it always did; if the
 * island's code fails to load, it is sent as the server's form, so a message is never lost to a
 * failed script.
 */
function hydrateLater(element: HTMLElement, starts: IslandStart, hydrate: () => Promise<void>): void {
  let hydrating: Promise<void> | undefined
  let settled = false
  const start = () => {
    hydrating ??= hydrate().finally(() => (settled = true))
    return hydrating
  }
  const target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null
  if (target && (target.contains(element) || element.contains(target))) void start()
  for (const type of reachEvents) element.addEventListener(type, () => void start(), { capture: true, once: true, passive: true })
  if (starts === 'seen') {
    // A screen ahead, so it is hydrated by the time the shopper's finger gets there.
    const seen = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return
        seen.disconnect()
        void start()
      },
      { rootMargin: '100% 0px' },
    )
    // The marker takes no box of its own (`display: contents`): its part's elements are watched,
    // but not the toasts' region, which is fixed to the screen and so always in view.
    for (const part of element.children) if (getComputedStyle(part).position !== 'fixed') seen.observe(part)
  }
  element.addEventListener(
    'submit',
    (event) => {
      if (settled) return
      event.preventDefault()
      // Not to the island's own handler either, should its hydration have begun: it gets the send again.
      event.stopImmediatePropagation()
      const form = event.target as HTMLFormElement
      const submitter = event.submitter
      const again = () => form.requestSubmit(submitter)
      start().then(again, again)
    },
    { capture: true },
  )
}
