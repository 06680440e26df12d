import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChanges } from '../db/changes.ts'
import { createCartStore, readListedRows } from './cart-store.ts'
import { createListedCarts } from './listed-carts.ts'
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

  it('after a change to the carts alone, reads again only the carts whose version moved; after any other change, all of them', async () => {
    const changes = createChanges()
    changes.setListening(true)
    const reads: (readonly number[] | 'all')[] = []
    const listed = createListedCarts(db.sql, (sql, ids) => (reads.push(ids ?? 'all'), readListedRows(sql, ids)), changes)
    const cartOf = async (id: number) => (await listed.get()).find((c) => c.cart.id === id)?.cart
    const [first, second, third] = await db.sql<{ id: number; price: number }[]>`
      select id, price::float8 as price from golf_carts where status = 'available' order by id limit 3
    `
    const count = (await listed.get()).length
    expect(reads).toEqual(['all'])

    // A price: that cart alone is read again, and the list keeps its order and length.
    await db.sql`update golf_carts set price = price + 7 where id = ${first!.id}`
    changes.notify('golf_carts')
    expect((await cartOf(first!.id))?.price).toBe(first!.price + 7)
    expect(reads).toEqual(['all', [first!.id]])
    expect((await listed.get()).map((c) => c.cart.id)).toEqual([...(await readListedRows(db.sql)).map((row) => row.id)])
    // Nothing changed since: kept, no statement at all.
    const kept = await listed.get()
    expect(reads).toHaveLength(2)
    // The database's notice of that same write comes after it: nothing moved, so the very same
    // list, and what searches made of it (domain/cart-search.ts) is not made again.
    changes.notify('golf_carts')
    expect(await listed.get()).toBe(kept)
    expect(reads).toHaveLength(2)

    // A sale and a deletion leave the list without a read of either; a new cart is read alone.
    await db.sql`update golf_carts set status = 'sold', sold_at = now() where id = ${second!.id}`
    await db.sql`delete from golf_carts where id = ${third!.id}`
    const added = await createCartStore(db.sql).add({ title: 'Listed In Memory Test', description: 'A cart for this test.', price: 9999 })
    changes.notify('golf_carts')
    expect(await cartOf(second!.id)).toBeUndefined()
    expect(await cartOf(third!.id)).toBeUndefined()
    expect((await cartOf(added.id))?.title).toBe('Listed In Memory Test')
    expect(await listed.get()).toHaveLength(count - 1)
    expect(reads).toEqual(['all', [first!.id], [added.id]])
    // The version stays inside: a listed cart is answered as before.
    expect(await cartOf(added.id)).not.toHaveProperty('version')

    // A photo (the cover is part of a listed cart), or a change of unknown kind: everything again.
    changes.notify('cart_photos')
    await listed.get()
    changes.notify()
    await listed.get()
    expect(reads.slice(3)).toEqual(['all', 'all'])
  })
})
