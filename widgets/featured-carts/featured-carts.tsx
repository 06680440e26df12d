import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { featuredCount } from '../../domain/golf-cart.ts'
import { describeFailure, useTRPC } from '../shared/api.tsx'
import { CartGrid, CartSkeletonGrid, type HeadingLevel } from '../shared/cart-card.tsx'
import { LoadError } from '../shared/load-error.tsx'
import type { ShortlistKind } from '../../domain/shortlist.ts'
import { ShortlistLinks } from '../shared/shortlist-buttons.tsx'

export interface FeaturedCartsProps {
  /** How many featured carts to show (3 by default). */
  limit?: number
  /** "Featured Golf Carts", or "Featured Golf Carts in Ocean" on a county page. */
  title?: string
  headingLevel?: 2 | 3
  vehicleHref: (slug: string) => string
  /** When given, a "View Full Inventory" link follows the cards. */
  inventoryHref?: string
  /** Returning false stops the navigation to the cart's page (a cancelled `gc-vehicle-select`). */
  onVehicleSelect?: (slug: string) => boolean | void
  /** In an embed: where the shopper's compare and saved lists open (the dealer's site has them in its header). */
  shortlistHref?: (kind: ShortlistKind, slugs: readonly string[]) => string
  onError?: (message: string) => void
}

export function featuredQueryInput(limit: number = featuredCount) {
  return { limit }
}

export function FeaturedCarts({ limit = featuredCount, title = 'Featured Golf Carts', headingLevel = 2, ...props }: FeaturedCartsProps) {
  const trpc = useTRPC()
  const query = useQuery(trpc.cart.featured.queryOptions(featuredQueryInput(limit)))
  const { onError } = props
  useEffect(() => {
    if (query.error) onError?.(describeFailure(query.error))
  }, [query.error, onError])
  const Heading = `h${headingLevel}` as const

  return (
    <section className="gc-featured" part="featured">
      <Heading className="gc-heading" part="heading">
        {title}
      </Heading>
      {query.isPending ? (
        <CartSkeletonGrid count={limit}>
          <p className="gc-sr-only" role="status">
            Loading featured golf carts
          </p>
        </CartSkeletonGrid>
      ) : query.isError ? (
        <LoadError what="the featured golf carts" onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : (
        <CartGrid
          carts={query.data.slice(0, limit)}
          vehicleHref={props.vehicleHref}
          headingLevel={(headingLevel + 1) as HeadingLevel}
          onSelect={props.onVehicleSelect}
        />
      )}
      {props.shortlistHref && <ShortlistLinks href={props.shortlistHref} />}
      {props.inventoryHref && (
        <p className="gc-featured__more">
          <a className="gc-button gc-button--secondary" part="button" href={props.inventoryHref}>
            View Full Inventory
          </a>
        </p>
      )}
    </section>
  )
}
