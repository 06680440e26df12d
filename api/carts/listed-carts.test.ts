import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChanges } from '../db/changes.ts'
import { createCartStore } from './cart-store.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'

/**
 * The listed carts held in memory (api/carts/listed-carts.ts): kept only while every change is
 * heard, dropped by a change, never kept from a read that a change overtook.
 */
describe.each(backends)('the listed carts in memory on %s', (backend) => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await createTestDatabase(backend, 'seeded')
  })
  afterAll(() => db?.close())

  const priceOf = async (store: ReturnType<typeof createCartStore>, id: number) =>
    (await store.list({})).carts.find((cart) => cart.id === id)?.price

  it('reads the database for every search while this process does not hear changes', async () => {
    const store = createCartStore(db.sql, createChanges())
    const [{ id, price }] = await db.sql<[{ id: number; price: number }]>`select id, price::float8 as price from golf_carts where status = 'available' order by id limit 1`
    expect(await priceOf(store, id)).toBe(price)
    await db.sql`update golf_carts set price = price + 1 where id = ${id}`
    expect(await priceOf(store, id)).toBe(price + 1)
  })

  it('keeps them while it hears changes, until a change', async () => {
    const changes = createChanges()
    changes.setListening(true)
    const store = createCartStore(db.sql, changes)
    const [{ id, price }] = await db.sql<[{ id: number; price: number }]>`select id, price::float8 as price from golf_carts where status = 'available' order by id limit 1`
    expect(await priceOf(store, id)).toBe(price)
    // A write no one announced (here the test's own SQL; in a server, the database's notice
    // would follow within milliseconds): the kept carts answer until the notice.
    await db.sql`update golf_carts set price = price + 1 where id = ${id}`
    expect(await priceOf(store, id)).toBe(price)
    changes.notify()
    expect(await priceOf(store, id)).toBe(price + 1)
    // A cart sold leaves the list at the next search after the change.
    await db.sql`update golf_carts set status = 'sold', sold_at = now() where id = ${id}`
    changes.notify()
    expect(await priceOf(store, id)).toBeUndefined()
  })

  it('does not keep a read that a change overtook', async () => {
    const changes = createChanges()
    changes.setListening(true)
    const store = createCartStore(db.sql, changes)
    const [{ id, price }] = await db.sql<[{ id: number; price: number }]>`select id, price::float8 as price from golf_carts where status = 'available' order by id limit 1`
    const before = store.list({})
    await db.sql`update golf_carts set price = price + 5 where id = ${id}`
    changes.notify()
    // The read under way answers its own search with what it read, and is then forgotten.
    expect((await before).carts.find((cart) => cart.id === id)?.price).toBeOneOf([price, price + 5])
    expect(await priceOf(store, id)).toBe(price + 5)
  })
})
