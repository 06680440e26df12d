import type { CartStatus } from '../../domain/cart-facts.ts'
import type { CartPhoto } from '../../domain/photos.ts'
import type { Sql } from '../db/database.ts'
import { type Actor, recordChanges } from './audit.ts'
import { NoSuchCartError } from './cart-records.ts'

/**
 * The order of the featured carts (PRODUCT.md, "featured": staff choose it; the home page shows
 * the first three). Every featured cart is listed, whatever its status, so staff see the whole
 * set: one on hold, sold or in draft keeps its place but is not shown to visitors until it is
 * available again (api/carts/cart-store.ts, `featured`).
 */
export interface FeaturedCart {
  id: number
  title: string
  stockNumber: string
  status: CartStatus
  price: number
  /** Its place in the order chosen; null for a cart featured since, which comes after them. */
  place: number | null
  cover: Pick<CartPhoto, 'key' | 'widths'> | null
}

/** A cart in the order given is not featured: the order is of the featured set only. */
export class NotFeaturedError extends Error {
  override name = 'NotFeaturedError'
}

export function createFeaturedOrder(sql: Sql, onWrite: () => void) {
  const read = () => sql<FeaturedCart[]>`
    select g.id, g.title, g.stock_number, g.status, g.price::float8 as price, f.place,
      (select json_build_object('key', p.key, 'widths', p.widths) from cart_photos p
        where p.cart_id = g.id order by p.position, p.id limit 1) as cover
    from golf_carts g left join featured_order f on f.cart_id = g.id
    where g.featured
    order by f.place nulls last, g.id
  `

  return {
    /** Every featured cart in its order. */
    list: async (): Promise<FeaturedCart[]> => [...(await read())],

    /**
     * Puts the featured carts in the order of `ids` (the first is shown first); featured carts
     * left out come after them. Each cart whose place changed has a line in the audit log.
     */
    async set(actor: Actor, ids: readonly number[]): Promise<FeaturedCart[]> {
      await sql.begin(async (tx) => {
        // One order at a time: two people ordering at once end with one of the two orders whole.
        await tx`lock table featured_order in exclusive mode`
        const carts = await tx<{ id: number; title: string; featured: boolean; place: number | null }[]>`
          select g.id, g.title, g.featured, f.place from golf_carts g left join featured_order f on f.cart_id = g.id
          where g.id in ${tx(ids as number[])} order by g.id for update of g
        `
        const byId = new Map(carts.map((cart) => [cart.id, cart]))
        const missing = ids.find((id) => !byId.has(id))
        if (missing !== undefined) throw new NoSuchCartError(missing)
        const unfeatured = ids.map((id) => byId.get(id)!).find((cart) => !cart.featured)
        if (unfeatured) throw new NotFeaturedError(`“${unfeatured.title}” is not featured: feature it first, then give it its place.`)
        const before = await tx<{ cartId: number; place: number }[]>`select cart_id, place from featured_order`
        await tx`delete from featured_order`
        await tx`insert into featured_order ${tx(ids.map((id, i) => ({ cart_id: id, place: i + 1 })))}`
        const placeOf = new Map(before.map((row) => [row.cartId, row.place]))
        const moved = [...new Set([...placeOf.keys(), ...ids])]
        for (const id of moved) {
          const was = placeOf.get(id) ?? null
          const now = ids.indexOf(id) + 1 || null
          if (was !== now) await recordChanges(tx, actor, 'cart', id, [{ action: 'update', field: 'featured place', before: was, after: now }])
        }
      })
      onWrite()
      return [...(await read())]
    },
  }
}

export type FeaturedOrder = ReturnType<typeof createFeaturedOrder>
