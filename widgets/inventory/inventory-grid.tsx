import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { type ComponentType, useEffect, useId, useRef, useState } from 'react'
import { type CartSearch, type CartSearchField, cartSearchParams, narrowsBeyondCategory, type SearchIssue } from '../../domain/cart-query.ts'
import { inventoryPageSize } from '../../domain/golf-cart.ts'
import { describeFailure, useTRPC } from '../shared/api.tsx'
import { CartGrid, CartSkeletonGrid, type HeadingLevel } from '../shared/cart-card.tsx'
import { LoadError } from '../shared/load-error.tsx'
import { countActive, InventoryFilters } from './inventory-filters.tsx'
import { searchKey, watchedSearch, watchWords } from '../../domain/cart-alerts.ts'
import type { PostedWatch, WatchFormProps } from '../shared/watch-box.tsx'
import type { ShortlistKind } from '../../domain/shortlist.ts'
import { ShortlistLinks } from '../shared/shortlist-buttons.tsx'

export interface InventoryGridProps {
  /** The search shown first (domain/cart-query.ts); on the site, the address's. */
  search?: CartSearch
  /** The page shown first, from 0. */
  page?: number
  /** Fields a partner fixed with attributes: kept whatever the visitor does, and not offered. */
  locked?: readonly CartSearchField[]
  /** The filter panel; shown unless false. */
  filters?: boolean
  /** Its choices built only once it is shown (an embed's: `InventoryFiltersProps.whenShown`). */
  filtersWhenShown?: boolean
  /** Values of the address that were not understood and left out, said once above the list. */
  ignored?: readonly SearchIssue[]
  headingLevel?: 1 | 2
  /**
   * On the dealer's site each search and page has its own address, so every filter, the pager
   * and clear-all are links that work without JavaScript and that search engines can follow.
   * Without it (in an embed) they are buttons.
   */
  searchHref?: (search: CartSearch, page: number) => string
  /** Where the search form goes without JavaScript: the page's own path. */
  formAction?: string
  /** Told of every new search or page (the site navigates; an embed remembers it). */
  onSearchChange?: (search: CartSearch, page: number) => void
  vehicleHref: (slug: string) => string
  /** The privacy policy, which says what a search alert's address is used for. */
  privacyHref: string
  /** "Tell me about new carts like these": how its form is sent (widgets/shared/watch-form.tsx). */
  watch?: { action?: string; posted?: PostedWatch; push?: boolean; checkOrigin?: boolean }
  /**
   * Its box: `WatchForm` where the server renders the page (the form is there without
   * JavaScript), `WatchFormOnOpen` (widgets/shared/watch-on-open.tsx) in an embed (its code fetched when the shopper opens it).
   */
  watchForm: ComponentType<WatchFormProps>
  /** Returning false stops the navigation to the cart's page (a cancelled `gc-vehicle-select`). */
  onVehicleSelect?: (slug: string) => boolean | void
  /** In an embed: where the shopper's compare and saved lists open (the dealer's site has them in its header). */
  shortlistHref?: (kind: ShortlistKind, slugs: readonly string[]) => string
  onError?: (message: string) => void
}

/** The list call for one page of one search, shared with the server's prefetch. */
export function inventoryQueryInput(search: CartSearch, page: number, facets: boolean) {
  return {
    ...search,
    limit: inventoryPageSize,
    offset: page * inventoryPageSize,
    ...(facets ? { facets: true } : {}),
  }
}

/**
 * The inventory (docs/PRODUCT.md, "Inventory" and "search"): filters with their counts, the
 * words box, the sort, the number of results, clear-all, 24 carts a page, skeletons while loading.
 */
