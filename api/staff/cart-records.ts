import { type CartStatus, type DerivedFacts, derivedFacts } from '../../domain/cart-facts.ts'
import { type CartRecord, type CartRecordField, cartRecordFields, cartRecordInput } from '../../domain/cart-record.ts'
import type { CartPhoto, StaffPhoto } from '../../domain/photos.ts'
import { normalizeVin } from '../../domain/vin.ts'
import { chooseSlug, insertCart } from '../carts/cart-store.ts'
import { FieldError, fieldIssues } from '../http/errors.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { type Actor, type AuditChange, changedFields, recordChanges } from './audit.ts'

/**
 * The console's reads and writes of carts. Every write runs in one transaction with its audit
 * rows, then tells the visitors' caches (`onWrite`), so a change shows on the site at once.
 */
export const staffSorts = ['newest', 'oldest', 'updated', 'title', 'price-asc', 'price-desc', 'stock'] as const
export type StaffSort = (typeof staffSorts)[number]

export interface StaffCartQuery {
  /** Words that must each appear in the title, stock number, VIN, make or model. */
  q?: string
  status?: CartStatus
  /** A showroom's key: only the carts standing there. */
  location?: string
  sort?: StaffSort
  limit: number
  offset?: number
}

/** One row of the console's inventory table. */
export interface StaffCartRow {
  id: number
  slug: string
  title: string
  stockNumber: string
  vin: string | null
  condition: string
  price: number
  status: CartStatus
  location: string
  featured: boolean
  imageUrl: string | null
  make: string | null
  model: string | null
  /** The cover photo, for the list's thumbnail; null for a cart without photos (its drawing then). */
  cover: Pick<CartPhoto, 'key' | 'widths'> | null
  listedAt: string
  updatedAt: string
  version: number
  /** Shoppers watching it (confirmed price alerts, by email or push): the demand a dealer prices by. */
  watchers: number
}

/** A cart as the console's form edits it: the whole record, and what the title derives. */
export interface StaffCart extends Omit<CartRecord, 'stockNumber' | 'condition'> {
  id: number
  slug: string
  /** Always set: the trigger gives a cart without one `GC-<id>`. */
  stockNumber: string
  /** SPEC's category; `new` or `used` for every cart the console saved. */
  condition: string
  version: number
  listedAt: string
  updatedAt: string
  soldAt: string | null
  /** Shoppers watching it (confirmed price alerts, by email or push). */
  watchers: number
  /** What visitors see where a fact is left empty (SPEC section 3's derivation from the title). */
  derived: DerivedFacts
  /** The cart's photos in order, the cover first (api/photos/photo-store.ts). */
  photos: StaffPhoto[]
}


/** The list's row would sell a cart without the sale being confirmed: nothing was saved. */
export class SaleUnconfirmedError extends Error {
  override name = 'SaleUnconfirmedError'
}

/** The cart changed since the console loaded it: saving would undo someone else's change. */
export class StaleVersionError extends Error {
  override name = 'StaleVersionError'
}

export class NoSuchCartError extends Error {
  override name = 'NoSuchCartError'
  constructor(readonly id: number) {
    super(`No golf cart has the id ${id}`)
  }
}

const recordFields = Object.keys(cartRecordFields) as CartRecordField[]

/** What one row of the console's list changes; fields left out keep their values. */
export interface RowChange {
  price?: number
  status?: CartStatus
  featured?: boolean
  /** The version the list showed: a row saved over someone else's change is refused. */
  version?: number
  /** A sale from the list is asked first (PRODUCT.md: Sold asks for confirmation); this is the yes. */
  confirmSale?: boolean
}
const rowFields = ['price', 'status', 'featured'] as const

/** A cart's watchers: confirmed watches that have not ended (api/alerts/, migration 0040). */
const watcherCount = (sql: Sql | TransactionSql) => sql`
  (select count(*)::int from cart_watches w where w.cart_id = golf_carts.id and w.confirmed_at is not null and w.ended_at is null) as watchers
`

