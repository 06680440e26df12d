import { inventoryQueryInput } from '../../widgets/inventory/inventory-grid.tsx'
import { type InventoryIslandProps, inventoryMeta, readInventoryAddress } from '../islands/inventory.tsx'
import { island } from '../islands/island.tsx'
import { useDocumentMeta } from '../meta.ts'
import type { PageProps, Route } from '../page.ts'

function InventoryPage({ search: address }: PageProps) {
  const { search, page } = readInventoryAddress(address)
  useDocumentMeta(inventoryMeta(search, page))
  return (
    <section className="section">
      <div className="container">{island('inventory', { address } satisfies InventoryIslandProps)}</div>
    </section>
  )
}

export const inventoryRoute: Route = {
  Page: InventoryPage,
  meta: (_context, _params, address) => {
    const { search, page } = readInventoryAddress(address ?? '')
    return inventoryMeta(search, page)
  },
  async prefetch({ queryClient, trpc }, _params, address) {
    const { search, page } = readInventoryAddress(address)
    await queryClient.prefetchQuery(trpc.cart.list.queryOptions(inventoryQueryInput(search, page, true)))
  },
}
