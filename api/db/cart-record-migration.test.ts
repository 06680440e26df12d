import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cartSpecifications } from '../../domain/cart-facts.ts'
import { specificationsFor } from '../../domain/specifications.ts'
import { backends, createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'
import { createCartStore } from '../carts/cart-store.ts'
import { migrate, readMigrations } from './migrate.ts'

/**
 * Migration 0007 (the cart record) on a database that already has carts: every cart, its slug and
 * its specifications stay; a cart that was not available stays listed, as a hold.
 */
describe.each(backends)('the cart record migration on %s', (backend) => {
  let db: TestDatabase
  let before: { id: number; slug: string; title: string; available: boolean }[]

  beforeAll(async () => {
    db = await createTestDatabase(backend)
    const all = await readMigrations()
    await migrate(db.sql, all.filter((m) => m.version < '0007'))
    await db.sql`
      insert into golf_carts (slug, alternative_slug, title, description, price, image_url, category, featured, available)
      values
        ('2025-evolution-d6-max-gt4', '2025-evolution-d6-max-gt4', '2025 Evolution D6 Max GT4', 'A', 13995, '/a.svg', 'new', true, true),
        ('2025-denago-ev-rover-xl', '2025-denago-ev-rover-xl', '2025 Denago EV Rover XL', 'B', 11995, '/b.svg', 'new', false, false),
        ('2025-evolution-d5-ranger-2-2-plus', '2025-evolution-d5-ranger-22-plus', '2025 Evolution D5 Ranger 2+2 Plus', 'C', 9995, '/c.svg', 'certified', false, true)
    `
    before = [...(await db.sql<typeof before>`select id, slug, title, available from golf_carts order by id`)]
    // 0007 and every later migration: the store reads what the latest schema holds.
    await migrate(db.sql, all.filter((m) => m.version >= '0007'))
  })
  afterAll(() => db?.close())

  it('keeps every cart and its slug, and gives each a stock number', async () => {
    const after = await db.sql<{ id: number; slug: string; stockNumber: string }[]>`select id, slug, stock_number from golf_carts order by id`
    expect(after.map(({ id, slug }) => ({ id, slug }))).toEqual(before.map(({ id, slug }) => ({ id, slug })))
    expect(after.map((c) => c.stockNumber)).toEqual(before.map((c) => `GC-${String(c.id).padStart(4, '0')}`))
  })

  it('keeps each cart\'s specifications: nothing is stored, so the title still decides', async () => {
    const carts = await Promise.all(before.map((c) => createCartStore(db.sql).bySlug(c.slug)))
    for (const cart of carts) expect(cartSpecifications(cart!)).toEqual(specificationsFor(cart!.title))
  })

  it('makes a cart that was not available a hold, still listed, and the others available', async () => {
    const rows = await db.sql<{ slug: string; status: string; available: boolean }[]>`select slug, status, available from golf_carts order by id`
    expect(rows.map((r) => [r.status, r.available])).toEqual([
      ['available', true],
      ['hold', false],
      ['available', true],
    ])
    const { carts, total } = await createCartStore(db.sql).list({})
    expect(total).toBe(3)
    expect(carts.at(-1)?.slug).toBe('2025-denago-ev-rover-xl')
  })

  it('keeps a category it does not know, such as "certified", and its count', async () => {
    const counts = await db.sql`select category, total from golf_cart_counts order by category`
    expect(counts.map((c) => [c.category, c.total])).toEqual([
      ['certified', 1],
      ['new', 2],
    ])
  })
})
