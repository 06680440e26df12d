import { alertRules, dayMs } from '../../domain/cart-alerts.ts'
import { readCartSearch } from '../../domain/cart-query.ts'
import { searchListedCarts } from '../../domain/cart-search.ts'
import { readListedRows } from '../carts/cart-store.ts'
import { toListed } from '../carts/listed-carts.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { describeError, type Logger } from '../log.ts'

/**
 * What watchers get (PRODUCT.md, "what watchers get"), decided from what the database recorded
 * (migration 0040's trigger on `golf_carts`, whoever made the change) and queued in the outbox,
 * which sends it (api/leads/outbox-worker.ts):
 *
 * - a cart's changes are claimed (`FOR UPDATE SKIP LOCKED`) and, in the same transaction, each
 *   confirmed watch of that cart is compared with what it was last told: a lower price, a hold
 *   that ended, or a sale queues one alert and records what it told (a sale ends the watch);
 * - an address or browser hears about one cart at most once a day: an alert the limit holds back
 *   waits (`deferred_until`) and is compared again then, so it tells what is true by that time;
 * - a newly listed cart is matched against every confirmed search (the inventory's own search,
 *   domain/cart-search.ts); a search's matches go out together in one digest, at most one a day.
 *
 * Watches are locked in id order while they are compared, so two processes handling two changes
 * of one cart take turns and the second sees what the first told: nothing is told twice, and a
 * crash before the commit leaves the changes unclaimed for the next run. A cart put on hold is
 * recorded silently, so its watchers hear when the hold ends. Time is given, not read, so tests
 * can stand a day later.
 */
export interface AlertRun {
  /** Cart changes handled. */
  changes: number
  /** Alerts about one cart queued (price drops, holds ended, sales). */
  alerts: number
  /** Search digests queued. */
  digests: number
}

interface DueWatch {
  id: number
  sentAt: Date | null
}

