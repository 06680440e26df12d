import { business } from '../../domain/business.ts'
import { InventoryGrid, inventoryQueryInput } from '../../widgets/inventory/inventory-grid.tsx'
import { callPrompt, useDocumentMeta } from '../meta.ts'
import { exact, type Route } from '../page.ts'
import { paths } from '../paths.ts'

const meta = () => ({
  title: 'Golf Cart Inventory',
  description: `Browse new Evolution and Denago electric golf carts in stock at ${business.name}, with prices, seating and range for every model. ${callPrompt}`,
  keywords: ['golf cart inventory', 'new golf carts for sale NJ', 'Evolution golf carts for sale', 'Denago golf carts for sale'],
  pageType: 'inventory' as const,
  path: paths.inventory,
})

function InventoryPage() {
  useDocumentMeta(meta())
  return (
    <section className="section">
      <div className="container">
        <InventoryGrid headingLevel={1} vehicleHref={paths.vehicle} />
      </div>
    </section>
  )
}

export const inventoryRoute: Route = {
  name: 'inventory',
  match: exact(paths.inventory),
  Page: InventoryPage,
  meta,
  async prefetch({ queryClient, trpc }) {
    await queryClient.prefetchQuery(trpc.cart.list.queryOptions(inventoryQueryInput(undefined, 0)))
  },
}
