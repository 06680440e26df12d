import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useId, useState } from 'react'
import { categoryLabel, categoryOptions, inventoryPageSize } from '../../domain/golf-cart.ts'
import { describeFailure, useTRPC } from '../shared/api.tsx'
import { CartGrid, CartSkeletonGrid, type HeadingLevel } from '../shared/cart-card.tsx'
import { LoadError } from '../shared/load-error.tsx'

export interface InventoryGridProps {
  /** The category shown first; empty or "all" shows every cart. */
  category?: string
  /** The page shown first, from 0. */
  page?: number
  headingLevel?: 1 | 2
  /**
   * On the dealer's site each page has its own address, so search engines can follow the
   * pager to every cart: Previous and Next become links, and a new category is a navigation.
   * Without it (in an embed) they are buttons.
   */
  pageHref?: (page: number, category: string) => string
  onCategoryChange?: (category: string) => void
  vehicleHref: (slug: string) => string
  /** Returning false stops the navigation to the cart's page (a cancelled `gc-vehicle-select`). */
  onVehicleSelect?: (slug: string) => boolean | void
  onError?: (message: string) => void
}

/** The list call for one page of one category, shared with the server's prefetch. */
export function inventoryQueryInput(category: string | undefined, page: number) {
  return {
    category: !category || category === 'all' ? undefined : category,
    limit: inventoryPageSize,
    offset: page * inventoryPageSize,
  }
}

/** The inventory (docs/PRODUCT.md, "Inventory"): category filter, 24 carts a page, skeletons while loading. */
export function InventoryGrid({ headingLevel = 2, ...props }: InventoryGridProps) {
  const trpc = useTRPC()
  const filterId = useId()
  const [category, setCategory] = useState(props.category || 'all')
  const [page, setPage] = useState(props.page ?? 0)
  useEffect(() => {
    setCategory(props.category || 'all')
    setPage(props.page ?? 0)
  }, [props.category, props.page])

  const query = useQuery({
    ...trpc.cart.list.queryOptions(inventoryQueryInput(category, page)),
    placeholderData: keepPreviousData,
  })
  const { onError } = props
  useEffect(() => {
    if (query.error) onError?.(describeFailure(query.error))
  }, [query.error, onError])

  const Heading = `h${headingLevel}` as const
  const options = categoryOptions.some((o) => o.value === category)
    ? categoryOptions
    : [...categoryOptions, { value: category, label: categoryLabel(category) }]
  const total = query.data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / inventoryPageSize))
  const first = page * inventoryPageSize + 1

  return (
    <section className="gc-inventory" part="inventory" aria-labelledby={`${filterId}-heading`}>
      <div className="gc-inventory__header">
        <Heading id={`${filterId}-heading`} className="gc-heading" part="heading">
          Golf Cart Inventory
        </Heading>
        <div className="gc-field gc-inventory__filter" part="filter field">
          <label htmlFor={filterId}>Category</label>
          <select
            id={filterId}
            className="gc-input"
            part="input"
            value={category}
            onChange={(e) => {
              const next = e.currentTarget.value
              setCategory(next)
              setPage(0)
              props.onCategoryChange?.(next)
            }}
          >
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      <p className="gc-sr-only" role="status">
        {query.isPending
          ? 'Loading golf carts'
          : query.data && total > 0
            ? `Showing ${first} to ${first + query.data.carts.length - 1} of ${total} golf carts`
            : ''}
      </p>

      {query.isPending ? (
        <CartSkeletonGrid count={6} />
      ) : query.isError && !query.data ? (
        <LoadError what="the golf carts" onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : query.data.carts.length === 0 ? (
        <p className="gc-empty" part="empty">
          No golf carts found in this category.
        </p>
      ) : (
        <CartGrid
          carts={query.data.carts}
          vehicleHref={props.vehicleHref}
          headingLevel={(headingLevel + 1) as HeadingLevel}
          eager={page === 0 ? 3 : 0}
          busy={query.isPlaceholderData}
          onSelect={props.onVehicleSelect}
        />
      )}

      {pages > 1 && (
        <nav className="gc-pager" aria-label="Inventory pages" part="pagination">
          <PageStep label="Previous" to={page - 1} enabled={page > 0} href={props.pageHref} category={category} onStep={setPage} />
          <span>
            Page {page + 1} of {pages}
          </span>
          <PageStep label="Next" to={page + 1} enabled={page + 1 < pages} href={props.pageHref} category={category} onStep={setPage} />
        </nav>
      )}
    </section>
  )
}

function PageStep(props: {
  label: string
  to: number
  enabled: boolean
  category: string
  href?: (page: number, category: string) => string
  onStep: (page: number) => void
}) {
  if (props.href) {
    return props.enabled ? (
      <a className="gc-button gc-button--secondary" href={props.href(props.to, props.category)} rel={props.label === 'Next' ? 'next' : 'prev'}>
        {props.label}
      </a>
    ) : (
      <span className="gc-button gc-button--secondary" aria-disabled="true">
        {props.label}
      </span>
    )
  }
  return (
    <button type="button" className="gc-button gc-button--secondary" disabled={!props.enabled} onClick={() => props.onStep(props.to)}>
      {props.label}
    </button>
  )
}
