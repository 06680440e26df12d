import { business } from '../../domain/business.ts'
import { type CartSearch, narrowsBeyondCategory, readCartSearch } from '../../domain/cart-query.ts'
import { inventoryPageSize } from '../../domain/golf-cart.ts'
import { paths } from '../../domain/site-paths.ts'
import { InventoryGrid, inventoryQueryInput } from '../../widgets/inventory/inventory-grid.tsx'
import { WatchForm } from '../../widgets/shared/watch-form.tsx'
import { callPrompt, type PageMeta, useDocumentMeta } from '../meta.ts'
import type { PageProps, Route } from '../page.ts'
import { usePostedForm } from '../form-state.ts'

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

/**
 * The inventory is HTML from the server, whatever the search: every filter, the pager and
 * clear-all are links, and the words box, prices and sort a GET form to this address. In the
 * browser a few lines of plain script (host/islands/inventory.ts) fetch the next search's page
 * and swap this region in place; no React, no API client (issue #31, decision 0014).
 */
function InventoryPage({ search: address }: PageProps) {
  const { search, issues, page } = readInventoryAddress(address)
  useDocumentMeta(inventoryMeta(search, page))
  // "Tell me about new carts like these" posted without JavaScript: refused (the page again) or sent.
  const posted = usePostedForm()?.watch ?? (new URLSearchParams(address).get('watch') === 'sent' ? { sent: true } : undefined)
  return (
    <section className="section">
      <div className="container" data-inventory="">
        <InventoryGrid
          headingLevel={1}
          search={search}
          page={page}
          ignored={issues}
          vehicleHref={paths.vehicle}
          searchHref={paths.inventorySearch}
          formAction={paths.inventory}
          privacyHref={paths.privacy}
          watch={{ action: paths.inventorySearch(search, page), posted, push: true }}
          watchForm={WatchForm}
        />
      </div>
    </section>
  )
}

export const inventoryRoute: Route = {
  Page: InventoryPage,
  meta: (_context, _params, address) => {
    const { search, page } = readInventoryAddress(address ?? '')
    return inventoryMeta(search, page)
  },
  /**
   * A page number past the last (a bookmark, a search engine's old link, carts sold since) goes
   * to the last page, or the first when nothing matches (PRODUCT.md, "paging"): never "Page 9 of
   * 5". Found (302), not moved: the last page moves as carts come and go.
   */
  async prefetch({ queryClient, trpc }, _params, address) {
    const { search, page } = readInventoryAddress(address)
    const options = trpc.cart.list.queryOptions(inventoryQueryInput(search, page, true))
    await queryClient.prefetchQuery(options)
    const found = queryClient.getQueryData(options.queryKey)
    if (page > 0 && found && page * inventoryPageSize >= found.total) {
      const last = Math.max(0, Math.ceil(found.total / inventoryPageSize) - 1)
      return { status: 302, redirect: paths.inventorySearch(search, last), query: 'own' }
    }
  },
}
