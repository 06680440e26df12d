import { defaultShowroom } from '../../domain/business.ts'
import { cardSpecs } from '../../domain/cart-facts.ts'
import type { BatteryKind } from '../../domain/cart-values.ts'
import { cartPicture } from '../../domain/cart-pictures.ts'
import type { CartSearch } from '../../domain/cart-query.ts'
import type { CartRecord } from '../../domain/cart-record.ts'
import { type CartSearchPage, searchListedCarts } from '../../domain/cart-search.ts'
import type { GolfCart, GolfCartDetail } from '../../domain/golf-cart.ts'
import { alternativeSlug, slugify, uniqueSlug } from '../../domain/slug.ts'
import type { Changes } from '../db/changes.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { createListedCarts, type GolfCartRow } from './listed-carts.ts'

/**
 * Every read and write of `golf_carts`. Reads name their columns: what a list returns is a
 * contract (docs/CONTRACTS.md, "REST API"), not whatever the table holds today.
 */
export interface CartQuery extends CartSearch {
  limit?: number
  offset?: number
  /** Also count, for each choice of each filter, the carts it would leave (the page's facets). */
  facets?: boolean
}

export type CartPage = CartSearchPage

/** A cart to add: SPEC's fields, and any of the record's (domain/cart-record.ts) that are known. */
export interface NewCart extends Partial<Omit<CartRecord, 'condition'>> {
  title: string
  description: string
  price: number
  imageUrl?: string | null
  category?: string
}

