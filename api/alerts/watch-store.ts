import { randomBytes } from 'node:crypto'
import { alertRules, describeSearch, searchKey, type WatchedSearch } from '../../domain/cart-alerts.ts'
import { readCartSearch } from '../../domain/cart-query.ts'
import type { CartStatus } from '../../domain/cart-values.ts'
import { paths } from '../../domain/site-paths.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { FieldError } from '../http/errors.ts'
import { defaultPushServiceHosts, pushEndpoint } from '../leads/push-endpoints.ts'
import type { PushSubscriptionInput } from '../leads/staff-alerts.ts'
import { vapidKeys } from '../leads/web-push.ts'

/**
 * Shoppers' watches (PRODUCT.md, "watching a cart or a search"): asking for one by email (kept
 * unconfirmed, its confirmation queued in the outbox in the same transaction: double opt-in),
 * following the confirmation link, one-click unsubscribing, and a browser's push watch. What is
 * sent later is decided by api/alerts/alert-dispatch.ts.
 */
export type WatchSubject = { cartId: number; query?: undefined } | { cartId?: undefined; query: WatchedSearch }

/** What a confirmation or unsubscribe link's page shows: the watch's state and what it is about. */
export interface WatchLink {
  /** `unknown`: no watch has this link (never, expired unconfirmed, or unsubscribed). */
  state: 'pending' | 'confirmed' | 'ended' | 'unknown'
  subject?: WatchLinkSubject
}

export type WatchLinkSubject =
  | { kind: 'cart'; title: string; slug: string; price: number; status: CartStatus; href: string }
  | { kind: 'search'; description: string; href: string }

interface WatchRow {
  id: number
  cartId: number | null
  search: WatchedSearch | null
  confirmedAt: Date | null
  endedAt: Date | null
  createdAt: Date
  title: string | null
  slug: string | null
  price: number | null
  status: CartStatus | null
}

/** A random link token: 256 bits, as base64url. */
const token = () => randomBytes(32).toString('base64url')

/** A cart can be watched while visitors can buy it: listed, available or on hold. */
const notWatchable = new FieldError([{ path: 'cartId', message: 'This cart is no longer for sale, so there is nothing to watch: see the carts in stock instead.' }])

