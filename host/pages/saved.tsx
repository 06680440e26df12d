import { useQueries } from '@tanstack/react-query'
import { business } from '../../domain/business.ts'
import { readShortlist } from '../../domain/shortlist.ts'
import { paths } from '../../domain/site-paths.ts'
import { useTRPC } from '../../widgets/shared/api.tsx'
import { CartGrid } from '../../widgets/shared/cart-card.tsx'
import { vehicleQuery } from '../../widgets/vehicle-detail/vehicle-detail.tsx'
import { type PageMeta, useDocumentMeta } from '../meta.ts'
import type { PageProps, Route } from '../page.ts'

const slugsOf = (search: string | URLSearchParams) => readShortlist('saved', new URLSearchParams(search).get('carts'))

const meta: PageMeta = {
  title: 'Saved Golf Carts',
  description: `The golf carts you saved at ${business.name}, kept in this browser.`,
  keywords: ['saved golf carts'],
  pageType: 'saved',
  // As /compare's: one canonical page, whatever list the address carries.
  path: paths.saved,
}

/**
 * `/saved`: the carts this browser saved (PRODUCT.md, "compare and save"). No account and no
 * cookie: the list lives in local storage, which the server cannot read, so the page's script
 * (host/islands/shortlist.ts) opens `/saved?carts=a,b` with it and the server renders those cards.
 * A widget on another site hands its saved carts over the same way.
 */
function SavedPage({ search }: PageProps) {
  const slugs = slugsOf(search)
  const trpc = useTRPC()
  const found = useQueries({ queries: slugs.map((slug) => vehicleQuery(trpc, slug)) })
  useDocumentMeta(meta)
  const carts = found.flatMap((query) => (query.data ? [query.data] : []))
  return (
    <section className="section">
      <div className="container">
        <h1 className="page-title">Saved Golf Carts</h1>
        <p className="saved__note">Kept in this browser only: no account, nothing sent to us until you ask for a quote.</p>
        {carts.length === 0 ? (
          <p>
            No saved carts yet. Choose Save on any cart in the <a href={paths.inventory}>inventory</a> and it is kept here.
          </p>
        ) : (
          <CartGrid carts={carts} vehicleHref={paths.vehicle} headingLevel={2} />
        )}
      </div>
    </section>
  )
}

export const savedRoute: Route = {
  Page: SavedPage,
  meta: () => meta,
  async prefetch({ queryClient, trpc }, _params, search) {
    await Promise.all(slugsOf(search).map((slug) => queryClient.prefetchQuery(vehicleQuery(trpc, slug))))
  },
}
