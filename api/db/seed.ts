import { slugify } from '../../domain/slug.ts'
import { insertCart } from '../carts/cart-store.ts'
import type { Sql } from './database.ts'
import { type SeedCart, seedInventory } from './seed-inventory.ts'

/** Recorded beside the migrations, so the seed runs once per database, not once per start. */
const seedVersion = 'seed:inventory'

/** Drawn images shipped with the site (docs/decisions/0002-drawn-artwork.md). */
export function seedImageUrl(title: string): string {
  return `/images/carts/${slugify(title)}.svg`
}

/**
 * Fills an empty database with the starting inventory. It runs at most once per database: a
 * dealer who later deletes carts does not see them come back on the next restart. Returns how
 * many carts it added.
 */
export async function seed(sql: Sql, inventory: readonly SeedCart[] = seedInventory): Promise<number> {
  return sql.begin(async (tx) => {
    await tx`lock table schema_migrations in exclusive mode`
    const [done] = await tx`select 1 from schema_migrations where version = ${seedVersion}`
    const [existing] = await tx`select 1 from golf_carts limit 1`
    await tx`insert into schema_migrations (version) values (${seedVersion}) on conflict do nothing`
    if (done || existing) return 0
    for (const cart of inventory) {
      await insertCart(tx, { ...cart, imageUrl: seedImageUrl(cart.title), category: 'new' })
    }
    return inventory.length
  })
}
