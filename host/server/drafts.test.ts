import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CartRecordInput } from '../../domain/cart-record.ts'
import { withCheckDigit } from '../../domain/vin.ts'
import { addStaff, signedInClient, type staffClient } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Drafts (issue #30, PRODUCT.md "drafts"): a cart being listed is seen by staff only. Everything a
 * visitor or a partner's widget can reach is asked for it: pages, REST, tRPC (what the widgets
 * call), the feeds and the sitemap; then Publish puts it everywhere at once.
 */
const draft: CartRecordInput = {
  title: '2026 Evolution D5 Ranger 6 Plus Draft Unit',
  description: 'Still being listed.',
  price: 14_250,
  condition: 'new',
  status: 'draft',
  featured: true,
  vin: withCheckDigit('7EVRNGR06TN00001'.padEnd(17, '0').slice(0, 17)),
  stockNumber: 'DRAFT-1',
  color: 'Blue',
  location: 'bayville',
}

describe.each(backends)('a draft cart on %s', (backend) => {
  let server: TestServer
  let client: ReturnType<typeof staffClient>
  let id: number
  let slug: string

  beforeAll(async () => {
    server = await startTestServer(backend, {}, { site: true })
    await addStaff(server)
    ;({ client } = await signedInClient(server))
    const saved = await client.staff.cart.save.mutate(draft)
    ;({ id, slug } = saved)
  })
  afterAll(() => server?.close())

  const text = async (path: string) => {
    const res = await fetch(`${server.url}${path}`)
    return { status: res.status, body: await res.text(), total: res.headers.get('x-total-count') }
  }
  const trpc = async (path: string, input: unknown) => {
    const res = await fetch(`${server.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`)
    return { status: res.status, body: await res.text() }
  }

  /** Every door a visitor or a partner's page has onto the inventory, and whether the cart shows there. */
  async function seen(): Promise<Record<string, boolean | number>> {
    const named = (body: string) => body.includes(draft.title!) || body.includes(slug)
    const [list, featured, bySlug, page, inventory, search, sitemap, google, meta, csv, products, trpcList, trpcFeatured, trpcSlug] = await Promise.all([
      text('/api/golf-carts'),
      text('/api/golf-carts/featured'),
      text(`/api/golf-carts/slug/${slug}`),
      text(`/vehicle/${slug}`),
      text('/inventory'),
      text('/inventory?q=Draft+Unit'),
      text('/sitemap.xml'),
      text('/feeds/vehicle-listings.xml'),
      text('/feeds/meta-vehicles.xml'),
      text('/feeds/inventory.csv'),
      text('/feeds/products.xml'),
      trpc('cart.list', { q: 'Draft Unit' }),
      trpc('cart.featured', {}),
      trpc('cart.bySlug', { slug }),
    ])
    return {
      'REST list': named(list.body),
      'REST total': Number(list.total),
      'REST featured': named(featured.body),
      'REST by slug': bySlug.status === 200,
      'vehicle page': page.status === 200,
      '/inventory': named(inventory.body),
      '/inventory search': named(search.body),
      sitemap: named(sitemap.body),
      'Google feed': named(google.body),
      'Meta feed': named(meta.body),
      'CSV feed': csv.body.includes('DRAFT-1'),
      'product feed': named(products.body),
      'tRPC list': named(trpcList.body),
      'tRPC featured': named(trpcFeatured.body),
      'tRPC by slug': trpcSlug.status === 200,
    }
  }

  it('is in no page, list, feed, sitemap or API answer a visitor or widget gets, and its page is a 404', async () => {
    const before = await seen()
    const visible = Object.entries(before).filter(([, shown]) => shown === true)
    expect(visible).toEqual([])
    expect((await text(`/vehicle/${slug}`)).status).toBe(404)
    expect((await text(`/api/golf-carts/slug/${slug}`)).status).toBe(404)
  })

  it('is in the console, and Publish puts it everywhere at once, counted in the total', async () => {
    const { carts } = await client.staff.cart.list.query({ status: 'draft' })
    expect(carts.map((c) => c.id)).toEqual([id])
    const totalBefore = (await seen())['REST total'] as number
    const published = await client.staff.cart.save.mutate({ ...draft, id, status: 'available' })
    expect(published.status).toBe('available')
    expect((await trpc('cart.bySlug', { slug })).status).toBe(200)
    // Within the moment a visitor's next request takes (answers kept before the write are dropped by it).
    await expect.poll(seen, { timeout: 5000 }).toEqual({
      'REST list': true,
      'REST total': totalBefore + 1,
      'REST featured': true,
      'REST by slug': true,
      'vehicle page': true,
      '/inventory': false, // the first page shows the first 24 of 100+ carts; the search finds it
      '/inventory search': true,
      sitemap: true,
      'Google feed': true,
      'Meta feed': true,
      'CSV feed': true,
      'product feed': true,
      'tRPC list': true,
      'tRPC featured': true,
      'tRPC by slug': true,
    })
    // Put back as a draft, it leaves everything again.
    await client.staff.cart.save.mutate({ ...draft, id, status: 'draft' })
    await expect.poll(async () => Object.entries(await seen()).filter(([, shown]) => shown === true), { timeout: 5000 }).toEqual([])
  })

  it('has its address follow its title until it is published', async () => {
    const nomad = { ...draft, make: 'Denago', model: 'EV Nomad XL', year: 2026, stockNumber: 'DRAFT-2', vin: null }
    const cart = await client.staff.cart.save.mutate({ ...nomad, title: null, description: null })
    expect(cart.title).toBe('2026 Denago EV Nomad XL')
    expect(cart.slug).toBe('2026-denago-ev-nomad-xl')
    expect(cart.description).toMatch(/^2026 Denago EV Nomad XL: a new 6-seat electric golf cart, finished in Blue\./)
    const renamed = await client.staff.cart.save.mutate({ ...nomad, id: cart.id, title: '2026 Denago EV Nomad XL Lifted' })
    expect(renamed.slug).toBe('2026-denago-ev-nomad-xl-lifted')
    const published = await client.staff.cart.save.mutate({ ...nomad, id: cart.id, status: 'available', title: '2026 Denago EV Nomad XL Lifted' })
    const kept = await client.staff.cart.save.mutate({ ...nomad, id: cart.id, status: 'available', title: 'Lot special, lifted' })
    expect(kept.slug).toBe(published.slug)
    // No photos and no drawing chosen: visitors see its model's drawing.
    const shown = (await (await fetch(`${server.url}/api/golf-carts/slug/${kept.slug}`)).json()) as { imageUrl: string }
    expect(shown.imageUrl).toBe('/images/carts/models/denago-ev-nomad-xl.svg')
    await client.staff.cart.delete.mutate({ id: cart.id })
  })
})
