import { enhanceMenu } from './islands/menu.ts'
import { enhanceShortlists } from './islands/shortlist.ts'
import './styles/index.ts'

/**
 * The browser's part of every page (docs/decisions/0014-islands.md): the menu button, Compare and
 * Save (a few hundred bytes of plain script: host/islands/shortlist.ts), then the
 * page's islands, if it has any (their plain starter, host/islands/reach.ts, loads only then; React
 * and each island's code when the island starts, a form's when the shopper reaches for it), on /inventory
 * the plain script that searches in place, and where a price alert is offered, its Web Push button. Links are
 * ordinary links: each page comes whole from the server.
 */
const root = document.getElementById('root')!
enhanceMenu(root.querySelector('.site-header'))
enhanceShortlists(root)
focusMainAfterLink()
const islands = [...root.querySelectorAll<HTMLElement>('[data-island]')]
const inventory = root.querySelector<HTMLElement>('[data-inventory]')
const watches = root.querySelector('[data-watch-push]')
const hydrated = Promise.all([
  islands.length > 0 ? import('./islands/reach.ts').then((m) => m.startIslands(islands)) : undefined,
  inventory ? import('./islands/inventory.ts').then((m) => m.enhanceInventory(inventory)) : undefined,
  watches ? import('./islands/watch.ts').then((m) => m.enhanceWatches(root)) : undefined,
])
// Lets tests and monitoring know the page is interactive: its islands hydrated, or the forms
// that hydrate when the shopper reaches for them ready to (host/islands/reach.ts).
void hydrated.then(() => root.setAttribute('data-hydrated', ''))

/**
 * A page opened from a link on another page of the site starts at its main content
 * (docs/PRODUCT.md), so keyboard and screen reader users do not go through the header again;
 * unless the link named a part of the page, or the visitor has already moved focus.
 */
function focusMainAfterLink() {
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
  const fromSite = document.referrer !== '' && new URL(document.referrer).origin === location.origin
  if (navigation?.type !== 'navigate' || !fromSite || location.hash || document.activeElement !== document.body) return
  document.getElementById('main')?.focus({ preventScroll: true })
}
