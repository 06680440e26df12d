import { useQueries } from '@tanstack/react-query'
import { business, showroomByKey } from '../../domain/business.ts'
import { cartSpecifications, statusLabels } from '../../domain/cart-facts.ts'
import { conditionLabel, formatPrice, type GolfCartDetail } from '../../domain/golf-cart.ts'
import { formatMonthly, monthlyFrom } from '../../domain/payment.ts'
import { compareLimit, readShortlist } from '../../domain/shortlist.ts'
import { paths } from '../../domain/site-paths.ts'
import { formatRange, formatSeating, type Specifications } from '../../domain/specifications.ts'
import { useTRPC } from '../../widgets/shared/api.tsx'
import { vehicleQuery } from '../../widgets/vehicle-detail/vehicle-detail.tsx'
import { type PageMeta, useDocumentMeta } from '../meta.ts'
import type { PageProps, Route } from '../page.ts'

const slugsOf = (search: string | URLSearchParams) => readShortlist('compare', new URLSearchParams(search).get('carts'))

const meta: PageMeta = {
  title: 'Compare Golf Carts',
  description: `Up to ${compareLimit} golf carts side by side: price, monthly payment, seats, range, battery and showroom, at ${business.name}.`,
  keywords: ['compare golf carts'],
  pageType: 'compare',
  // A shopper's own list: its canonical address is the page without the list, so the endless
  // `?carts=` variants are one page to a search engine (and none is in the sitemap).
  path: paths.compare,
}

type Row = [label: string, value: (cart: GolfCartDetail, spec: Specifications) => string]

/** What a shopper weighs, in the order they weigh it (PRODUCT.md, "compare and save"). */
const rows: readonly Row[] = [
  ['Price', (cart) => formatPrice(cart.price)],
  ['Monthly', (cart) => `From ${formatMonthly(monthlyFrom(cart.price))}`],
  ['Seats', (_, spec) => formatSeating(spec)],
  ['Range', (_, spec) => `${formatRange(spec.rangeMiles)} miles`],
  ['Battery', (_, spec) => spec.battery],
  ['Top speed', (_, spec) => `${spec.topSpeedMph} mph`],
  ['Charging', (_, spec) => `${formatRange(spec.chargingHours)} hours`],
  ['Payload', (_, spec) => `${spec.payloadLbs.toLocaleString('en-US')} lbs`],
  ['Street legal', (cart) => (cart.streetLegal ? 'Yes' : 'No')],
  ['Condition', (cart) => conditionLabel(cart.category)],
  ['Availability', (cart) => statusLabels[cart.status]],
  ['Showroom', (cart) => showroomByKey(cart.location)?.name ?? ''],
]

/**
 * `/compare?carts=a,b,c`: up to three carts side by side, one column a cart, a real table with a
 * caption, column headers (the carts) and row headers (what is compared), rendered on the server
 * so it works and can be shared without JavaScript. Each column's Remove is a link to the same
 * list without that cart. At 320 px each row's header takes its own line above the carts' values
 * (site.css), so three columns still read without scrolling sideways.
 */
function ComparePage({ search }: PageProps) {
  const slugs = slugsOf(search)
  const trpc = useTRPC()
  const found = useQueries({ queries: slugs.map((slug) => vehicleQuery(trpc, slug)) })
  useDocumentMeta(meta)
  const carts = found.flatMap((query) => (query.data ? [query.data] : []))
  const missing = slugs.length - carts.length
  return (
    <section className="section">
      <div className="container compare">
        <h1 className="page-title">Compare Golf Carts</h1>
        {missing > 0 && (
          <p className="notice" role="status">
            {missing === 1 ? 'One cart of this list is' : `${missing} carts of this list are`} no longer listed and left out.
          </p>
        )}
        {carts.length === 0 ? (
          <p>
            Nothing to compare yet. Choose Compare on up to {compareLimit} carts in the <a href={paths.inventory}>inventory</a>, then
            come back here to see them side by side.
          </p>
        ) : (
          <div className="compare__frame" data-carts={carts.length}>
            <table className="compare-table">
              <caption>
                {carts.length === 1 ? 'One golf cart' : `${carts.length} golf carts`} side by side: price, monthly payment, specifications
                and showroom
              </caption>
              <thead>
                <tr>
                  <td className="compare-table__corner" />
                  {carts.map((cart) => (
                    <th key={cart.id} scope="col">
                      <a href={paths.vehicle(cart.slug)}>{cart.title}</a>
                      <a className="compare-table__remove" href={paths.compareCarts(slugs.filter((s) => s !== cart.slug && carts.some((c) => c.slug === s)))}>
                        Remove<span className="gc-sr-only"> {cart.title}</span>
                      </a>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map(([label, value]) => (
                  <tr key={label}>
                    <th scope="row">{label}</th>
                    {carts.map((cart) => (
                      <td key={cart.id}>{value(cart, cartSpecifications(cart))}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {carts.length > 0 && carts.length < compareLimit && (
          <p>
            <a href={paths.inventory}>Add {carts.length === compareLimit - 1 ? 'one more cart' : 'more carts'} from the inventory</a> (up to{' '}
            {compareLimit}).
          </p>
        )}
      </div>
    </section>
  )
}

export const compareRoute: Route = {
  Page: ComparePage,
  meta: () => meta,
  async prefetch({ queryClient, trpc }, _params, search) {
    await Promise.all(slugsOf(search).map((slug) => queryClient.prefetchQuery(vehicleQuery(trpc, slug))))
  },
}
