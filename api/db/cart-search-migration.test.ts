import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { effectiveFacts } from '../../tests/support/search-facts.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { readListedRows } from '../carts/cart-store.ts'
import { createListedCarts } from '../carts/listed-carts.ts'
import { seed } from '../carts/seed.ts'
import { migrate } from './migrate.ts'

/**
 * The search filters on a cart's make, seats and battery as a visitor reads them on its page
 * (domain/cart-facts.ts): the stored value, else the title's. Migrations 0010 and 0015 computed
 * them a second time in SQL; migration 0033 drops that, and the listed carts are read with the
 * stored columns and filled in by `searchFacts`. These hold the listed carts as read from each
 * database to the page's facts: for every seeded cart, for awkward titles, and with stored values.
 */
const awkward: { title: string; make?: string; model?: string; seats?: number; battery?: string }[] = [
  { title: '2025 Evolution Classic 4 Plus' },
  { title: '2025 Evolution Classic 2 Plus' },
  { title: 'Evolution Carrier 6 Plus' },
  { title: 'Evolution Carrier 8 Plus' },
  { title: 'Evolution Forester 4 Plus' },
  { title: 'Evolution Forester 6 Plus' },
  { title: 'Evolution Turfman 200' },
  { title: 'Evolution Pro' },
  { title: 'Evolution D5 Ranger 4+2' },
  { title: 'Evolution D5 Maverick 6 Plus' },
  { title: '2026 Evolution D5 Ranger 2+2' },
  { title: 'EVOLUTION D6 MAX GT6' },
  { title: 'Evolution D6 Max XT4' },
  { title: 'Evolution D6' },
  { title: 'Evolution XD6 Max' },
  { title: 'Denago EV City' },
  { title: 'Denago EV Nomad XL' },
  { title: 'Denago EV Rover XXL' },
  { title: 'Denago EV Rover XL6' },
  { title: '2026 Denago EV Rover 4' },
  { title: '2026 Denago EV Rover' },
  { title: 'Club Car Onward' },
  { title: 'Icon i40L', make: 'Icon', model: 'i40L' },
  { title: 'Mystery cart', make: 'Denago', model: 'Nomad' },
  { title: 'Trade-in, blue', make: 'Evolution', model: 'D6 Max GT6' },
  { title: 'Trade-in, green', make: 'Evolution', model: 'D5 Maverick' },
  { title: '2025 Evolution D6 Max GT4', seats: 2, battery: 'lead-acid' },
  { title: '2025 Denago EV Rover XL', make: 'Club  Car!', seats: 8 },
]

describe.each(backends)('the facts the search reads, on %s', (backend) => {
  let db: TestDatabase
  const listed = async () => (await createListedCarts(db.sql, readListedRows).get()).map((c) => ({ id: c.cart.id, title: c.cart.title, makeKey: c.makeKey, seats: c.seats, battery: c.battery }))

  beforeAll(async () => {
    db = await createTestDatabase(backend)
    await migrate(db.sql)
    await seed(db.sql)
    for (const [i, cart] of awkward.entries()) {
      await db.sql`
        insert into golf_carts (slug, alternative_slug, title, description, price, image_url, make, model, seats, battery)
        values (${`awkward-${i}`}, ${`awkward-${i}`}, ${cart.title}, 'A cart', 9000, '/a.svg',
                ${cart.make ?? null}, ${cart.model ?? null}, ${cart.seats ?? null}, ${cart.battery ?? null})
      `
    }
  })
  afterAll(() => db?.close())

  it('match the vehicle page for every listed cart: the seed and the awkward titles', async () => {
    const rows = await db.sql<{ id: number; title: string; make: string | null; model: string | null; seats: number | null; battery: 'lithium' | 'lead-acid' | null }[]>`
      select id, title, make, model, seats, battery from golf_carts where status in ('available', 'hold') order by id
    `
    const carts = await listed()
    expect(carts.map((c) => c.title)).toEqual(rows.map((r) => r.title))
    for (const { title } of awkward) expect(carts.map((c) => c.title)).toContain(title)
    for (const [i, row] of rows.entries()) {
      expect(carts[i]).toEqual({ id: row.id, title: row.title, ...effectiveFacts(row) })
    }
  })

  it('follow a change to the title or a stored fact', async () => {
    const [cart] = await db.sql<{ id: number }[]>`select id from golf_carts where title = 'Evolution D6'`
    const facts = async () => (await listed()).find((c) => c.id === cart!.id)
    await db.sql`update golf_carts set title = 'Denago EV Rover XXL' where id = ${cart!.id}`
    expect(await facts()).toMatchObject({ makeKey: 'denago', seats: 8, battery: 'lithium' })
    await db.sql`update golf_carts set seats = 4, battery = 'lead-acid', make = 'Icon' where id = ${cart!.id}`
    expect(await facts()).toMatchObject({ makeKey: 'icon', seats: 4, battery: 'lead-acid' })
  })

  it('are no longer computed by the database (migration 0033)', async () => {
    const functions = await db.sql`
      select proname from pg_proc where proname in ('golf_cart_title_seats', 'golf_cart_title_battery', 'golf_cart_platform_text', 'golf_cart_make_key')
    `
    expect(functions).toEqual([])
    const columns = await db.sql<{ columnName: string }[]>`
      select column_name from information_schema.columns where table_name = 'golf_carts' and (column_name like 'effective%' or column_name = 'make_key')
    `
    expect(columns).toEqual([])
  })

  it('find words of the title, the description and the stock number', async () => {
    const [cart] = await db.sql<{ stockNumber: string }[]>`select stock_number from golf_carts where title = 'Evolution Carrier 8 Plus'`
    // As api/carts/cart-store.ts asks: each word as the start of a word (migration 0014).
    const find = (words: string[]) => db.sql<{ title: string }[]>`
      select title from golf_carts where true ${words.map((w) => db.sql`and search_text like ${`% ${w}%`}`).reduce((a, b) => db.sql`${a} ${b}`, db.sql``)}
    `
    const stockWords = cart!.stockNumber.toLowerCase().split('-')
    expect((await find(stockWords)).map((r) => r.title)).toEqual(['Evolution Carrier 8 Plus'])
    // A word's start, not its middle: "arrier" is in "carrier" but starts no word.
    expect((await find(['carr', 'plu', ...stockWords])).map((r) => r.title)).toEqual(['Evolution Carrier 8 Plus'])
    expect(await find(['arrier', ...stockWords])).toEqual([])
    const [row] = await db.sql<{ searchText: string }[]>`select search_text from golf_carts where stock_number = ${cart!.stockNumber}`
    expect(row!.searchText.startsWith(' evolution carrier 8 plus ')).toBe(true)
    expect(row!.searchText.endsWith(` ${stockWords.join(' ')} `)).toBe(true)
  })
})
