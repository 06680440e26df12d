import { type QueryClient, useQuery } from '@tanstack/react-query'
import { Star } from 'lucide-react'
import { business } from '../../domain/business.ts'
import { type ApiOptions, useTRPC } from '../../widgets/shared/api.tsx'

type Claim = 'happyCustomers' | 'yearsExperience' | 'cartsInStock' | 'rating'

const labels: Record<Claim, string> = {
  happyCustomers: 'Happy Customers',
  yearsExperience: 'Years Experience',
  cartsInStock: 'Carts in Stock',
  rating: 'Customer Rating',
}

/**
 * The number of listed carts, from the inventory itself (PRODUCT.md, "honest claims"): one cart's
 * page of the list, for its total. A page showing the count prefetches this.
 */
export const cartsInStockQuery = (trpc: ApiOptions) => trpc.cart.list.queryOptions({ limit: 1 })

/**
 * Loads the count for a page's server render. The count is one tile among the claims: when the
 * database cannot give it (an outage), the page is whole without that tile, and answers 200 as a
 * page that needs no database does, rather than the outage page.
 */
export async function prefetchCartsInStock(queryClient: QueryClient, trpc: ApiOptions): Promise<void> {
  const options = cartsInStockQuery(trpc)
  await queryClient.prefetchQuery(options)
  if (queryClient.getQueryState(options.queryKey)?.status === 'error') queryClient.removeQueries({ queryKey: options.queryKey, exact: true })
}

/**
 * The business's claims as dark tiles (500+ Happy Customers...), on the about and county pages.
 * Carts in Stock is the live count, never a number typed once; the rating shows only with its
 * source and number of reviews (`business.claims.rating`, null until the dealer has one).
 */
export function ClaimStats() {
  const trpc = useTRPC()
  const inStock = useQuery(cartsInStockQuery(trpc)).data?.total
  const { rating } = business.claims
  const claims: Claim[] = ['happyCustomers', 'yearsExperience', ...(inStock ? (['cartsInStock'] as const) : []), ...(rating ? (['rating'] as const) : [])]
  return (
    <dl className="stats">
      {claims.map((claim) => (
        <div key={claim}>
          <dt>{labels[claim]}</dt>
          <dd>{claim === 'rating' ? <Rating /> : claim === 'cartsInStock' ? inStock : business.claims[claim]}</dd>
        </div>
      ))}
    </dl>
  )
}

function Rating() {
  const { rating } = business.claims
  if (!rating) return null
  return (
    <>
      <span aria-hidden="true" className="stars">
        {Array.from({ length: Math.round(rating.stars) }, (_, i) => (
          <Star key={i} size={22} fill="currentColor" />
        ))}
      </span>
      <span className="gc-sr-only">{rating.stars} out of 5 stars</span>
      <a className="stats__source" href={rating.url}>
        {rating.reviews} reviews on {rating.source}
      </a>
    </>
  )
}
