import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { staffPassword } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { createContextInner } from '../trpc/context.ts'
import { createCaller } from '../trpc/router.ts'

/**
 * The featured set (issue #47; PRODUCT.md "featured"): staff choose its order, the home page
 * shows the first three, and a cart on hold, sold or in draft is not featured. Through the
 * procedures and the REST path, on both databases; across processes in
 * host/server/several-processes.test.ts.
 */
describe.each(backends)('the featured carts on %s', (backend) => {
  let server: TestServer
  let staff: ReturnType<typeof createCaller>
  const visitor = () => createCaller(createContextInner(server.runtime.services))
  const rest = async () => ((await (await fetch(`${server.url}/api/golf-carts/featured`)).json()) as { id: number }[]).map((cart) => cart.id)
  const shown = async (limit?: number) => (await visitor().cart.featured(limit === undefined ? undefined : { limit })).map((cart) => cart.id)

  beforeAll(async () => {
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' })
    const user = await server.runtime.services.staff.accounts.add('fern', staffPassword, { role: 'sales' })
    const { token } = await server.runtime.services.staff.sessions.start(user, {})
    staff = createCaller(createContextInner(server.runtime.services, { staffToken: token, sameOrigin: true }))
    // Five available carts featured, and nothing else: the order below is theirs alone.
    await server.db.sql`update golf_carts set featured = false`
    const five = await server.db.sql<{ id: number }[]>`select id from golf_carts where status = 'available' order by id limit 5`
    await staff.staff.cart.saveMany({ ids: five.map((row) => row.id), featured: true })
  })
  afterAll(() => server?.close())

  it('shows the featured carts in the order staff chose, those given no place after, oldest first', async () => {
    const ids = await shown()
    expect(ids).toHaveLength(5)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    const [a, b, c, d, e] = ids as [number, number, number, number, number]
    const ordered = await staff.staff.cart.setFeaturedOrder({ ids: [d, b] })
    expect(ordered.map((cart) => [cart.id, cart.place])).toEqual([[d, 1], [b, 2], [a, null], [c, null], [e, null]])
    expect(await shown()).toEqual([d, b, a, c, e])
    expect(await rest()).toEqual([d, b, a, c, e])
    // The home page's three.
    expect(await shown(3)).toEqual([d, b, a])
    expect((await staff.staff.cart.featured()).map((cart) => cart.id)).toEqual([d, b, a, c, e])
    // Each place that changed is in the cart's history.
    const history = await staff.staff.audit.forCart({ id: d })
    expect(history[0]).toMatchObject({ actor: 'fern', field: 'featured place', before: null, after: 1 })

    await staff.staff.cart.setFeaturedOrder({ ids: [e, d, c, b, a] })
    expect(await shown()).toEqual([e, d, c, b, a])
  })

  it('leaves a cart on hold, sold or in draft out of the featured set, and puts it back in its place once available', async () => {
    const [first, second, third] = (await shown()) as [number, number, number]
    await staff.staff.cart.setStatus({ id: first, status: 'hold' })
    await staff.staff.cart.setStatus({ id: second, status: 'sold' })
    await staff.staff.cart.setStatus({ id: third, status: 'draft' })
    const left = await shown()
    expect(left).toHaveLength(2)
    for (const id of [first, second, third]) expect(left).not.toContain(id)
    expect(await rest()).toEqual(left)
    // Staff still see the whole set, with each cart's status.
    expect((await staff.staff.cart.featured()).slice(0, 3).map((cart) => [cart.id, cart.status])).toEqual([
      [first, 'hold'],
      [second, 'sold'],
      [third, 'draft'],
    ])
    await staff.staff.cart.setStatus({ id: first, status: 'available' })
    expect((await shown())[0]).toBe(first)
    for (const id of [second, third]) await staff.staff.cart.setStatus({ id, status: 'available' })
  })

  it('forgets the place of a cart no longer featured: featured again, it comes last', async () => {
    const [first, ...rest] = await shown()
    await staff.staff.cart.setFeatured({ id: first!, featured: false })
    expect(await shown()).toEqual(rest)
    await staff.staff.cart.setFeatured({ id: first!, featured: true })
    expect(await shown()).toEqual([...rest, first])
  })

  it('refuses an order naming a cart that is not featured, or none, or one twice, and changes nothing', async () => {
    const before = await shown()
    const [notFeatured] = await server.db.sql<{ id: number; title: string }[]>`select id, title from golf_carts where not featured order by id limit 1`
    await expect(staff.staff.cart.setFeaturedOrder({ ids: [before[1]!, notFeatured!.id] })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: `“${notFeatured!.title}” is not featured: feature it first, then give it its place.`,
    })
    await expect(staff.staff.cart.setFeaturedOrder({ ids: [before[1]!, 999_999] })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'No golf cart has the id 999999' })
    await expect(staff.staff.cart.setFeaturedOrder({ ids: [before[1]!, before[1]!] })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('Give each cart one place') })
    await expect(staff.staff.cart.setFeaturedOrder({ ids: [] })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('at least one featured cart') })
    expect(await shown()).toEqual(before)
  })
})