export function createAlertDispatch(sql: Sql, options: { batch?: number; gatherMs?: number; onQueued?(): void } = {}) {
  const batch = options.batch ?? 1000
  const gatherMs = options.gatherMs ?? alertRules.gatherSeconds * 1000

  /** Compares each confirmed watch of these carts with what it was told, queueing what is due. */
  async function queueCartAlerts(tx: TransactionSql, cartIds: readonly number[], now: Date): Promise<number> {
    if (cartIds.length === 0) return 0
    const ids = tx.array([...cartIds])
    const recipient = tx`coalesce(lower(w.email), 'push:' || w.push_endpoint)`
    const watching = tx`w.cart_id = any(${ids}::int[]) and w.confirmed_at is not null and w.ended_at is null`
    // Every watch of these carts, locked in id order before any is written.
    await tx`select w.id from cart_watches w where ${watching} order by w.id for update`
    // A cart put on hold is not news, but its watchers are to hear when the hold ends.
    await tx`
      update cart_watches w set told_status = 'hold' from golf_carts c
      where c.id = w.cart_id and ${watching} and c.status = 'hold' and w.told_status = 'available'
    `
    const due = await tx<DueWatch[]>`
      select w.id, s.sent_at
      from cart_watches w
      join golf_carts c on c.id = w.cart_id
      left join cart_alert_sends s on s.recipient = ${recipient} and s.cart_id = w.cart_id
      where ${watching}
        and (
          c.status = 'sold'
          or (c.status in ('available', 'hold') and (c.price < w.told_price or (w.told_status = 'hold' and c.status = 'available')))
        )
      order by w.id
    `
    const dayAgo = now.getTime() - dayMs
    const readyIds = due.filter((w) => !w.sentAt || w.sentAt.getTime() <= dayAgo).map((w) => w.id)
    const heldIds = due.filter((w) => w.sentAt && w.sentAt.getTime() > dayAgo).map((w) => w.id)
    const ready = tx.array(readyIds)
    const held = tx.array(heldIds)
    // What is no longer due (the price went back up) stops waiting.
    await tx`
      update cart_watches set deferred_until = null
      where cart_id = any(${ids}::int[]) and deferred_until <= ${now} and not (id = any(${held}::int[]))
    `
    if (heldIds.length > 0) {
      await tx`
        update cart_watches w set deferred_until = s.sent_at + ${dayMs} * interval '1 millisecond'
        from cart_alert_sends s
        where w.id = any(${held}::int[]) and s.recipient = ${recipient} and s.cart_id = w.cart_id
      `
    }
    if (readyIds.length === 0) return 0
    await tx`
      insert into outbox_messages (watch_id, kind, details)
      select w.id, case when w.email is null then 'watch-push' else 'watch-alert' end,
        case
          when c.status = 'sold' then jsonb_build_object('about', 'sold', 'cartId', c.id)
          when c.price < w.told_price then jsonb_build_object(
            'about', 'price-drop', 'cartId', c.id, 'price', c.price, 'was', w.told_price,
            'back', w.told_status = 'hold' and c.status = 'available'
          )
          else jsonb_build_object('about', 'available', 'cartId', c.id, 'price', c.price)
        end
      from cart_watches w join golf_carts c on c.id = w.cart_id
      where w.id = any(${ready}::int[])
      order by w.id
    `
    await tx`
      insert into cart_alert_sends (recipient, cart_id, sent_at)
      select distinct ${recipient}, w.cart_id, ${now}::timestamptz from cart_watches w where w.id = any(${ready}::int[])
      on conflict (recipient, cart_id) do update set sent_at = excluded.sent_at
    `
    await tx`
      update cart_watches w set told_price = c.price, told_status = c.status, last_alert_at = ${now}, deferred_until = null,
        ended_at = case when c.status = 'sold' then ${now}::timestamptz end
      from golf_carts c where c.id = w.cart_id and w.id = any(${ready}::int[])
    `
    return readyIds.length
  }

  /**
   * Newly listed carts against every confirmed search: each match is kept until the search's
   * digest lists it. A search confirmed after a cart was listed does not count that cart as new.
   */
  async function recordMatches(tx: TransactionSql, listed: readonly { cartId: number; at: Date }[], now: Date) {
    if (listed.length === 0) return
    const rows = await readListedRows(tx, [...new Set(listed.map((e) => e.cartId))])
    if (rows.length === 0) return
    const carts = rows.map(toListed)
    const listedAt = new Map(listed.map((e) => [e.cartId, e.at.getTime()]))
    const searches = await tx<{ id: number; search: Record<string, unknown>; confirmedAt: Date }[]>`
      select id, search, confirmed_at from cart_watches where search is not null and confirmed_at is not null and ended_at is null
    `
    const matches: { watch_id: number; cart_id: number; matched_at: Date }[] = []
    for (const watch of searches) {
      const found = searchListedCarts(carts, { ...readCartSearch(watch.search).search, limit: carts.length })
      for (const cart of found.carts) {
        if ((listedAt.get(cart.id) ?? 0) >= watch.confirmedAt.getTime()) matches.push({ watch_id: watch.id, cart_id: cart.id, matched_at: now })
      }
    }
    for (let i = 0; i < matches.length; i += 1000) {
      await tx`insert into cart_watch_matches ${tx(matches.slice(i, i + 1000))} on conflict (watch_id, cart_id) do nothing`
    }
  }

  /** One batch of recorded changes, claimed and answered in one transaction. */
  async function handleChanges(now: Date): Promise<{ changes: number; alerts: number }> {
    return sql.begin(async (tx) => {
      const changes = await tx<{ cartId: number; kind: string; at: Date }[]>`
        update cart_alert_events set handled_at = ${now}
        where id in (select id from cart_alert_events where handled_at is null order by id limit ${batch} for update skip locked)
        returning cart_id, kind, at
      `
      const watched = [...new Set(changes.filter((c) => c.kind !== 'listed').map((c) => c.cartId))]
      const alerts = await queueCartAlerts(tx, watched, now)
      await recordMatches(tx, changes.filter((c) => c.kind === 'listed').map((c) => ({ cartId: c.cartId, at: c.at })), now)
      return { changes: changes.length, alerts }
    })
  }

  /** Alerts the daily limit held back whose time has come. */
  async function handleDeferred(now: Date): Promise<number> {
    const carts = await sql<{ cartId: number }[]>`
      select distinct cart_id from cart_watches where deferred_until <= ${now} and cart_id is not null limit ${batch}
    `
    if (carts.length === 0) return 0
    return sql.begin((tx) => queueCartAlerts(tx, carts.map((c) => c.cartId), now))
  }

  /**
   * Each search whose first new match has gathered `gatherMs` and that sent no digest in the last
   * day: one digest listing every match not listed yet.
   */
  async function queueDigests(now: Date): Promise<number> {
    const candidates = await sql<{ watchId: number }[]>`
      select m.watch_id from cart_watch_matches m join cart_watches w on w.id = m.watch_id
      where m.digested_at is null and w.confirmed_at is not null and w.ended_at is null
        and (w.last_alert_at is null or w.last_alert_at <= ${new Date(now.getTime() - dayMs)})
      group by m.watch_id
      having min(m.matched_at) <= ${new Date(now.getTime() - gatherMs)}
      order by m.watch_id
      limit ${batch}
    `
    if (candidates.length === 0) return 0
    return sql.begin(async (tx) => {
      const locked = await tx<{ id: number }[]>`
        select id from cart_watches
        where id = any(${tx.array(candidates.map((c) => c.watchId))}::int[])
          and (last_alert_at is null or last_alert_at <= ${new Date(now.getTime() - dayMs)})
        order by id
        for update skip locked
      `
      if (locked.length === 0) return 0
      const ids = tx.array(locked.map((w) => w.id))
      const queued = await tx`
        insert into outbox_messages (watch_id, kind, details)
        select w.id, case when w.email is null then 'watch-push' else 'watch-alert' end,
          jsonb_build_object('about', 'digest', 'cartIds', m.cart_ids)
        from cart_watches w
        join (
          select watch_id, jsonb_agg(cart_id order by matched_at, cart_id) as cart_ids from cart_watch_matches
          where watch_id = any(${ids}::int[]) and digested_at is null group by watch_id
        ) m on m.watch_id = w.id
        order by w.id
      `
      await tx`update cart_watch_matches set digested_at = ${now} where watch_id = any(${ids}::int[]) and digested_at is null`
      await tx`update cart_watches set last_alert_at = ${now} where id = any(${ids}::int[])`
      return queued.count
    })
  }

  return {
    /** Everything due as of `now`: recorded changes (in batches until none is left), held-back alerts, digests. */
    async run(now: Date = new Date()): Promise<AlertRun> {
      const result: AlertRun = { changes: 0, alerts: 0, digests: 0 }
      for (;;) {
        const { changes, alerts } = await handleChanges(now)
        result.changes += changes
        result.alerts += alerts
        if (changes < batch) break
      }
      result.alerts += await handleDeferred(now)
      result.digests += await queueDigests(now)
      if (result.alerts + result.digests > 0) options.onQueued?.()
      return result
    },
  }
}