export function createCartRecords(sql: Sql, onWrite: () => void) {
  const row = sql`
    id, slug, title, stock_number, vin, category as condition, price::float8 as price, status,
    location, featured, image_url, make, model, version, listed_at, updated_at, ${watcherCount(sql)},
    (select json_build_object('key', p.key, 'widths', p.widths) from cart_photos p
      where p.cart_id = golf_carts.id order by p.position, p.id limit 1) as cover
  `

  async function write<T>(work: (tx: TransactionSql) => Promise<T>): Promise<T> {
    const result = await sql.begin(work)
    onWrite()
    return result as T
  }

  /**
   * The list's row save: price, status and featured of one cart in one transaction, so a row is
   * saved whole or not at all (a price never saves while its status is refused). Only the fields
   * that changed are written and audited.
   */
  function saveRow(actor: Actor, id: number, change: RowChange): Promise<StaffCart> {
    return write((tx) => changeRow(tx, actor, id, change))
  }

  /** One cart's row change inside a transaction: the row save's, and each of a bulk change's. */
  async function changeRow(tx: TransactionSql, actor: Actor, id: number, change: RowChange): Promise<StaffCart> {
    const before = await lockedRecord(tx, id)
    if (change.version !== undefined && change.version !== before.version) {
      throw new StaleVersionError('Someone changed this cart after the list was loaded. Its row shows their change now; make yours again.')
    }
    const fields = rowFields.filter((field) => change[field] !== undefined && change[field] !== before[field])
    if (fields.length === 0) return before
    if (fields.includes('status') && change.status === 'sold' && !change.confirmSale) {
      throw new SaleUnconfirmedError(`Confirm the sale of "${before.title}" first: a sold cart leaves every list at once.`)
    }
    await tx`update golf_carts set ${tx(change as Record<string, never>, fields)} where id = ${id}`
    const after = (await readRecord(tx, id))!
    await recordChanges(tx, actor, 'cart', id, changedFields(before, after, fields))
    return after
  }

  async function removeOne(tx: TransactionSql, actor: Actor, id: number): Promise<void> {
    const before = await lockedRecord(tx, id)
    await tx`delete from golf_carts where id = ${id}`
    await recordChanges(tx, actor, 'cart', id, [{ action: 'delete', before: snapshot(before) }])
  }

  /** Several carts, each once and locked in id order, so two bulk changes never wait on each other in a circle. */
  const inOrder = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b)

  return {
    async list(query: StaffCartQuery): Promise<{ carts: StaffCartRow[]; total: number }> {
      const words = (query.q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8)
      const conditions = [
        ...(query.status ? [sql`status = ${query.status}`] : []),
        ...(query.location ? [sql`location = ${query.location}`] : []),
        ...words.map((word) => {
          const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
          return sql`(title ilike ${like} or stock_number ilike ${like} or vin ilike ${like} or make ilike ${like} or model ilike ${like})`
        }),
      ]
      const where = conditions.reduce((acc, condition, i) => (i === 0 ? sql`where ${condition}` : sql`${acc} and ${condition}`), sql``)
      const order = {
        newest: sql`listed_at desc, id desc`,
        oldest: sql`listed_at, id`,
        updated: sql`updated_at desc, id desc`,
        title: sql`title, id`,
        'price-asc': sql`price, id`,
        'price-desc': sql`price desc, id`,
        stock: sql`stock_number`,
      }[query.sort ?? 'newest']
      const [carts, [count]] = await Promise.all([
        sql<Timestamped<StaffCartRow, 'listedAt' | 'updatedAt'>[]>`select ${row} from golf_carts ${where} order by ${order} limit ${query.limit} offset ${query.offset ?? 0}`,
        sql<[{ total: number }]>`select count(*)::int as total from golf_carts ${where}`,
      ])
      return { carts: carts.map((c) => ({ ...c, listedAt: iso(c.listedAt), updatedAt: iso(c.updatedAt) })), total: count?.total ?? 0 }
    },

    get: (id: number) => readRecord(sql, id),

    /**
     * Adds a cart (no `id`) or replaces every field of one, refusing a stale `version`. The
     * record comes as typed: every problem, a duplicate stock number or VIN among them, is
     * refused together in one FieldError, so staff fix everything in one round.
     */
    save(actor: Actor, cart: { id?: number; version?: number; record: unknown }): Promise<StaffCart> {
      return write(async (tx) => {
        const record = await checkedRecord(tx, cart.record, cart.id)
        if (cart.id === undefined) {
          const added = await insertCart(tx, { ...record, category: record.condition }).catch(duplicateAsFieldError)
          const saved = (await readRecord(tx, added.id))!
          await recordChanges(tx, actor, 'cart', added.id, [{ action: 'create', after: snapshot(saved) }])
          return saved
        }
        const before = await lockedRecord(tx, cart.id)
        if (cart.version !== undefined && cart.version !== before.version) {
          throw new StaleVersionError(
            'Someone changed this cart after you opened it. Open it again to see their change, then make yours.',
          )
        }
        const { condition, ...rest } = record
        // A draft was never seen by a visitor: its address follows its title until it is published.
        const slug = before.status === 'draft' && record.title !== before.title ? { slug: await chooseSlug(tx, record.title, cart.id) } : {}
        await tx`
          update golf_carts set ${tx({ ...rest, ...slug, category: condition } as Record<string, unknown>, [...recordFields.filter((f) => f !== 'condition'), 'category', ...Object.keys(slug)] as never)}
          where id = ${cart.id}
        `.catch(duplicateAsFieldError)
        const after = (await readRecord(tx, cart.id))!
        await recordChanges(tx, actor, 'cart', cart.id, changedFields(before, after, recordFields))
        return after
      })
    },

    saveRow,
    setPrice: (actor: Actor, id: number, price: number) => saveRow(actor, id, { price }),
    setStatus: (actor: Actor, id: number, status: CartStatus) => saveRow(actor, id, { status, confirmSale: true }),
    setFeatured: (actor: Actor, id: number, featured: boolean) => saveRow(actor, id, { featured }),

    /**
     * The list's bulk change (issue #30): one status or featured for every cart selected, in one
     * transaction, so all of them change or none does (a cart deleted meanwhile refuses the lot).
     * A sale needs its confirmation, as the row's does.
     */
    saveMany(actor: Actor, ids: readonly number[], change: Pick<RowChange, 'status' | 'featured' | 'confirmSale'>): Promise<StaffCart[]> {
      if (change.status === 'sold' && !change.confirmSale) {
        return Promise.reject(new SaleUnconfirmedError('Confirm the sale first: sold carts leave every list at once.'))
      }
      return write(async (tx) => {
        const saved: StaffCart[] = []
        for (const id of inOrder(ids)) saved.push(await changeRow(tx, actor, id, change))
        return saved
      })
    },

    /** Deletes a cart; its audit rows stay, with the whole record as it was. */
    remove(actor: Actor, id: number): Promise<void> {
      return write((tx) => removeOne(tx, actor, id))
    },

    /** Deletes every cart selected in one transaction, or none of them. */
    removeMany(actor: Actor, ids: readonly number[]): Promise<void> {
      return write(async (tx) => {
        for (const id of inOrder(ids)) await removeOne(tx, actor, id)
      })
    },
  }
}

