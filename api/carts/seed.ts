import { type CatalogueCart, drawnImageUrl, startingInventory } from '../../domain/catalogue.ts'
import type { Sql } from '../db/database.ts'
import { insertCart } from './cart-store.ts'

/** Recorded beside the migrations, so the seed runs once per database, not once per start. */
const seedVersion = 'seed:inventory'

/**
 * Fills an empty database with the starting inventory (domain/catalogue.ts). It runs at most once
 * per database: a dealer who later deletes carts does not see them come back on the next restart.
 * Returns how many carts it added.
 */
export async function seed(sql: Sql, inventory: readonly CatalogueCart[] = startingInventory): Promise<number> {
  return sql.begin(async (tx) => {
    await tx`lock table schema_migrations in exclusive mode`
    const [done] = await tx`select 1 from schema_migrations where version = ${seedVersion}`
    const [existing] = await tx`select 1 from golf_carts limit 1`
    await tx`insert into schema_migrations (version) values (${seedVersion}) on conflict do nothing`
    if (done || existing) return 0
    for (const { title, description, price, featured } of inventory) {
      await insertCart(tx, { title, description, price, featured, imageUrl: drawnImageUrl(title), category: 'new' })
    }
    return inventory.length
  })
}
