import type { CartRecord } from '../../domain/cart-record.ts'
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

/** A cart to add: SPEC's fields, and any of the record's (domain/cart-record.ts) that are known. */
export interface NewCart extends Partial<Omit<CartRecord, 'condition'>> {
  title: string
  description: string
  price: number
  imageUrl: string
  category?: string
}

const anyCategory = (category: string | undefined) => !category || category === 'all'

export function createCartStore(sql: Sql) {
  const summary = summaryColumns(sql)
  /** Listed carts: everything but sold ones (PRODUCT.md); lists put holds after available carts. */
  const listed = sql`status <> 'sold'`

  return {
    async list({ category, limit, offset = 0 }: CartQuery): Promise<CartPage> {
      const inCategory = anyCategory(category) ? sql`` : sql`and category = ${category!}`
      const [carts, [count]] = await Promise.all([
        sql<GolfCart[]>`
          select ${summary} from golf_carts where ${listed} ${inCategory}
          order by status = 'hold', id
          ${limit === undefined ? sql`` : sql`limit ${limit}`} offset ${offset}
        `,
        // Kept by triggers (migration 0003), so the total does not cost a scan of every cart.
        sql<[{ total: number }]>`
          select coalesce(sum(total), 0)::int as total from golf_cart_counts
          ${anyCategory(category) ? sql`` : sql`where category = ${category!}`}
        `,
      ])
      return { carts: [...carts], total: count?.total ?? 0 }
    },

    async featured(limit?: number): Promise<GolfCart[]> {
      const rows = await sql<GolfCart[]>`
        select ${summary} from golf_carts where featured and ${listed}
        order by status = 'hold', id
        ${limit === undefined ? sql`` : sql`limit ${limit}`}
      `
      return [...rows]
    },

    bySlug: (slug: string) => findCartBySlug(sql, slug),

    /** Every available cart with its record's public facts, for the listing feeds. */
    async listingCarts(): Promise<GolfCartDetail[]> {
      const rows = await sql<GolfCartDetail[]>`
        select ${detailColumns(sql)} from golf_carts where status = 'available' order by id
      `
      return [...rows]
    },

    /** Listed carts nearest in price to a cart, for its page once it is sold. */
    async similar(cart: { id: number; price: number }, limit = 3): Promise<GolfCart[]> {
      const [above, below] = await Promise.all([
        sql<GolfCart[]>`
          select ${summary} from golf_carts
          where ${listed} and id <> ${cart.id} and price >= ${cart.price}
          order by price, id limit ${limit}
        `,
        sql<GolfCart[]>`
          select ${summary} from golf_carts
          where ${listed} and id <> ${cart.id} and price < ${cart.price}
          order by price desc, id limit ${limit}
        `,
      ])
      return [...above, ...below]
        .sort((a, b) => Math.abs(a.price - cart.price) - Math.abs(b.price - cart.price) || a.id - b.id)
        .slice(0, limit)
    },

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
/**
 * A cart by canonical slug first; failing that, by the alternative reading of a title's slug.
 * Sold carts are found too: their page says Sold until SOLD_VISIBLE_DAYS have passed.
 */
export async function findCartBySlug(sql: Sql | TransactionSql, slug: string): Promise<GolfCartDetail | undefined> {
  const [cart] = await sql<GolfCartDetail[]>`
    select ${detailColumns(sql)} from golf_carts
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
      (slug, alternative_slug, title, description, price, image_url, category, featured, status,
       year, make, model, trim, vin, serial_number, stock_number, color, seats, battery,
       street_legal, lifted, msrp)
    values (
      ${uniqueSlug(base, (s) => taken.has(s))}, ${alternativeSlug(cart.title)}, ${cart.title},
      ${cart.description}, ${cart.price}, ${cart.imageUrl}, ${cart.category ?? 'new'},
      ${cart.featured ?? false}, ${cart.status ?? 'available'},
      ${cart.year ?? null}, ${cart.make ?? null}, ${cart.model ?? null}, ${cart.trim ?? null},
      ${cart.vin ?? null}, ${cart.serialNumber ?? null}, ${cart.stockNumber ?? null},
      ${cart.color ?? null}, ${cart.seats ?? null}, ${cart.battery ?? null},
      ${cart.streetLegal ?? false}, ${cart.lifted ?? false}, ${cart.msrp ?? null}
    )
    returning ${detailColumns(tx)}
  `
  return row!
}

/** A stored photo as pages receive it (domain/photos.ts, `CartPhoto`). */
const photoJson = 'json_build_object(\'key\', p.key, \'alt\', p.alt, \'width\', p.width, \'height\', p.height, \'widths\', p.widths)'

/** SPEC's fields, the status, and the cover photo (null for a cart shown by its drawing). */
function summaryColumns(sql: Sql | TransactionSql) {
  return sql`
    id, slug, title, description, price::float8 as price, image_url, category, status,
    (select ${sql.unsafe(photoJson)} from cart_photos p where p.cart_id = golf_carts.id order by p.position, p.id limit 1) as photo
  `
}

/** What the vehicle page shows: the summary and the record's public facts (not the serial). */
function detailColumns(sql: Sql | TransactionSql) {
  return sql`
    ${summaryColumns(sql)}, featured, available, year, make, model, trim, vin, stock_number,
    color, seats, battery, street_legal, lifted, msrp::float8 as msrp,
    to_json(sold_at) #>> '{}' as sold_at,
    coalesce(
      (select json_agg(${sql.unsafe(photoJson)} order by p.position, p.id) from cart_photos p where p.cart_id = golf_carts.id),
      '[]'::json
    ) as photos
  `
}