export type CartRecords = ReturnType<typeof createCartRecords>

async function readRecord(sql: Sql | TransactionSql, id: number, lock = false): Promise<StaffCart | undefined> {
  const [cart] = await sql<Timestamped<Omit<StaffCart, 'derived'>, 'listedAt' | 'updatedAt' | 'soldAt'>[]>`
    select id, slug, title, description, price::float8 as price, image_url, category as condition,
      status, featured, location, year, make, model, trim, vin, serial_number, stock_number, color, seats,
      battery, street_legal, lifted, msrp::float8 as msrp, version, listed_at, updated_at, sold_at, ${watcherCount(sql)},
      coalesce(
        (
          select json_agg(json_build_object(
            'id', p.id, 'cartId', p.cart_id, 'key', p.key, 'position', p.position, 'alt', p.alt,
            'width', p.width, 'height', p.height, 'widths', p.widths, 'bytes', p.bytes
          ) order by p.position, p.id)
          from cart_photos p where p.cart_id = golf_carts.id
        ),
        '[]'::json
      ) as photos
    from golf_carts where id = ${id}
    ${lock ? sql`for update` : sql``}
  `
  return (
    cart && {
      ...cart,
      listedAt: iso(cart.listedAt),
      updatedAt: iso(cart.updatedAt),
      soldAt: cart.soldAt && iso(cart.soldAt),
      derived: derivedFacts(cart.title),
    }
  )
}

