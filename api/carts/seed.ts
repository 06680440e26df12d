import type { ImportRow } from './inventory-csv.ts'
import type { Sql } from '../db/database.ts'
import type { Actor } from '../staff/audit.ts'
import { planImport, preparePlan, writePlan } from './inventory-import.ts'
import { startingInventory } from './starting-inventory.ts'

/** Recorded beside the migrations, so the seed runs once per database, not once per start. */
const seedVersion = 'seed:inventory'

/** Who the audit log says added the starting carts. */
export const startingInventoryActor: Actor = { id: null, name: 'starting inventory' }

/**
 * Fills an empty database with the starting inventory (domain/starting-inventory.csv), imported
 * through the same plan and bulk write as `npm run inventory -- import`. It runs at most once per
 * database: a dealer who later deletes carts does not see them come back on the next restart.
 * Returns how many carts it added. The starting inventory's file is read only when it is
 * imported: parsing it at every start cost 25-50 ms (docs/decisions/0013-lean-start.md).
 */
export async function seed(sql: Sql, inventory?: readonly ImportRow[]): Promise<number> {
  return sql.begin(async (tx) => {
    await tx`lock table schema_migrations in exclusive mode`
    const [done] = await tx`select 1 from schema_migrations where version = ${seedVersion}`
    if (done) return 0
    const [existing] = await tx`select 1 from golf_carts limit 1`
    await tx`insert into schema_migrations (version) values (${seedVersion})`
    if (existing) return 0
    const planned = await planImport(tx, inventory ?? startingInventory())
    if (!planned.ok) throw new Error(`The starting inventory cannot be imported: ${planned.problems.map((p) => `line ${p.line}, ${p.field}: ${p.message}`).join('; ')}`)
    const added = (await writePlan(tx, preparePlan(planned.plan), startingInventoryActor)).added
    // The starting inventory is the stock the dealer already has, not carts that just arrived:
    // listed a month back, so a card's Just arrived badge is only for carts added after it.
    await tx`update golf_carts set listed_at = listed_at - interval '30 days'`
    return added
  })
}
