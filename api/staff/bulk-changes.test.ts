import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StaffRole } from '../../domain/staff-access.ts'
import { staffPassword } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { createContextInner } from '../trpc/context.ts'
import { createCaller } from '../trpc/router.ts'

/**
 * The list's bulk changes (issue #30, point 6) through the procedures, in-process: one status or
 * featured for several carts, or deleting several, each in one transaction, all or none.
 */
describe.each(backends)('bulk changes of carts on %s', (backend) => {
  let server: TestServer
  const callers = {} as Record<StaffRole, ReturnType<typeof createCaller>>

  beforeAll(async () => {
    server = await startTestServer(backend)
    const { accounts, sessions } = server.runtime.services.staff
    for (const role of ['sales', 'manager'] as const) {
      const user = await accounts.add(`bulk-${role}`, staffPassword, { role })
      const { token } = await sessions.start(user, {})
      callers[role] = createCaller(createContextInner(server.runtime.services, { staffToken: token, sameOrigin: true }))
    }
  })
  afterAll(() => server?.close())

  /** Three carts of the seed that are listed, by id, with their state. */
  const listed = async (count = 3) => {
    const { carts } = await callers.sales.staff.cart.list({ status: 'available', sort: 'oldest', limit: 50 })
    return carts.slice(0, count)
  }
  const states = (ids: number[]) =>
    server.db.sql<{ id: number; status: string; featured: boolean }[]>`select id, status, featured from golf_carts where id in ${server.db.sql(ids)} order by id`

  it('puts several carts on hold in one step, each with its own line in the audit log', async () => {
    const carts = await listed()
    const ids = carts.map((cart) => cart.id)
    const saved = await callers.sales.staff.cart.saveMany({ ids, status: 'hold' })
    expect(saved.map((cart) => [cart.id, cart.status])).toEqual([...ids].sort((a, b) => a - b).map((id) => [id, 'hold']))
    expect((await states(ids)).map((row) => row.status)).toEqual(['hold', 'hold', 'hold'])
    const log = await server.db.sql`select entity_id, field, before, after, actor from audit_log where entity = 'cart' and field = 'status' and entity_id in ${server.db.sql(ids.map(String))}`
    expect(log).toHaveLength(3)
    expect(log.every((row) => row.before === 'available' && row.after === 'hold' && row.actor === 'bulk-sales')).toBe(true)
    await callers.sales.staff.cart.saveMany({ ids, status: 'available' })
  })

  it('features and stops featuring several at once', async () => {
    const ids = (await listed()).map((cart) => cart.id)
    await callers.sales.staff.cart.saveMany({ ids, featured: true })
    expect((await states(ids)).map((row) => row.featured)).toEqual([true, true, true])
    await callers.sales.staff.cart.saveMany({ ids, featured: false })
    expect((await states(ids)).map((row) => row.featured)).toEqual([false, false, false])
  })

  it('changes none of them when one cannot be changed: a cart that is gone refuses the lot', async () => {
    const ids = (await listed()).map((cart) => cart.id)
    const before = await states(ids)
    await expect(callers.sales.staff.cart.saveMany({ ids: [...ids, 999_999], status: 'hold' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No golf cart has the id 999999',
    })
    expect(await states(ids)).toEqual(before)
  })

  it('sells several only when the sale was confirmed, and then all of them', async () => {
    const ids = (await listed(2)).map((cart) => cart.id)
    await expect(callers.sales.staff.cart.saveMany({ ids, status: 'sold' })).rejects.toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'Confirm the sale first: sold carts leave every list at once.',
    })
    expect((await states(ids)).map((row) => row.status)).toEqual(['available', 'available'])
    await callers.sales.staff.cart.saveMany({ ids, status: 'sold', confirmSale: true })
    expect((await states(ids)).map((row) => row.status)).toEqual(['sold', 'sold'])
    await callers.sales.staff.cart.saveMany({ ids, status: 'available' })
  })

  it('refuses a change with nothing to change, no cart or too many carts, with a sentence each', async () => {
    const [cart] = await listed(1)
    await expect(callers.sales.staff.cart.saveMany({ ids: [cart!.id] })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('Choose a status or featured to change') })
    await expect(callers.sales.staff.cart.saveMany({ ids: [], status: 'hold' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('Select at least one cart') })
    const many = Array.from({ length: 201 }, (_, i) => i + 1)
    await expect(callers.manager.staff.cart.deleteMany({ ids: many })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('Select at most 200 carts at once') })
  })

  it('lets managers delete several carts, all or none, and refuses sales with a sentence', async () => {
    const ids = (await listed(2)).map((cart) => cart.id)
    await expect(callers.sales.staff.cart.deleteMany({ ids })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only managers and owners can delete carts; your account’s role is sales.',
    })
    await expect(callers.manager.staff.cart.deleteMany({ ids: [...ids, 999_999] })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await states(ids)).toHaveLength(2)
    expect(await callers.manager.staff.cart.deleteMany({ ids })).toEqual({ ids, deleted: true })
    expect(await states(ids)).toEqual([])
    const log = await server.db.sql`select entity_id, action from audit_log where entity = 'cart' and action = 'delete' and entity_id in ${server.db.sql(ids.map(String))}`
    expect(log).toHaveLength(2)
  })
})
