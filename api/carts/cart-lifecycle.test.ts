import { TRPCClientError } from '@trpc/client'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { addStaff, signedInClient, staffClient } from '../../tests/support/staff.ts'
import type { AppRouter } from '../trpc/router.ts'

/**
 * The cart lifecycle as visitors meet it through the API (PRODUCT.md): holds listed last and
 * marked, sold carts out of every list at once, their page found until SOLD_VISIBLE_DAYS, then 410.
 */
describe.each(backends)('the cart lifecycle on the public API on %s', (backend) => {
  let server: TestServer
  let staff: ReturnType<typeof staffClient>
  const json = async (path: string) => {
    const res = await fetch(`${server.url}${path}`)
    return { status: res.status, total: res.headers.get('x-total-count'), body: await res.json() }
  }
  const firstListed = async () => (await json('/api/golf-carts')).body[0] as { id: number; slug: string; price: number }

  beforeAll(async () => {
    server = await startTestServer(backend, { SOLD_VISIBLE_DAYS: '14' })
    await addStaff(server)
    staff = (await signedInClient(server)).client
  })
  afterAll(() => server?.close())

  it('reaches visitors at once: a new price is served on the next request, past every cache', async () => {
    const cart = await firstListed()
    await json(`/api/golf-carts/slug/${cart.slug}`)
    expect((await json(`/api/golf-carts/slug/${cart.slug}`)).body.price).toBe(cart.price)
    await staff.staff.cart.setPrice.mutate({ id: cart.id, price: cart.price + 100 })
    expect((await json(`/api/golf-carts/slug/${cart.slug}`)).body.price).toBe(cart.price + 100)
    expect((await json('/api/golf-carts')).body[0].price).toBe(cart.price + 100)
  })

  it('lists a cart on hold after every available cart, marked hold, and keeps it in the total', async () => {
    const before = await json('/api/golf-carts')
    const cart = before.body[0]
    await staff.staff.cart.setStatus.mutate({ id: cart.id, status: 'hold' })
    const after = await json('/api/golf-carts')
    expect(after.total).toBe(before.total)
    expect(after.body.at(-1)).toMatchObject({ id: cart.id, status: 'hold' })
    expect(after.body.slice(0, -1).every((c: { status: string }) => c.status === 'available')).toBe(true)
    const detail = (await json(`/api/golf-carts/slug/${cart.slug}`)).body
    expect(detail).toMatchObject({ status: 'hold', available: false })
    await staff.staff.cart.setStatus.mutate({ id: cart.id, status: 'available' })
  })

  it('takes a sold cart out of every list, count and the featured set at once; its page still finds it', async () => {
    const featured = (await json('/api/golf-carts/featured')).body[0]
    const list = await json('/api/golf-carts?category=new&limit=24')
    await staff.staff.cart.setStatus.mutate({ id: featured.id, status: 'sold' })
    expect((await json('/api/golf-carts/featured')).body.map((c: { id: number }) => c.id)).not.toContain(featured.id)
    const after = await json('/api/golf-carts?category=new&limit=24')
    expect(Number(after.total)).toBe(Number(list.total) - 1)
    expect((await json('/api/golf-carts')).body.map((c: { id: number }) => c.id)).not.toContain(featured.id)
    const page = await json(`/api/golf-carts/slug/${featured.slug}`)
    expect(page.status).toBe(200)
    expect(page.body).toMatchObject({ status: 'sold', available: false, soldAt: expect.any(String) })
  })

  it('offers the listed carts nearest in price on a sold cart\'s page', async () => {
    const sold = (await staff.staff.cart.list.query({ status: 'sold' })).carts[0]!
    const res = await fetch(`${server.url}/trpc/cart.similar?input=${encodeURIComponent(JSON.stringify({ slug: sold.slug }))}`)
    const similar = ((await res.json()) as { result: { data: { id: number; price: number; status: string }[] } }).result.data
    expect(similar).toHaveLength(3)
    expect(similar.map((c) => c.id)).not.toContain(sold.id)
    expect(similar.every((c) => c.status !== 'sold')).toBe(true)
    const { carts } = await staff.staff.cart.list.query({ status: 'available', limit: 200 })
    const distances = carts.filter((c) => c.id !== sold.id).map((c) => Math.abs(c.price - sold.price)).sort((a, b) => a - b)
    expect(similar.map((c) => Math.abs(c.price - sold.price))).toEqual(distances.slice(0, 3))
  })

  it('answers 410 for a cart sold more than SOLD_VISIBLE_DAYS ago, on REST and tRPC alike', async () => {
    const sold = (await staff.staff.cart.list.query({ status: 'sold' })).carts[0]!
    // By SQL by hand: the database announces the change to the server (api/db/changes.ts).
    await server.db.sql`update golf_carts set sold_at = now() - interval '14 days 1 minute' where id = ${sold.id}`
    await vi.waitFor(async () => expect((await json(`/api/golf-carts/slug/${sold.slug}`)).status).toBe(410), { timeout: 1000 })
    const rest = await json(`/api/golf-carts/slug/${sold.slug}`)
    expect(rest.body).toEqual({ message: `The golf cart "${sold.slug}" has been sold`, issues: [] })
    const res = await fetch(`${server.url}/trpc/cart.bySlug?input=${encodeURIComponent(JSON.stringify({ slug: sold.slug }))}`)
    expect(res.status).toBe(410)
    expect(((await res.json()) as { error: { data: { code: string } } }).error.data.code).toBe('NOT_FOUND')
  })

  it('brings a sold cart back everywhere when staff make it available again', async () => {
    const sold = (await staff.staff.cart.list.query({ status: 'sold' })).carts[0]!
    const cart = await staff.staff.cart.setStatus.mutate({ id: sold.id, status: 'available' })
    expect(cart.soldAt).toBeNull()
    expect((await json(`/api/golf-carts/slug/${sold.slug}`)).body.status).toBe('available')
    expect((await json('/api/golf-carts')).body.map((c: { id: number }) => c.id)).toContain(sold.id)
  })

  it('turns a sold cart\'s page to 410 when SOLD_VISIBLE_DAYS run out, with no write: the clock is a change too', async () => {
    const cart = await firstListed()
    await staff.staff.cart.setStatus.mutate({ id: cart.id, status: 'sold' })
    // Sold 14 days ago less 1.5 seconds: its page closes in 1.5 s.
    await server.db.sql`update golf_carts set sold_at = now() - interval '14 days' + interval '1.5 seconds' where id = ${cart.id}`
    const path = `/api/golf-carts/slug/${cart.slug}`
    await vi.waitFor(async () => expect((await json(path)).body.soldAt).toBeTruthy(), { timeout: 1000 })
    // Kept meanwhile (the same answer, not asked again), then closed on time.
    expect((await json(path)).status).toBe(200)
    await vi.waitFor(async () => expect((await json(path)).status).toBe(410), { timeout: 3000, interval: 100 })
    await staff.staff.cart.setStatus.mutate({ id: cart.id, status: 'available' })
  })

  it('refuses an unknown slug with 404, not 410', async () => {
    const error = await staff.cart.bySlug.query({ slug: 'never-listed' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TRPCClientError)
    expect((error as TRPCClientError<AppRouter>).data?.httpStatus).toBe(404)
  })
})
