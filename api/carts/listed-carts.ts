import { searchFacts } from '../../domain/cart-facts.ts'
import { makeKey } from '../../domain/cart-query.ts'
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
 * does; api/db/changes.ts). After a change the next search brings them up to date before it
 * answers, so nobody is shown a list older than a change they could have seen:
 *
 * - a change to `golf_carts` alone (a price, a status, a sale, an import) costs one light
 *   statement, every listed cart's id and version, and a read of only the carts whose version
 *   moved (or that are new to the list); those that left it are dropped. A whole re-read of
 *   10,000 carts held the embedded database 0.5-2 s, and with a price saved every 200 ms the
 *   re-reads ran back to back until a staff save waited past its deadline;
 * - any other change (photos: the cover is part of a listed cart; a notice without a table; the
 *   notices starting again after a reconnect) reads them all again.
 *
 * A read under way when a change arrives still answers the requests that were waiting for it,
 * but the next search reads again.
 */
export function createListedCarts(sql: Sql, read: (sql: Sql, ids?: readonly number[]) => Promise<GolfCartRow[]>, changes?: Changes) {
  /** The carts as last read, and how many changes they include (`heard` counts every change heard). */
  let kept: { carts: Kept; seen: number } | undefined
  let heard = 0
  let readAll = true
  let reading: { seen: number; done: Promise<Kept> } | undefined
  changes?.onChange((table) => {
    heard++
    if (table !== 'golf_carts') readAll = true
  })

  const loadAll = async (): Promise<Kept> => keep(await read(sql))

  /** Brings `before` up to date: the carts whose version moved, those new to the list, none that left it. */
  const update = async (before: Kept): Promise<Kept> => {
    const now = await sql<{ id: number; version: number }[]>`select id, version from golf_carts where status in ('available', 'hold') order by id`
    const moved = new Set(now.filter((row) => before.versions.get(row.id) !== row.version).map((row) => row.id))
    // Nothing moved and nothing left (the database's notice of a write this process has already
    // heard): the same list, so what searches made of it (domain/cart-search.ts) is kept too.
    if (moved.size === 0 && now.length === before.carts.length) return before
    // Most of the list changed (a large import): one read of everything is the cheaper way.
    if (moved.size > now.length / 4) return loadAll()
    const fresh = new Map((moved.size ? await read(sql, [...moved]) : []).map((row) => [row.id, row]))
    const carts: ListedCart[] = []
    const versions = new Map<number, number>()
    for (const { id, version } of now) {
      const row = fresh.get(id)
      if (row) {
        carts.push(toListed(row))
        versions.set(id, row.version)
      } else if (!moved.has(id)) {
        carts.push(before.byId.get(id)!)
        versions.set(id, version)
      }
      // Moved but not read again: it left the list between the two statements.
    }
    return { carts, byId: new Map(carts.map((cart) => [cart.cart.id, cart])), versions }
  }

  return {
    async get(): Promise<ListedCart[]> {
      if (!changes?.listening) return (await loadAll()).carts
      if (kept && kept.seen === heard) return kept.carts.carts
      if (reading && reading.seen === heard) return (await reading.done).carts
      const seen = heard
      const whole = readAll || !kept
      readAll = false
      const done = whole ? loadAll() : update(kept!.carts)
      reading = { seen, done }
      try {
        const carts = await done
        if (!kept || seen >= kept.seen) kept = { carts, seen }
        return carts.carts
      } catch (error) {
        // Not kept: the next search tries again, the whole list if this was one.
        if (whole) readAll = true
        throw error
      } finally {
        if (reading?.done === done) reading = undefined
      }
    },
  }
}

/** The listed carts as kept: in id order, each by its id, and the version each was read at. */
interface Kept {
  carts: ListedCart[]
  byId: Map<number, ListedCart>
  versions: Map<number, number>
}

function keep(rows: GolfCartRow[]): Kept {
  const carts = rows.map(toListed)
  return { carts, byId: new Map(carts.map((cart) => [cart.cart.id, cart])), versions: new Map(rows.map((row) => [row.id, row.version])) }
}

/** A listed cart as read: the answer's columns and what it is searched by. */
export type GolfCartRow = GolfCart & {
  /** The record's version (migration 0007): what an update of the kept carts compares. */
  version: number
  /** The record's own make, model, seats and battery (null: left empty); `searchFacts` fills them in. */
  storedMake: string | null
  storedModel: string | null
  storedSeats: number | null
  storedBattery: BatteryKind | null
  streetLegal: boolean
  lifted: boolean
  searchText: string
}

/** A row as searched (domain/cart-search.ts); also how the alerts match a new cart to watched searches. */
export function toListed(row: GolfCartRow): ListedCart {
  const { version: _version, storedMake, storedModel, storedSeats, storedBattery, streetLegal, lifted, searchText, ...cart } = row
  const facts = searchFacts({ title: cart.title, make: storedMake, model: storedModel, seats: storedSeats, battery: storedBattery })
  return {
    cart,
    status: cart.status as ListedCart['status'],
    price: cart.price,
    listedAt: Date.parse(cart.listedAt),
    category: cart.category,
    makeKey: facts.make === null ? null : makeKey(facts.make) || null,
    make: facts.make,
    seats: facts.seats,
    battery: facts.battery,
    streetLegal,
    lifted,
    location: cart.location,
    searchText,
  }
}
