import { useLocation } from 'wouter'
import { business } from '../../domain/business.ts'
import { paths } from '../../domain/site-paths.ts'
import { InventoryGrid, inventoryQueryInput } from '../../widgets/inventory/inventory-grid.tsx'
import { callPrompt, type PageMeta, useDocumentMeta } from '../meta.ts'
import type { PageProps, Route } from '../page.ts'

/** `/inventory?category=new&page=2`: each page of the inventory has its own address. */
function readQuery(search: URLSearchParams | string) {
  const query = new URLSearchParams(search)
  const page = Number.parseInt(query.get('page') ?? '1', 10)
  return { category: query.get('category') ?? 'all', page: Number.isFinite(page) && page > 1 ? page - 1 : 0 }
}

function inventoryHref(page: number, category: string): string {
  const query = new URLSearchParams()
  if (category && category !== 'all') query.set('category', category)
  if (page > 0) query.set('page', String(page + 1))
  const text = query.toString()
  return text ? `${paths.inventory}?${text}` : paths.inventory
}

const meta = (category: string, page: number): PageMeta => ({
  title: page > 0 ? `Golf Cart Inventory, Page ${page + 1}` : 'Golf Cart Inventory',
  description: `Browse new Evolution and Denago electric golf carts in stock at ${business.name}, with prices, seating and range for every model. ${callPrompt}`,
  keywords: ['golf cart inventory', 'new golf carts for sale NJ', 'Evolution golf carts for sale', 'Denago golf carts for sale'],
  pageType: 'inventory',
  path: inventoryHref(page, category),
})

function InventoryPage({ search }: PageProps) {
  const { category, page } = readQuery(search)
  const [, navigate] = useLocation()
  useDocumentMeta(meta(category, page))
  return (
    <section className="section">
      <div className="container">
        <InventoryGrid
          headingLevel={1}
          category={category}
          page={page}
          vehicleHref={paths.vehicle}
          pageHref={inventoryHref}
          onCategoryChange={(next) => navigate(inventoryHref(0, next), { replace: true })}
        />
      </div>
    </section>
  )
}

export const inventoryRoute: Route = {
  Page: InventoryPage,
  meta: (_context, _params, search) => {
    const { category, page } = readQuery(search ?? '')
    return meta(category, page)
  },
  async prefetch({ queryClient, trpc }, _params, search) {
    const { category, page } = readQuery(search)
    await queryClient.prefetchQuery(trpc.cart.list.queryOptions(inventoryQueryInput(category, page)))
  },
}