export function createWatchStore(sql: Sql, options: { onQueued?(): void; pushServiceHosts?: readonly string[] } = {}) {
  const pushServiceHosts = options.pushServiceHosts ?? defaultPushServiceHosts
  const confirmWithinMs = alertRules.confirmWithinDays * 24 * 60 * 60 * 1000

  /** The watch behind a link, with its cart, locked when asked (inside a transaction). */
  const byLink = async (db: Sql | TransactionSql, column: 'confirm_token' | 'unsubscribe_token', value: string, lock = false) => {
    const [row] = await db<WatchRow[]>`
      select w.id, w.cart_id, w.search, w.confirmed_at, w.ended_at, w.created_at,
             c.title, c.slug, c.price::float8 as price, c.status
      from cart_watches w left join golf_carts c on c.id = w.cart_id
      where ${db(column)} = ${value}
      ${lock ? db`for update of w` : db``}
    `
    return row
  }

  const describe = (row: WatchRow | undefined): WatchLink => {
    if (!row) return { state: 'unknown' }
    const pendingExpired = !row.confirmedAt && Date.now() - row.createdAt.getTime() > confirmWithinMs
    if (pendingExpired) return { state: 'unknown' }
    const state = row.endedAt ? 'ended' : row.confirmedAt ? 'confirmed' : 'pending'
    if (row.cartId !== null && row.slug !== null) {
      return {
        state,
        subject: { kind: 'cart', title: row.title!, slug: row.slug, price: row.price!, status: row.status!, href: paths.vehicle(row.slug) },
      }
    }
    const search = readCartSearch(row.search ?? {}).search
    return { state, subject: { kind: 'search', description: describeSearch(search), href: paths.inventorySearch(search) } }
  }

  /** The cart's price and status if a shopper may watch it, else the field's refusal. */
  const watchableCart = async (db: Sql | TransactionSql, cartId: number) => {
    const [cart] = await db<{ price: number; status: CartStatus }[]>`
      select price::float8 as price, status from golf_carts where id = ${cartId} and status in ('available', 'hold')
    `
    if (!cart) throw notWatchable
    return cart
  }

  return {
    /**
     * An email watch: stored unconfirmed, with its confirmation email queued in the same
     * transaction. Nothing else is ever sent to the address until its link is followed. Asking
     * again for a watch that exists sends nothing more than one confirmation a day (and nothing
     * once it is confirmed), and an address gets at most `confirmationsPerDay` confirmations a day
     * however many watches it is given, so the form cannot be used to flood someone's inbox. The
     * answer is the same in every case: whether an address watches something is never told.
     */
    async request(email: string, subject: WatchSubject): Promise<void> {
      const key = subject.query ? searchKey(subject.query) : null
      const queued = await sql.begin(async (tx) => {
        if (subject.cartId !== undefined) await watchableCart(tx, subject.cartId)
        const [sentToday] = await tx<[{ n: number }]>`
          select count(*)::int as n from outbox_messages o join cart_watches w on w.id = o.watch_id
          where o.kind = 'watch-confirm' and lower(w.email) = lower(${email}) and o.created_at > now() - interval '1 day'
        `
        if ((sentToday?.n ?? 0) >= alertRules.confirmationsPerDay) return false
        const [added] = await tx<{ id: number }[]>`
          insert into cart_watches (email, cart_id, search, search_key, confirm_token, unsubscribe_token)
          values (${email}, ${subject.cartId ?? null}, ${subject.query ? tx.json(subject.query) : null}, ${key}, ${token()}, ${token()})
          on conflict do nothing
          returning id
        `
        let watchId = added?.id
        if (watchId === undefined) {
          // Asked before: a confirmation again only for one still unconfirmed, at most once a day.
          const [pending] = await tx<{ id: number }[]>`
            select w.id from cart_watches w
            where lower(w.email) = lower(${email}) and w.confirmed_at is null
              and ${subject.cartId !== undefined ? tx`w.cart_id = ${subject.cartId}` : tx`w.search_key = ${key}`}
              and not exists (
                select 1 from outbox_messages o where o.watch_id = w.id and o.kind = 'watch-confirm' and o.created_at > now() - interval '1 day'
              )
            for update
          `
          if (!pending) return false
          // A fresh start for the link: a week from now.
          await tx`update cart_watches set created_at = now() where id = ${pending.id}`
          watchId = pending.id
        }
        await tx`insert into outbox_messages (watch_id, kind) values (${watchId}, 'watch-confirm')`
        return true
      })
      if (queued) options.onQueued?.()
    },

    /** What a link is about and where its watch stands, for its page. */
    async link(purpose: 'confirm' | 'unsubscribe', value: string): Promise<WatchLink> {
      return describe(await byLink(sql, purpose === 'confirm' ? 'confirm_token' : 'unsubscribe_token', value))
    },

    /**
     * Follows a confirmation link: the watch starts from what the cart is now (an alert is a
     * price below this one, or its hold ending). A second use changes nothing and says so; a
     * link older than a week, or of a cart sold meanwhile, confirms nothing.
     */
    async confirm(value: string): Promise<WatchLink> {
      return sql.begin(async (tx) => {
        const row = await byLink(tx, 'confirm_token', value, true)
        const link = describe(row)
        if (link.state !== 'pending' || (link.subject?.kind === 'cart' && link.subject.status === 'sold')) return link
        await tx`
          update cart_watches set confirmed_at = now(),
            told_price = (select price from golf_carts where id = cart_watches.cart_id),
            told_status = (select status from golf_carts where id = cart_watches.cart_id)
          where id = ${row!.id}
        `
        return { ...link, state: 'confirmed' as const }
      })
    },

    /**
     * One-click unsubscribe (RFC 8058) or the email's plain link: the watch and its address are
     * deleted at once, with whatever it still had queued. Returns what it was about.
     */
    async unsubscribe(value: string): Promise<WatchLink> {
      return sql.begin(async (tx) => {
        const row = await byLink(tx, 'unsubscribe_token', value, true)
        if (!row) return { state: 'unknown' as const }
        await tx`delete from cart_watches where id = ${row.id}`
        return { ...describe({ ...row, confirmedAt: row.confirmedAt ?? new Date() }), state: 'ended' as const }
      })
    },

    /**
     * A browser's watch by Web Push: confirmed at once (the browser asked its visitor for
     * permission), starting from what the cart is now. The same browser asking again keeps one
     * watch. Only on a browser's push service (`PUSH_SERVICE_HOSTS`, as for staff browsers), so
     * nobody can make the server post to an address of their choosing.
     */
    async watchInBrowser(subscription: PushSubscriptionInput, subject: WatchSubject): Promise<void> {
      const checked = pushEndpoint(subscription.endpoint, pushServiceHosts)
      if ('problem' in checked) throw new FieldError([{ path: 'subscription.endpoint', message: checked.problem }])
      const { endpoint } = checked
      const { keys } = subscription
      await sql.begin(async (tx) => {
        const cart = subject.cartId !== undefined ? await watchableCart(tx, subject.cartId) : undefined
        const key = subject.query ? searchKey(subject.query) : null
        const values = tx`
          (${endpoint}, ${keys.p256dh}, ${keys.auth}, ${subject.cartId ?? null}, ${subject.query ? tx.json(subject.query) : null},
           ${key}, ${token()}, now(), ${cart?.price ?? null}, ${cart?.status ?? null})
        `
        const target =
          subject.cartId !== undefined
            ? tx`(push_endpoint, cart_id) where push_endpoint is not null and cart_id is not null`
            : tx`(push_endpoint, search_key) where push_endpoint is not null and search_key is not null`
        await tx`
          insert into cart_watches (push_endpoint, push_p256dh, push_auth, cart_id, search, search_key, unsubscribe_token, confirmed_at, told_price, told_status)
          values ${values}
          on conflict ${target} do update set push_p256dh = excluded.push_p256dh, push_auth = excluded.push_auth
        `
      })
    },

    /** The server's VAPID public key: a shopper's browser subscribes with the one staff browsers use. */
    async pushKey(): Promise<string> {
      return (await vapidKeys(sql)).publicKey
    },

    /** This browser no longer watches this cart or search. */
    async stopInBrowser(given: string, subject: WatchSubject): Promise<void> {
      const checked = pushEndpoint(given, pushServiceHosts)
      const endpoint = 'endpoint' in checked ? checked.endpoint : given
      await sql`
        delete from cart_watches where push_endpoint = ${endpoint}
          and ${subject.cartId !== undefined ? sql`cart_id = ${subject.cartId}` : sql`search_key = ${searchKey(subject.query)}`}
      `
    },
  }
}

export type WatchStore = ReturnType<typeof createWatchStore>
