import { readCartSearch } from '../../domain/cart-query.ts'
import { paths } from '../../domain/site-paths.ts'

/**
 * `/inventory` in the browser: the page is whole HTML from the server for every search, so the
 * filters, pager and clear-all are links and the words box, prices and sort a GET form. This
 * fetches the next search's page and swaps the inventory region in place instead of loading a
 * whole page: the address bar, Back and Forward and the title follow, the list starts from its
 * top, focus stays on the control the visitor used (after Previous or Next it is on the list's
 * heading, where the new page starts: PRODUCT.md, "paging"), and the result count is announced. Plain
 * script, a few hundred bytes: no React and no API client on the page (issue #31; Lighthouse's
 * blocking time came from hydrating them). Anything unexpected is an ordinary page load.
 */
export function enhanceInventory(region: HTMLElement | null): void {
  if (!region) return
  let inFlight: AbortController | undefined

  const show = async (url: URL, push: boolean, toHeading = false) => {
    inFlight?.abort()
    const request = (inFlight = new AbortController())
    region.setAttribute('aria-busy', 'true')
    try {
      const answer = await fetch(url, { headers: { Accept: 'text/html' }, signal: request.signal })
      const page = new DOMParser().parseFromString(await answer.text(), 'text/html')
      const next = page.querySelector('[data-inventory]')
      if (!next) return location.assign(url.href)
      const focused = toHeading ? undefined : focusKey(document.activeElement, region)
      region.replaceChildren(...[...next.childNodes].map((node) => document.adoptNode(node)))
      document.title = page.title
      // A stale page number was redirected to the last page: the address says where it landed.
      const landed = answer.redirected ? new URL(answer.url) : url
      if (push) history.pushState(null, '', landed.pathname + landed.search)
      // As a new page would: the list from its top.
      window.scrollTo(0, 0)
      if (toHeading) region.querySelector<HTMLElement>('h1')?.focus({ preventScroll: true })
      else restoreFocus(region, focused)
      announce(region)
      region.dispatchEvent(new Event('gc-inventory-swapped', { bubbles: true }))
    } catch (error) {
      if ((error as Error).name !== 'AbortError') location.assign(url.href)
    } finally {
      if (inFlight === request) region.removeAttribute('aria-busy')
    }
  }

  region.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    const anchor = (event.target as Element).closest('a')
    if (!anchor || (anchor.target && anchor.target !== '_self')) return
    const url = new URL(anchor.href, location.href)
    if (url.origin !== location.origin || url.pathname !== paths.inventory) return
    event.preventDefault()
    void show(url, true, anchor.closest('.gc-pager') !== null)
  })

  // The words box, the prices and the sort: the same address the form gives without script,
  // written the one way the site writes it (empty fields dropped, "$15,000" read as 15000).
  region.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement
    if (form.method !== 'get' || new URL(form.action, location.href).pathname !== paths.inventory) return
    event.preventDefault()
    const fields: Record<string, string> = {}
    for (const [name, value] of new FormData(form)) {
      const text = typeof value === 'string' ? value.trim() : ''
      if (text !== '') fields[name] = /price$/i.test(name) ? text.replace(/[$,\s]/g, '') : text
    }
    const { search } = readCartSearch(fields)
    if (search.minPrice !== undefined && search.maxPrice !== undefined && search.minPrice > search.maxPrice) delete search.maxPrice
    void show(new URL(paths.inventorySearch(search), location.href), true)
  })
  region.addEventListener('change', (event) => {
    const select = event.target as HTMLSelectElement
    if (select.name === 'sort') select.form?.requestSubmit()
  })
  addEventListener('popstate', () => {
    if (location.pathname === paths.inventory) void show(new URL(location.href), false)
  })
}

/** Names the focused control by what it is, not by its node, which the swap replaces. */
function focusKey(element: Element | null, region: HTMLElement): string | undefined {
  if (!element || !region.contains(element)) return undefined
  const name = element.getAttribute('name')
  if (name) return `[name="${CSS.escape(name)}"]`
  const label = (element.textContent ?? '').replace(/[\d,()]+/g, '').trim()
  return `${element.localName}:${label}`
}

function restoreFocus(region: HTMLElement, key: string | undefined) {
  if (!key) return
  const byName = key.startsWith('[') ? region.querySelector<HTMLElement>(key) : null
  const [tag, label] = key.split(':')
  const match =
    byName ??
    [...region.querySelectorAll<HTMLElement>(tag ?? 'a')].find((el) => (el.textContent ?? '').replace(/[\d,()]+/g, '').trim() === label)
  ;(match ?? region.querySelector<HTMLElement>('h1'))?.focus({ preventScroll: true })
}

/** A live region that arrives with its text is not read out: the count is written again. */
function announce(region: HTMLElement) {
  const status = region.querySelector('[role="status"]')
  if (!status) return
  const text = status.textContent
  status.textContent = ''
  setTimeout(() => (status.textContent = text), 50)
}