export function InventoryGrid({ headingLevel = 2, ...props }: InventoryGridProps) {
  const trpc = useTRPC()
  const id = useId()
  const given = props.search ?? {}
  const givenPage = props.page ?? 0
  // The search is compared by its address, not by the object's identity.
  const givenKey = `${cartSearchParams(given).toString()}#${givenPage}`
  const [state, setState] = useState({ search: given, page: givenPage, givenKey })
  // Another search or page given from outside replaces the visitor's. Taken while rendering, not
  // in an effect, which would render the whole grid a second time as it first appears.
  let current = state
  if (state.givenKey !== givenKey) {
    current = { search: given, page: givenPage, givenKey }
    setState(current)
  }
  const { search, page } = current
  const locked = new Set(props.locked ?? [])
  const showFilters = props.filters !== false

  const query = useQuery({
    ...trpc.cart.list.queryOptions(inventoryQueryInput(search, page, showFilters)),
    placeholderData: keepPreviousData,
  })
  const { onError } = props
  useEffect(() => {
    if (query.error) onError?.(describeFailure(query.error))
  }, [query.error, onError])

  const top = useRef<HTMLElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const change = (next: CartSearch, nextPage = 0) => {
    setState({ search: next, page: nextPage, givenKey })
    props.onSearchChange?.(next, nextPage)
    // In an embed the partner's page does not reload: a new page of carts starts at the list's
    // top, as the dealer's own /inventory does. The list is brought into view only when its top
    // has scrolled out of sight, so a partner page whose list is already in view does not move,
    // and focus goes to the heading so the next Tab starts from the top of the new page.
    if (!props.searchHref && nextPage !== page) bringTopIntoView(top.current, heading.current)
  }
  /** Clear-all keeps what a partner fixed. */
  const cleared = Object.fromEntries(Object.entries(search).filter(([field]) => locked.has(field as CartSearchField))) as CartSearch
  const Heading = `h${headingLevel}` as const
  const total = query.data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / inventoryPageSize))
  const first = page * inventoryPageSize + 1
  const chosen = countActive(search, locked)
  const href = props.searchHref ? (next: CartSearch) => props.searchHref!(next, 0) : undefined
  // Nothing arrived: the error says so once; "No golf carts match" would be a second, wrong message.
  const failed = query.isError && !query.data
  const watched = watchedSearch(search)
  const WatchForm = props.watchForm

  return (
    <section ref={top} className="gc-inventory" part="inventory" aria-labelledby={`${id}-heading`}>
      <div className="gc-inventory__header">
        <Heading ref={heading} id={`${id}-heading`} className="gc-heading" part="heading" tabIndex={-1}>
          Golf Cart Inventory
        </Heading>
      </div>
      {props.ignored && props.ignored.length > 0 && (
        <p className="gc-inventory__notice" part="notice">
          Some of this address was not understood and is left out: {props.ignored.map((i) => i.message).join('; ')}.
        </p>
      )}
      <div className={showFilters ? 'gc-inventory__layout' : undefined}>
        {showFilters && (
          <InventoryFilters
            id={id}
            search={search}
            facets={query.data?.facets}
            locked={locked}
            href={href}
            action={props.formAction}
            whenShown={props.filtersWhenShown}
            onChange={(next) => change(next)}
          />
        )}
        <div className="gc-inventory__results">
          <div className="gc-inventory__summary" part="summary">
            <p role="status" className="gc-inventory__count">
              {query.isPending
                ? 'Loading golf carts'
                : failed
                  ? ''
                  : total === 0
                  ? 'No golf carts match'
                  : `${total} golf ${total === 1 ? 'cart' : 'carts'}${pages > 1 ? `, ${first} to ${first + (query.data?.carts.length ?? 0) - 1} shown` : ''}`}
            </p>
            {chosen > 0 &&
              (href ? (
                <a className="gc-inventory__clear" href={href(cleared)}>
                  Clear all filters
                </a>
              ) : (
                <button type="button" className="gc-inventory__clear" onClick={() => change(cleared)}>
                  Clear all filters
                </button>
              ))}
          </div>
          {props.shortlistHref && <ShortlistLinks href={props.shortlistHref} />}
          {/* Keyed by the search: another search starts a fresh form, not "check your email". */}
          <WatchForm
            key={searchKey(watched)}
            subject={{ query: watched }}
            label={watchWords.search}
            promise="When a new cart that matches these filters is listed, we'll tell you: one message a day at most, listing each."
            privacyHref={props.privacyHref}
            {...props.watch}
          />

          {query.isPending ? (
            <CartSkeletonGrid count={6} />
          ) : failed ? (
            <LoadError what="the golf carts" onRetry={() => void query.refetch()} retrying={query.isFetching} />
          ) : query.data.carts.length === 0 ? (
            <p className="gc-empty" part="empty">
              {emptyMessage(search)}
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
              <PageStep label="Previous" to={page - 1} enabled={page > 0} href={props.searchHref && ((p) => props.searchHref!(search, p))} onStep={(p) => change(search, p)} />
              <span>
                Page {page + 1} of {pages}
              </span>
              <PageStep label="Next" to={page + 1} enabled={page + 1 < pages} href={props.searchHref && ((p) => props.searchHref!(search, p))} onStep={(p) => change(search, p)} />
            </nav>
          )}
        </div>
      </div>
    </section>
  )
}

/**
 * SPEC's sentence when a category has nothing; any other search that finds nothing is not "in
 * this category" (there may be none chosen).
 */
function emptyMessage(search: CartSearch): string {
  const category = search.category !== undefined && search.category !== 'all'
  return category && !narrowsBeyondCategory(search) ? 'No golf carts found in this category.' : 'No golf carts match this search.'
}

/** Scrolls the list's top into view when it is above the viewport, and focuses its heading. */
function bringTopIntoView(top: HTMLElement | null, heading: HTMLElement | null) {
  if (!top) return
  if (top.getBoundingClientRect().top < 0) top.scrollIntoView({ block: 'start' })
  heading?.focus({ preventScroll: true })
}

function PageStep(props: {
  label: string
  to: number
  enabled: boolean
  href?: (page: number) => string
  onStep: (page: number) => void
}) {
  if (props.href) {
    return props.enabled ? (
      <a className="gc-button gc-button--secondary" href={props.href(props.to)} rel={props.label === 'Next' ? 'next' : 'prev'}>
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
