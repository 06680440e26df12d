import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GolfCart } from '../../domain/golf-cart.ts'
import { formatMonthly, monthlyFrom } from '../../domain/payment.ts'
import { paths } from '../../domain/site-paths.ts'
import { fetchPage, type Page } from '../../tests/support/html.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * `/compare` and `/saved` as the server renders them (PRODUCT.md, "compare and save"): a real
 * table of one to three carts that works without JavaScript, Remove as a link, and the saved
 * cards of the slugs the page's script (or a widget elsewhere) puts in the address.
 */
let server: TestServer
let carts: GolfCart[]

beforeAll(async () => {
  server = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
  carts = (await (await fetch(`${server.url}/api/golf-carts?sort=price-asc&limit=4`)).json()) as GolfCart[]
})
afterAll(() => server?.close())

const open = (slugs: string[]) => fetchPage(`${server.url}${paths.compareCarts(slugs)}`)
const columns = (page: Page) => Array.from(page.document.querySelectorAll('.compare-table thead th[scope="col"] a:first-child')).map((a) => a.textContent)
const row = (page: Page, label: string) => {
  const header = Array.from(page.document.querySelectorAll('.compare-table tbody th[scope="row"]')).find((th) => th.textContent === label)
  return Array.from(header?.parentElement?.querySelectorAll('td') ?? []).map((td) => td.textContent)
}

describe('/compare', () => {
  it.each([1, 2, 3])('shows %i carts as a table with a caption, a column header for each cart and a row header for each fact', async (count) => {
    const chosen = carts.slice(0, count)
    const page = await open(chosen.map((c) => c.slug))
    expect(page.status).toBe(200)
    expect(page.text('.compare-table caption')).toMatch(count === 1 ? /^One golf cart side by side/ : new RegExp(`^${count} golf carts side by side`))
    expect(columns(page)).toEqual(chosen.map((c) => c.title))
    expect(page.all('.compare-table tbody th[scope="row"]')).toEqual([
      'Price', 'Monthly', 'Seats', 'Range', 'Battery', 'Top speed', 'Charging', 'Payload', 'Street legal', 'Condition', 'Availability', 'Showroom',
    ])
    expect(row(page, 'Price')).toEqual(chosen.map((c) => `$${c.price.toLocaleString('en-US')}`))
    expect(row(page, 'Monthly')).toEqual(chosen.map((c) => `From ${formatMonthly(monthlyFrom(c.price))}`))
    expect(row(page, 'Range')).toEqual(chosen.map((c) => `${c.specs.rangeMiles.min}-${c.specs.rangeMiles.max} miles`))
    // Indexable (Lighthouse's SEO audit), as one page: the list is the shopper's, not the address's.
    expect(page.document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('index, follow')
    expect(page.document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toMatch(/\/compare$/)
  })

  it('removes one cart with a link to the same list without it, and keeps at most three', async () => {
    const [a, b, c, d] = carts.map((cart) => cart.slug)
    const page = await open([a!, b!, c!, d!])
    expect(columns(page)).toEqual(carts.slice(0, 3).map((cart) => cart.title))
    const remove = Array.from(page.document.querySelectorAll<HTMLAnchorElement>('.compare-table__remove'))
    expect(remove.map((link) => link.textContent)).toEqual(carts.slice(0, 3).map((cart) => `Remove ${cart.title}`))
    expect(remove[1]!.getAttribute('href')).toBe(paths.compareCarts([a!, c!]))
    const after = await fetchPage(`${server.url}${remove[1]!.getAttribute('href')}`)
    expect(columns(after)).toEqual([carts[0]!.title, carts[2]!.title])
  })

  it('leaves out a cart that is no longer listed and says so, and offers the inventory when nothing is left', async () => {
    const page = await open([carts[0]!.slug, 'no-such-cart'])
    expect(page.status).toBe(200)
    expect(columns(page)).toEqual([carts[0]!.title])
    expect(page.text('.notice')).toBe('One cart of this list is no longer listed and left out.')
    const empty = await fetchPage(`${server.url}/compare`)
    expect(empty.status).toBe(200)
    expect(empty.document.querySelector('.compare-table')).toBeNull()
    expect(empty.text('main p')).toMatch(/^Nothing to compare yet/)
  })
})

describe('/saved', () => {
  it('renders the cards of the saved slugs in its address, and says how to save when there are none', async () => {
    const page = await fetchPage(`${server.url}${paths.savedCarts([carts[1]!.slug, carts[0]!.slug])}`)
    expect(page.all('.gc-card h2')).toEqual([carts[1]!.title, carts[0]!.title])
    // Each card has its Compare and Save, hidden until the page's script knows this browser's lists.
    expect(page.document.querySelector('.gc-card [data-shortlist-actions]')?.hasAttribute('hidden')).toBe(true)
    const none = await fetchPage(`${server.url}/saved`)
    expect(none.document.querySelector('.gc-card')).toBeNull()
    expect(none.text('main')).toContain('No saved carts yet')
  })

  it('is in no sitemap', async () => {
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text()
    expect(sitemap).not.toContain('/compare')
    expect(sitemap).not.toContain('/saved')
  })
})
