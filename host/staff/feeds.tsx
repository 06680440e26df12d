import { staffPaths } from '../../domain/staff-paths.ts'
import { StaffTable } from './staff-table.tsx'
import { type StaffPageContext, type StaffPageProps, staffPage } from './page.ts'

/**
 * `/staff/feeds`: the listing feeds (PRODUCT.md, "feeds") and the product feed ("every cart on a
 * channel"): how many available carts each lists, and every available cart it leaves out, with the
 * reasons, linked to the cart's form where the missing fact (a VIN, a colour, a price, a photo) is set. The inventory spreadsheet is downloaded from here too.
 */
async function loadFeeds(context: StaffPageContext) {
  return context.caller.staff.feeds.report()
}

type FeedsData = Awaited<ReturnType<typeof loadFeeds>>

function FeedsPage({ data }: StaffPageProps<FeedsData>) {
  return (
    <div className="staff-feeds">
      <h1>Listing feeds</h1>
      <p>
        Google's vehicle listings and Meta's automotive catalog list only available carts that have a VIN (golf carts
        that are not street-legal have none). The product feed for Google Merchant Center and Meta's product catalogs
        lists every available cart, with or without a VIN, that has a price and an image. The public spreadsheet at{' '}
        <a href="/feeds/inventory.csv">/feeds/inventory.csv</a> has every available cart.{' '}
        <a href={staffPaths.inventoryExport}>Download the whole inventory as a spreadsheet</a> (sold and held carts
        too), to edit and bring back on the <a href={staffPaths.inventoryImport}>import page</a>.
      </p>
      {data.map((feed) => (
        <section key={feed.feed} aria-labelledby={`feed-${feed.feed}`}>
          <h2 id={`feed-${feed.feed}`}>{feed.name}</h2>
          <p>
            <a href={feed.path}>{feed.path}</a>: {feed.listed} {feed.listed === 1 ? 'cart' : 'carts'} listed,{' '}
            {feed.leftOut.length} left out.
          </p>
          {feed.leftOut.length > 0 && (
            <StaffTable
              className="staff-table"
              caption={`Available carts left out of ${feed.name}, and why`}
              captionShown
              columns={['Cart', 'Stock number', 'Why it is left out']}
            >
              {feed.leftOut.map((cart) => (
                <tr key={cart.id}>
                  <td>
                    <a href={staffPaths.cart(cart.id)}>{cart.title}</a>
                  </td>
                  <td>{cart.stockNumber}</td>
                  <td>
                    <ul className="staff-feeds__reasons">
                      {cart.reasons.map((reason) => (
                        <li key={reason}>{reason}</li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </StaffTable>
          )}
        </section>
      ))}
    </div>
  )
}

export const feedsPage = staffPage({
  path: staffPaths.feeds,
  roles: { get: ['manager', 'see the feeds page'] },
  nav: { label: 'Feeds', place: 80 },
  title: () => 'Listing feeds',
  load: loadFeeds,
  Page: FeedsPage,
})
