import { batteries } from '../../domain/cart-facts.ts'
import {
  type CartFacets,
  type CartSearch,
  type CartSort,
  narrowsBeyondCategory,
  priceCeilings,
  searchWords,
  seatChoices,
} from '../../domain/cart-query.ts'
import type { CartRecord } from '../../domain/cart-record.ts'
import type { GolfCart, GolfCartDetail } from '../../domain/golf-cart.ts'
import { alternativeSlug, slugify, uniqueSlug } from '../../domain/slug.ts'
import type { Sql, TransactionSql } from '../db/database.ts'

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

export interface CartPage {
  carts: GolfCart[]
  total: number
  facets?: CartFacets
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

/** The search's filters that have choices with counts; `q` narrows every count alike. */
type Facet = 'category' | 'make' | 'seats' | 'battery' | 'streetLegal' | 'lifted' | 'minPrice' | 'maxPrice'

export function createCartStore(sql: Sql) {
  const summary = summaryColumns(sql)
  /** Listed carts: everything but sold ones (PRODUCT.md); lists put holds after available carts. */
  const listed = sql`status <> 'sold'`

  return {
    /**
     * One page of the listed carts a search finds, with their number and, when asked, the
     * facets: everything in one statement, one round trip. Filters read the effective facts
     * (migration 0010: stored values over the title's); holds come after available carts
     * whatever the sort (PRODUCT.md).
     */
    async list(query: CartQuery): Promise<CartPage> {
      const { limit, offset = 0 } = query
      const page = sql`${limit === undefined ? sql`` : sql`limit ${limit}`} offset ${offset}`
      const order = sortOrder(sql, query.sort)
      if (!query.facets && !narrowsBeyondCategory(query)) {
        const { category } = query
        const inCategory = anyCategory(category) ? sql`` : sql`and category = ${category!}`
        const [carts, [count]] = await Promise.all([
          sql<GolfCart[]>`select ${summary} from golf_carts where ${listed} ${inCategory} order by ${order} ${page}`,
          // Kept by triggers (migration 0003), so the total does not cost a scan of every cart.
          sql<[{ total: number }]>`
            select coalesce(sum(total), 0)::int as total from golf_cart_counts
            ${anyCategory(category) ? sql`` : sql`where category = ${category!}`}
          `,
        ])
        return { carts: [...carts], total: count?.total ?? 0 }
      }

      const conditions = filterConditions(sql, query)
      const all = and(sql, Object.values(conditions))
      /** Every filter but one: what a choice of that filter would leave. */
      const but = (facet: Facet) => and(sql, Object.entries(conditions).filter(([f]) => f !== facet).map(([, c]) => c))
      const words = searchWords(query.q)
      // Each word as the start of a word of the cart's (migration 0014): `% rover%`. Words are
      // letters and digits only, so none holds a LIKE wildcard.
      const matching = words.length ? sql`and ${and(sql, words.map((word) => sql`search_text like lower(${`% ${word}%`})`))}` : sql``
      const counts = (facet: Facet, choices: readonly unknown[], choice: (value: never) => ReturnType<Sql>) => sql`
        select json_build_array(${choices.map((value, i) => sql`${i ? sql`,` : sql``} count(*) filter (where ${choice(value as never)})::int`)})
        from base where ${but(facet)}
      `
      const [row] = await sql<[{ carts: GolfCart[]; total: number; facets: RawFacets | null }]>`
        with base as materialized (
          select id, slug, title, description, price, image_url, category, status, listed_at,
                 make_key, effective_make, effective_seats, effective_battery, street_legal, lifted
          from golf_carts where ${listed} ${matching}
        ),
        page as (
          select *, row_number() over (order by ${order}) as position
          from base where ${all} order by ${order} ${page}
        )
        select
          (select coalesce(json_agg(json_build_object(
              'id', id, 'slug', slug, 'title', title, 'description', description, 'price', price::float8,
              'image_url', image_url, 'category', category, 'status', status,
              'photo', (select ${sql.unsafe(photoJson)} from cart_photos p where p.cart_id = page.id order by p.position, p.id limit 1)
            ) order by position), '[]') from page) as carts,
          (select count(*)::int from base where ${all}) as total,
          ${
            query.facets
              ? sql`json_build_object(
                  'category', (select coalesce(json_agg(json_build_array(category, n) order by category), '[]')
                    from (select category, count(*)::int as n from base where ${but('category')} group by category) c),
                  'make', (select coalesce(json_agg(json_build_array(make_key, label, n) order by label), '[]')
                    from (select make_key, mode() within group (order by effective_make) as label, count(*)::int as n
                          from base where make_key is not null and ${but('make')} group by make_key) m),
                  'seats', (${counts('seats', seatChoices, (n: number) => sql`effective_seats >= ${n}`)}),
                  'battery', (${counts('battery', batteries, (b: string) => sql`effective_battery = ${b}`)}),
                  'street_legal', (${counts('streetLegal', [true], () => sql`street_legal`)}),
                  'lifted', (${counts('lifted', [true], () => sql`lifted`)}),
                  'max_price', (${counts('maxPrice', priceCeilings, (p: number) => sql`price <= ${p}`)})
                )`
              : sql`null::json`
          } as facets
      `
      const { carts, total, facets } = row
      return { carts, total, ...(facets ? { facets: readFacets(facets) } : {}) }
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

type RawFacets = {
  category: [string, number][]
  make: [string, string, number][]
  seats: number[]
  battery: number[]
  streetLegal: [number]
  lifted: [number]
  maxPrice: number[]
}

function readFacets(raw: RawFacets): CartFacets {
  return {
    category: raw.category.map(([value, count]) => ({ value, count })),
    make: raw.make.map(([value, label, count]) => ({ value, label, count })),
    seats: seatChoices.map((value, i) => ({ value, count: raw.seats[i] ?? 0 })),
    battery: batteries.map((value, i) => ({ value, count: raw.battery[i] ?? 0 })),
    streetLegal: raw.streetLegal[0],
    lifted: raw.lifted[0],
    maxPrice: priceCeilings.map((value, i) => ({ value, count: raw.maxPrice[i] ?? 0 })),
  }
}

/** Each filter of the search as a condition on the effective facts (migration 0010). */
function filterConditions(sql: Sql, search: CartSearch): Partial<Record<Facet, ReturnType<Sql>>> {
  const conditions: Partial<Record<Facet, ReturnType<Sql>>> = {}
  if (!anyCategory(search.category)) conditions.category = sql`category = ${search.category!}`
  if (search.make?.length) conditions.make = sql`make_key in ${sql(search.make)}`
  if (search.seats !== undefined) conditions.seats = sql`effective_seats >= ${search.seats}`
  if (search.battery) conditions.battery = sql`effective_battery = ${search.battery}`
  if (search.streetLegal) conditions.streetLegal = sql`street_legal`
  if (search.lifted) conditions.lifted = sql`lifted`
  if (search.minPrice !== undefined) conditions.minPrice = sql`price >= ${search.minPrice}`
  if (search.maxPrice !== undefined) conditions.maxPrice = sql`price <= ${search.maxPrice}`
  return conditions
}

function and(sql: Sql, conditions: ReturnType<Sql>[]) {
  return conditions.reduce((all, condition) => sql`${all} and ${condition}`, sql`true`)
}

/** Holds after available carts, whatever the sort (PRODUCT.md); ties broken by id. */
function sortOrder(sql: Sql, sort: CartSort | undefined) {
  switch (sort) {
    case 'price-asc':
      return sql`status = 'hold', price, id`
    case 'price-desc':
      return sql`status = 'hold', price desc, id`
    case 'newest':
      return sql`status = 'hold', listed_at desc, id desc`
    default:
      return sql`status = 'hold', id`
  }
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
