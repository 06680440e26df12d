import { useEffect, useState } from 'react'
import { business } from '../../domain/business.ts'
import { type CartSearch, narrowsBeyondCategory, readCartSearch } from '../../domain/cart-query.ts'
import { paths } from '../../domain/site-paths.ts'
import { InventoryGrid } from '../../widgets/inventory/inventory-grid.tsx'
import { callPrompt, type PageMeta, useDocumentMeta } from '../meta.ts'

/**
 * `/inventory?make=denago&seats=6&sort=price-asc&page=2`: every search and page of the inventory
 * has its own address (PRODUCT.md, "search"). Values that are not understood are left out and
 * named on the page; the rest of the search still applies.
 */
export function readInventoryAddress(search: URLSearchParams | string) {
  const query = new URLSearchParams(search)
  const fields = Object.fromEntries([...query.keys()].map((key) => [key, query.getAll(key).join(',')]))
  const read = readCartSearch(fields)
  const page = Number.parseInt(query.get('page') ?? '1', 10)
  return { ...read, page: Number.isFinite(page) && page > 1 ? page - 1 : 0 }
}

/**
 * Search engines are pointed at the unfiltered inventory (or SPEC's category, and its pages):
 * the thousands of filter combinations are for visitors, not near-duplicates to index.
 */
function canonicalPath(search: CartSearch, page: number): string {
  if (narrowsBeyondCategory(search)) return paths.inventory
  return paths.inventorySearch({ category: search.category }, page)
}

export const inventoryMeta = (search: CartSearch, page: number): PageMeta => ({
  title: page > 0 ? `Golf Cart Inventory, Page ${page + 1}` : 'Golf Cart Inventory',
  description: `Browse new Evolution and Denago electric golf carts in stock at ${business.name}, with prices, seating and range for every model. ${callPrompt}`,
  keywords: ['golf cart inventory', 'new golf carts for sale NJ', 'Evolution golf carts for sale', 'Denago golf carts for sale'],
  pageType: 'inventory',
  path: canonicalPath(search, page),
})

export interface InventoryIslandProps {
  /** The query string the page was rendered for, without "?". */
  address: string
}

/**
 * The inventory's island: the filters, the words box, the sort and the pager change the list in
 * place. Each search still has its own address: a filter link or the pager changes the list and
 * the address bar (history.pushState), Back and Forward show the search of their address, and
 * the title follows. Without JavaScript every one of them is a link or a GET form to the same
 * address, rendered by the server. Links anywhere else are ordinary page loads.
 */
export function InventoryIsland(props: InventoryIslandProps) {
  const [address, setAddress] = useState(props.address)
  const { search, issues, page } = readInventoryAddress(address)
  useDocumentMeta(inventoryMeta(search, page))

  useEffect(() => {
    const show = (next: string) => {
      setAddress(next)
      // As a new page would: the list from its top; focus stays where the visitor is.
      window.scrollTo(0, 0)
    }
    const onPopState = () => setAddress(location.search.replace(/^\?/, ''))
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const anchor = (event.target as Element | null)?.closest?.('a')
      if (!anchor?.closest('[data-island="inventory"]') || (anchor.target && anchor.target !== '_self')) return
      const url = new URL(anchor.href, location.href)
      if (url.origin !== location.origin || url.pathname !== paths.inventory) return
      event.preventDefault()
      history.pushState(null, '', url.pathname + url.search)
      show(url.search.replace(/^\?/, ''))
    }
    addEventListener('popstate', onPopState)
    document.addEventListener('click', onClick)
    return () => {
      removeEventListener('popstate', onPopState)
      document.removeEventListener('click', onClick)
    }
  }, [])

  return (
    <InventoryGrid
      headingLevel={1}
      search={search}
      page={page}
      ignored={issues}
      vehicleHref={paths.vehicle}
      searchHref={paths.inventorySearch}
      formAction={paths.inventory}
      onSearchChange={(next, nextPage) => {
        const to = paths.inventorySearch(next, nextPage)
        history.pushState(null, '', to)
        setAddress(new URL(to, location.href).search.replace(/^\?/, ''))
        window.scrollTo(0, 0)
      }}
    />
  )
}