/**
 * Times as the driver reads them, made ISO text here: the embedded database's `to_json` of a
 * timestamp costs about a millisecond a value (WASM), which was most of a 50-row page.
 */
type Timestamped<T, K extends keyof T> = Omit<T, K> & { [P in K]: null extends T[P] ? Date | null : Date }
const iso = (value: Date) => value.toISOString()

async function lockedRecord(tx: TransactionSql, id: number): Promise<StaffCart> {
  const cart = await readRecord(tx, id, true)
  if (!cart) throw new NoSuchCartError(id)
  return cart
}

/** The record's fields as the audit log keeps a whole cart. */
function snapshot(cart: StaffCart): Record<string, unknown> {
  return { slug: cart.slug, ...Object.fromEntries(recordFields.map((f) => [f, cart[f]])) }
}

/**
 * The record as typed, checked in one round: the schema's problems and a stock number or VIN
 * another cart has (named with that cart) are refused together, each beside its field.
 */
async function checkedRecord(tx: TransactionSql, raw: unknown, id: number | undefined): Promise<CartRecord> {
  const parsed = cartRecordInput.safeParse(raw)
  const issues = parsed.success ? [] : fieldIssues(parsed.error)
  const typed = (raw ?? {}) as { stockNumber?: unknown; vin?: unknown }
  const unrefused = (path: string) => !issues.some((issue) => issue.path === path)
  const stockNumber = parsed.success ? parsed.data.stockNumber : typeof typed.stockNumber === 'string' && unrefused('stockNumber') ? typed.stockNumber.trim() : null
  const vin = parsed.success ? parsed.data.vin : typeof typed.vin === 'string' && unrefused('vin') ? normalizeVin(typed.vin) : null
  if (stockNumber || vin) {
    const others = await tx<{ title: string; stockNumber: string; vin: string | null }[]>`
      select title, stock_number, vin from golf_carts
      where (stock_number = ${stockNumber ?? ''} or vin = ${vin ?? ''}) and id <> ${id ?? 0}
    `
    const byStock = others.find((o) => stockNumber && o.stockNumber === stockNumber)
    const byVin = others.find((o) => vin && o.vin === vin)
    if (byStock) issues.push({ path: 'stockNumber', message: `Stock number ${stockNumber} is already used by "${byStock.title}"` })
    if (byVin) issues.push({ path: 'vin', message: `This VIN is already on "${byVin.title}"` })
  }
  if (!parsed.success || issues.length > 0) throw new FieldError(issues)
  return parsed.data
}

/** Two saves racing for one stock number or VIN: the loser hears it like any duplicate. */
function duplicateAsFieldError(error: unknown): never {
  const constraint = (error as { code?: string; constraint_name?: string }).code === '23505' ? (error as { constraint_name?: string }).constraint_name : undefined
  if (constraint === 'golf_carts_stock_number_key') throw new FieldError([{ path: 'stockNumber', message: 'This stock number was just given to another cart' }])
  if (constraint === 'golf_carts_vin_key') throw new FieldError([{ path: 'vin', message: 'This VIN was just given to another cart' }])
  throw error
}

export type { AuditChange }