export function createCartStore(sql: Sql, changes?: Changes) {
  const summary = summaryColumns(sql)
  /**
   * Listed carts: available and held ones (PRODUCT.md; sold carts and drafts are in no list);
   * lists put holds after available carts. The partial indexes (migration 0016) use these words.
   */
  const listed = sql`status in ('available', 'hold')`
  const listedCarts = createListedCarts(sql, readListedRows, changes)

  return {
    /**
     * One page of the listed carts a search finds, with their number and, when asked, the
     * facets: searched in memory over the listed carts (api/carts/listed-carts.ts and
     * domain/cart-search.ts), which filter on what each cart's page shows (stored values over
     * the title's: domain/cart-facts.ts, `searchFacts`); holds come after available carts
     * whatever the sort (PRODUCT.md).
     */
    async list(query: CartQuery): Promise<CartPage> {
      return searchListedCarts(await listedCarts.get(), query)
    },

    /**
     * The featured set (PRODUCT.md, "featured"): featured carts that are available (one on hold,
     * sold or in draft is not featured), in the order staff chose (migration 0035), then the
     * featured carts without a place, oldest first.
     */
    async featured(limit?: number): Promise<GolfCart[]> {
      const rows = await sql<PictureColumns<GolfCart>[]>`
        select ${summary} from golf_carts left join featured_order f on f.cart_id = golf_carts.id
        where featured and status = 'available'
        order by f.place nulls last, id
        ${limit === undefined ? sql`` : sql`limit ${limit}`}
      `
      return rows.map(asCart)
    },

    bySlug: (slug: string) => findCartBySlug(sql, slug),

    /** Every available cart with its record's public facts, for the listing feeds. */
    async listingCarts(): Promise<GolfCartDetail[]> {
      const rows = await sql<PictureColumns<GolfCartDetail>[]>`
        select ${detailColumns(sql)} from golf_carts where status = 'available' order by id
      `
      return rows.map(asCart)
    },

    /** Listed carts nearest in price to a cart, for its page once it is sold. */
    async similar(cart: { id: number; price: number }, limit = 3): Promise<GolfCart[]> {
      const [above, below] = await Promise.all([
        sql<PictureColumns<GolfCart>[]>`
          select ${summary} from golf_carts
          where ${listed} and id <> ${cart.id} and price >= ${cart.price}
          order by price, id limit ${limit}
        `,
        sql<PictureColumns<GolfCart>[]>`
          select ${summary} from golf_carts
          where ${listed} and id <> ${cart.id} and price < ${cart.price}
          order by price desc, id limit ${limit}
        `,
      ])
      return [...above, ...below]
        .map(asCart)
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
 * A cart by canonical slug first; failing that, by the alternative reading of a title's slug.
 * Inside a transaction too (an inquiry notes the cart it is about as it is stored). Sold carts
 * are found too: their page says Sold until SOLD_VISIBLE_DAYS have passed. Drafts never are:
 * to a visitor a draft does not exist (404).
 */
export async function findCartBySlug(sql: Sql | TransactionSql, slug: string): Promise<GolfCartDetail | undefined> {
  const [cart] = await sql<PictureColumns<GolfCartDetail>[]>`
    select ${detailColumns(sql)} from golf_carts
    where (slug = ${slug} or alternative_slug = ${slug}) and status <> 'draft'
    order by (slug = ${slug}) desc, id
    limit 1
  `
  return cart && asCart(cart)
}

/** Adds a cart inside the caller's transaction, choosing its slug (`-2`, `-3` on a clash: docs/PRODUCT.md, "Slugs"). */
export async function insertCart(tx: TransactionSql, cart: NewCart): Promise<GolfCartDetail> {
  const slug = await chooseSlug(tx, cart.title)
  const [row] = await tx`
    insert into golf_carts
      (slug, alternative_slug, title, description, price, image_url, category, featured, status,
       year, make, model, trim, vin, serial_number, stock_number, color, seats, battery,
       street_legal, lifted, msrp, location)
    values (
      ${slug}, ${alternativeSlug(cart.title)}, ${cart.title},
      ${cart.description}, ${cart.price}, ${cart.imageUrl ?? null}, ${cart.category ?? 'new'},
      ${cart.featured ?? false}, ${cart.status ?? 'available'},
      ${cart.year ?? null}, ${cart.make ?? null}, ${cart.model ?? null}, ${cart.trim ?? null},
      ${cart.vin ?? null}, ${cart.serialNumber ?? null}, ${cart.stockNumber ?? null},
      ${cart.color ?? null}, ${cart.seats ?? null}, ${cart.battery ?? null},
      ${cart.streetLegal ?? false}, ${cart.lifted ?? false}, ${cart.msrp ?? null},
      ${cart.location ?? defaultShowroom.id}
    )
    returning ${detailColumns(tx)}
  `
  return asCart(row as PictureColumns<GolfCartDetail>)
}

/**
 * The slug a title gets, unique among the other carts (`-2`, `-3` on a clash). Takes a lock that
 * serialises slug choice, so two carts with one title cannot both take the same slug.
 */
export async function chooseSlug(tx: TransactionSql, title: string, exceptId = 0): Promise<string> {
  await tx`lock table golf_carts in share row exclusive mode`
  const base = slugify(title) || 'golf-cart'
  const taken = new Set(
    (
      await tx<{ slug: string }[]>`
        select slug from golf_carts where (slug = ${base} or slug like ${`${base}-%`}) and id <> ${exceptId}
      `
    ).map((r) => r.slug),
  )
  return uniqueSlug(base, (s) => taken.has(s))
}

/** A stored photo as pages receive it (domain/photos.ts, `CartPhoto`). */
const photoJson = 'json_build_object(\'key\', p.key, \'alt\', p.alt, \'width\', p.width, \'height\', p.height, \'widths\', p.widths)'

/**
 * A cart as read, with what chooses its picture when it has no stored image (make and model) and
 * the stored seats and battery, which `asCart` turns into `imageUrl` and `specs` and leaves out
 * of the answer.
 */
type PictureColumns<T extends GolfCart> = Omit<T, 'imageUrl' | 'specs'> & {
  imageUrl: string | null
  pictureMake: string | null
  pictureModel: string | null
  storedSeats: number | null
  storedBattery: BatteryKind | null
}

function asCart<R extends PictureColumns<GolfCart>>(row: R) {
  const { pictureMake, pictureModel, storedSeats, storedBattery, imageUrl, ...cart } = row
  return {
    ...cart,
    imageUrl: cartPicture({ imageUrl, title: row.title, make: pictureMake, model: pictureModel }),
    specs: cardSpecs({ title: row.title, make: pictureMake, model: pictureModel, seats: storedSeats, battery: storedBattery }),
  }
}

/** SPEC's fields, the status, the showroom, and the cover photo (null for a cart shown by its drawing). */
/** The listed carts (available and held) as searched in memory, or only those of `ids`; in id order. */
export async function readListedRows(sql: Sql | TransactionSql, ids?: readonly number[]): Promise<GolfCartRow[]> {
  const rows = await sql<(PictureColumns<GolfCart> & Omit<GolfCartRow, keyof GolfCart | 'storedMake' | 'storedModel' | 'storedSeats' | 'storedBattery'>)[]>`
    select ${summaryColumns(sql)}, version, street_legal, lifted, search_text
    from golf_carts where status in ('available', 'hold') ${ids ? sql`and id in ${sql(ids)}` : sql``} order by id
  `
  return rows.map((row) => ({
    ...asCart(row),
    storedMake: row.pictureMake,
    storedModel: row.pictureModel,
    storedSeats: row.storedSeats,
    storedBattery: row.storedBattery,
  }))
}

function summaryColumns(sql: Sql | TransactionSql) {
  return sql`
    id, slug, title, description, price::float8 as price, image_url, make as picture_make, model as picture_model, category, status, location,
    seats as stored_seats, battery as stored_battery, to_json(listed_at) #>> '{}' as listed_at,
    (select ${sql.unsafe(photoJson)} from cart_photos p where p.cart_id = golf_carts.id order by p.position, p.id limit 1) as photo
  `
}

/** What the vehicle page shows: the summary and the record's public facts (not the serial). */
function detailColumns(sql: Sql | TransactionSql) {
  return sql`
    ${summaryColumns(sql)}, featured, available, year, make, model, trim, vin, stock_number,
    color, seats, battery, street_legal, lifted, msrp::float8 as msrp,
    to_json(sold_at) #>> '{}' as sold_at,
    to_json(hold_until) #>> '{}' as hold_until,
    coalesce(
      (select json_agg(${sql.unsafe(photoJson)} order by p.position, p.id) from cart_photos p where p.cart_id = golf_carts.id),
      '[]'::json
    ) as photos
  `
}