export type AlertDispatch = ReturnType<typeof createAlertDispatch>

/**
 * Runs the dispatch in this process: `firstMs` after start, then every `pollMs`, and at once when
 * told a cart changed (`kick`: the database's notice, api/db/changes.ts), one run at a time.
 * Every process runs one; their claims never overlap. The first run waits (a second, or the poll
 * if shorter) so that the server's start and its first pages do not queue behind it on the
 * embedded database's one connection (issue #48: it cost the first page about 0.2 s); a kick
 * before then changes nothing, since the first run looks at everything.
 */
export function startAlertDispatch(dispatch: AlertDispatch, options: { pollMs: number; log: Logger; firstMs?: number }) {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let again = false
  let stopped = false
  let started = false
  const run = () => {
    if (stopped || !started) return
    if (running) {
      again = true
      return
    }
    clearTimeout(timer)
    running = dispatch
      .run()
      .then((result) => {
        if (result.alerts + result.digests > 0) options.log.info('watchers alerted', { ...result })
      })
      .catch((error: unknown) => options.log.warn('watchers not alerted yet', { step: 'database', error: describeError(error) }))
      .finally(() => {
        running = undefined
        if (stopped) return
        timer = setTimeout(run, again ? 0 : options.pollMs)
        timer.unref()
        again = false
      })
  }
  timer = setTimeout(() => {
    started = true
    run()
  }, options.firstMs ?? Math.min(options.pollMs, 1000))
  timer.unref()
  return {
    kick: run,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
