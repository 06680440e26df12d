import type { GolfCart, GolfCartDetail } from '../../domain/golf-cart.ts'
import { alternativeSlug, slugify, uniqueSlug } from '../../domain/slug.ts'
import type { Sql, TransactionSql } from '../db/database.ts'

/**
 * Every read and write of `golf_carts`. Reads name their columns: what a list returns is a
 * contract (docs/CONTRACTS.md, "REST API"), not whatever the table holds today.
 */
export interface CartQuery {
  /** Empty, missing or "all" means every category (docs/PRODUCT.md, "Inventory"). */
  category?: string
  limit?: number
  offset?: number
}

export interface CartPage {
  carts: GolfCart[]
  total: number
}

export interface NewCart {
  title: string
  description: string
  price: number
  imageUrl: string
  category?: string
  featured?: boolean
  available?: boolean
}

const anyCategory = (category: string | undefined) => !category || category === 'all'

export function createCartStore(sql: Sql) {
  const summary = summaryColumns(sql)

  return {
    async list({ category, limit, offset = 0 }: CartQuery): Promise<CartPage> {
      const where = anyCategory(category) ? sql`` : sql`where category = ${category!}`
      const [carts, [count]] = await Promise.all([
        sql<GolfCart[]>`
          select ${summary} from golf_carts ${where}
          order by id
          ${limit === undefined ? sql`` : sql`limit ${limit}`} offset ${offset}
        `,
        // Kept by triggers (migration 0003), so the total does not cost a scan of every cart.
        sql<[{ total: number }]>`select coalesce(sum(total), 0)::int as total from golf_cart_counts ${where}`,
      ])
      return { carts: [...carts], total: count?.total ?? 0 }
    },

    async featured(limit?: number): Promise<GolfCart[]> {
      const rows = await sql<GolfCart[]>`
        select ${summary} from golf_carts where featured
        order by id
        ${limit === undefined ? sql`` : sql`limit ${limit}`}
      `
      return [...rows]
    },

    bySlug: (slug: string) => findCartBySlug(sql, slug),

    add(cart: NewCart): Promise<GolfCartDetail> {
      return sql.begin((tx) => insertCart(tx, cart))
    },
  }
}

export type CartStore = ReturnType<typeof createCartStore>

/**
 * A cart by its canonical slug first; failing that, by the alternative reading of a title's
 * slug. Inside a transaction too (an inquiry notes the cart it is about as it is stored).
 */
export async function findCartBySlug(sql: Sql | TransactionSql, slug: string): Promise<GolfCartDetail | undefined> {
  const [cart] = await sql<GolfCartDetail[]>`
    select ${summaryColumns(sql)}, featured, available from golf_carts
    where slug = ${slug} or alternative_slug = ${slug}
    order by (slug = ${slug}) desc, id
    limit 1
  `
  return cart
}

/** Adds a cart inside the caller's transaction, choosing its slug (`-2`, `-3` on a clash: docs/PRODUCT.md, "Slugs"). */
export async function insertCart(tx: TransactionSql, cart: NewCart): Promise<GolfCartDetail> {
  // Serialises slug choice, so two carts with one title cannot both take the same slug.
  await tx`lock table golf_carts in share row exclusive mode`
  const base = slugify(cart.title) || 'golf-cart'
  const taken = new Set(
    (
      await tx<{ slug: string }[]>`
        select slug from golf_carts where slug = ${base} or slug like ${`${base}-%`}
      `
    ).map((r) => r.slug),
  )
  const [row] = await tx<GolfCartDetail[]>`
    insert into golf_carts
      (slug, alternative_slug, title, description, price, image_url, category, featured, available)
    values (
      ${uniqueSlug(base, (s) => taken.has(s))}, ${alternativeSlug(cart.title)}, ${cart.title},
      ${cart.description}, ${cart.price}, ${cart.imageUrl}, ${cart.category ?? 'new'},
      ${cart.featured ?? false}, ${cart.available ?? true}
    )
    returning ${summaryColumns(tx)}, featured, available
  `
  return row!
}

function summaryColumns(sql: Sql | TransactionSql) {
  return sql`id, slug, title, description, price::float8 as price, image_url, category`
}
