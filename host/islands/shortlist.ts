import { readShortlist, shortlistHref, type ShortlistKind, shortlistKinds, shortlistLinkText, shortlistPages } from '../../domain/shortlist.ts'
import { onShortlistChange, setShortlist, shortlist, toggleInShortlist } from '../../widgets/shared/shortlist-store.ts'

/**
 * Compare and Save on the dealer's site (PRODUCT.md, "compare and save"), in plain script: the
 * server renders each card's buttons and the header's links hidden (it has no storage), and this
 * shows them with this browser's lists, toggles a cart on a click, and keeps the lists' pages
 * and their addresses in step: /compare's address is the list (shareable, and a removed cart is
 * a link without it); /saved takes the carts a widget on another site handed over in its
 * address, then shows this browser's list. No React on the page for it.
 */
export function enhanceShortlists(root: HTMLElement): void {
  const here = location.pathname
  const given = readShortlist(here === shortlistPages.compare ? 'compare' : 'saved', new URLSearchParams(location.search).get('carts'))
  if (here === shortlistPages.compare) setShortlist('compare', given)
  if (here === shortlistPages.saved) {
    const kept = shortlist('saved')
    const merged = readShortlist('saved', [...kept, ...given.filter((slug) => !kept.includes(slug))].join(','))
    setShortlist('saved', merged)
    if (merged.join(',') !== given.join(',')) return location.replace(shortlistHref('saved', merged))
  }

  const refresh = () => {
    const lists = { compare: shortlist('compare'), saved: shortlist('saved') }
    for (const actions of root.querySelectorAll<HTMLElement>('[data-shortlist-actions]')) actions.hidden = false
    for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-shortlist]')) {
      button.setAttribute('aria-pressed', String(lists[button.dataset.shortlist as ShortlistKind].includes(button.dataset.slug ?? '')))
    }
    for (const bar of root.querySelectorAll<HTMLElement>('[data-shortlist-bar]')) {
      for (const link of bar.querySelectorAll<HTMLAnchorElement>('a[data-shortlist-link]')) {
        const kind = link.dataset.shortlistLink as ShortlistKind
        link.hidden = lists[kind].length === 0
        link.href = shortlistHref(kind, lists[kind])
        link.textContent = shortlistLinkText(kind, lists[kind].length)
      }
      bar.hidden = shortlistKinds.every((kind) => lists[kind].length === 0)
    }
  }

  root.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-shortlist]')
    if (!button?.dataset.slug) return
    toggleInShortlist(button.dataset.shortlist as ShortlistKind, button.dataset.slug)
  })
  onShortlistChange(() => {
    // The saved page is this browser's list: a cart taken out leaves it (and its address) at once.
    if (location.pathname === shortlistPages.saved && shortlist('saved').join(',') !== readShortlist('saved', new URLSearchParams(location.search).get('carts')).join(',')) {
      location.replace(shortlistHref('saved', shortlist('saved')))
      return
    }
    refresh()
  })
  // The inventory swaps its list in place (host/islands/inventory.ts): new cards, new buttons.
  root.addEventListener('gc-inventory-swapped', refresh)
  refresh()
}
