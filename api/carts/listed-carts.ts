import type { BatteryKind } from '../../domain/cart-values.ts'
import type { ListedCart } from '../../domain/cart-search.ts'
import type { GolfCart } from '../../domain/golf-cart.ts'
import type { Changes } from '../db/changes.ts'
import type { Sql } from '../db/database.ts'

/**
 * The listed carts (available and held), read in one statement and searched in memory
 * (domain/cart-search.ts), so a filtered page with its facets costs a pass over an array instead
 * of a statement that scans the inventory once per filter: at 10,000 carts that statement kept
 * the embedded database busy for tens of milliseconds a request, and 20 at once queued past the
 * read deadline (issue #31).
 *
 * Kept between requests only while this process hears every change (`changes.listening`: its
 * own writes at once, other processes' through the database's notices, as the answer cache
 * does; api/db/changes.ts); a change drops it and the next search reads it again. A read under
 * way when a change arrives still answers the requests that were waiting for it, and is not kept.
 */
export function createListedCarts(sql: Sql, read: (sql: Sql) => Promise<GolfCartRow[]>, changes?: Changes) {
  let kept: Promise<ListedCart[]> | undefined
  changes?.onChange(() => {
    kept = undefined
  })

  const load = async (): Promise<ListedCart[]> => (await read(sql)).map(toListed)

  return {
    get(): Promise<ListedCart[]> {
      if (kept) return kept
      const loading = load()
      if (changes?.listening) {
        kept = loading
        // A failed read is not kept: the next search tries again.
        loading.catch(() => {
          if (kept === loading) kept = undefined
        })
      }
      return loading
    },
  }
}

/** A listed cart as read: the answer's columns and what it is searched by. */
export type GolfCartRow = GolfCart & {
  listedAt: Date
  makeKey: string | null
  effectiveMake: string | null
  effectiveSeats: number | null
  effectiveBattery: BatteryKind | null
  streetLegal: boolean
  lifted: boolean
  searchText: string
}

function toListed(row: GolfCartRow): ListedCart {
  const { listedAt, makeKey, effectiveMake, effectiveSeats, effectiveBattery, streetLegal, lifted, searchText, ...cart } = row
  return {
    cart,
    status: cart.status as ListedCart['status'],
    price: cart.price,
    listedAt: listedAt.getTime(),
    category: cart.category,
    makeKey,
    make: effectiveMake,
    seats: effectiveSeats,
    battery: effectiveBattery,
    streetLegal,
    lifted,
    location: cart.location,
    searchText,
  }
}
