import { type CartStatus, type DerivedFacts, derivedFacts } from '../../domain/cart-facts.ts'
import { type CartRecord, type CartRecordField, cartRecordFields } from '../../domain/cart-record.ts'
import type { FieldIssue } from '../../domain/inquiry.ts'
import type { StaffPhoto } from '../../domain/photos.ts'
import { insertCart } from '../carts/cart-store.ts'
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
  featured: boolean
  imageUrl: string
  listedAt: string
  updatedAt: string
  version: number
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
  /** What visitors see where a fact is left empty (SPEC section 3's derivation from the title). */
  derived: DerivedFacts
  /** The cart's photos in order, the cover first (api/photos/photo-store.ts). */
  photos: StaffPhoto[]
}

/** A save refused for one or more fields, shown beside each (the error shape's `issues`). */
export class FieldError extends Error {
  override name = 'FieldError'
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('; '))
  }
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

export function createCartRecords(sql: Sql, onWrite: () => void) {
  const row = sql`
    id, slug, title, stock_number, vin, category as condition, price::float8 as price, status,
    featured, image_url, version, listed_at, updated_at
  `

  async function write<T>(work: (tx: TransactionSql) => Promise<T>): Promise<T> {
    const result = await sql.begin(work)
    onWrite()
    return result as T
  }

  /** A one-field change made from the list: price, status or featured. */
  function setField<F extends 'price' | 'status' | 'featured'>(field: F) {
    return (actor: Actor, id: number, value: CartRecord[F]): Promise<StaffCart> =>
      write(async (tx) => {
        const before = await lockedRecord(tx, id)
        await tx`update golf_carts set ${tx({ [field]: value } as Record<string, never>)} where id = ${id}`
        const after = (await readRecord(tx, id))!
        await recordChanges(tx, actor, 'cart', id, changedFields(before, after, [field]))
        return after
      })
  }

  return {
    async list(query: StaffCartQuery): Promise<{ carts: StaffCartRow[]; total: number }> {
      const words = (query.q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8)
      const conditions = [
        ...(query.status ? [sql`status = ${query.status}`] : []),
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

    /** Adds a cart (no `id`) or replaces every field of one, refusing a stale `version`. */
    save(actor: Actor, cart: { id?: number; version?: number; record: CartRecord }): Promise<StaffCart> {
      const { record } = cart
      return write(async (tx) => {
        await refuseDuplicates(tx, record, cart.id)
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
        await tx`
          update golf_carts set ${tx({ ...rest, category: condition } as Record<string, unknown>, [...recordFields.filter((f) => f !== 'condition'), 'category'] as never)}
          where id = ${cart.id}
        `.catch(duplicateAsFieldError)
        const after = (await readRecord(tx, cart.id))!
        await recordChanges(tx, actor, 'cart', cart.id, changedFields(before, after, recordFields))
        return after
      })
    },

    setPrice: setField('price'),
    setStatus: setField('status'),
    setFeatured: setField('featured'),

    /** Deletes a cart; its audit rows stay, with the whole record as it was. */
    remove(actor: Actor, id: number): Promise<void> {
      return write(async (tx) => {
        const before = await lockedRecord(tx, id)
        await tx`delete from golf_carts where id = ${id}`
        await recordChanges(tx, actor, 'cart', id, [{ action: 'delete', before: snapshot(before) }])
      })
    },
  }
}

export type CartRecords = ReturnType<typeof createCartRecords>

async function readRecord(sql: Sql | TransactionSql, id: number, lock = false): Promise<StaffCart | undefined> {
  const [cart] = await sql<Timestamped<Omit<StaffCart, 'derived'>, 'listedAt' | 'updatedAt' | 'soldAt'>[]>`
    select id, slug, title, description, price::float8 as price, image_url, category as condition,
      status, featured, year, make, model, trim, vin, serial_number, stock_number, color, seats,
      battery, street_legal, lifted, msrp::float8 as msrp, version, listed_at, updated_at, sold_at,
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

/** A stock number or VIN another cart has, named with that cart, beside the field. */
async function refuseDuplicates(tx: TransactionSql, record: CartRecord, id: number | undefined): Promise<void> {
  if (!record.stockNumber && !record.vin) return
  const others = await tx<{ title: string; stockNumber: string; vin: string | null }[]>`
    select title, stock_number, vin from golf_carts
    where (stock_number = ${record.stockNumber ?? ''} or vin = ${record.vin ?? ''}) and id <> ${id ?? 0}
  `
  const issues: FieldIssue[] = []
  const byStock = others.find((o) => o.stockNumber === record.stockNumber)
  const byVin = others.find((o) => record.vin && o.vin === record.vin)
  if (byStock) issues.push({ path: 'stockNumber', message: `Stock number ${record.stockNumber} is already used by "${byStock.title}"` })
  if (byVin) issues.push({ path: 'vin', message: `This VIN is already on "${byVin.title}"` })
  if (issues.length > 0) throw new FieldError(issues)
}

/** Two saves racing for one stock number or VIN: the loser hears it like any duplicate. */
function duplicateAsFieldError(error: unknown): never {
  const constraint = (error as { code?: string; constraint_name?: string }).code === '23505' ? (error as { constraint_name?: string }).constraint_name : undefined
  if (constraint === 'golf_carts_stock_number_key') throw new FieldError([{ path: 'stockNumber', message: 'This stock number was just given to another cart' }])
  if (constraint === 'golf_carts_vin_key') throw new FieldError([{ path: 'vin', message: 'This VIN was just given to another cart' }])
  throw error
}

export type { AuditChange }
