import { business, formatAddress, showrooms } from '../../domain/business.ts'
import { alertRules, describeSearch, type WatchedSearch } from '../../domain/cart-alerts.ts'
import { readCartSearch } from '../../domain/cart-query.ts'
import { featuredCount, formatPrice, type GolfCart } from '../../domain/golf-cart.ts'
import { paths } from '../../domain/site-paths.ts'
import type { CartStore } from '../carts/cart-store.ts'
import type { Sql } from '../db/database.ts'
import { type MailMessage, type MailSettings, messageId } from '../leads/messages.ts'
import type { PushTarget } from '../leads/web-push.ts'

/**
 * The messages shoppers' watches send (PRODUCT.md, "what watchers get"), built by the outbox
 * worker when it sends each one: the confirmation, the alerts by email (a price drop, a hold
 * ended, a sale with similar carts, a search's digest) and the same by Web Push. Every email
 * carries one-click unsubscribe (RFC 8058: `List-Unsubscribe` with an https address and
 * `List-Unsubscribe-Post`) and the same address as a plain link in its body.
 */
export const watchMessageKinds = ['watch-confirm', 'watch-alert', 'watch-push'] as const
export type WatchMessageKind = (typeof watchMessageKinds)[number]
export const watchPushKinds: readonly WatchMessageKind[] = ['watch-push']

/** What an alert tells, as the dispatch recorded it in the outbox row (api/alerts/alert-dispatch.ts). */
export type WatchAlert =
  | { about: 'price-drop'; cartId: number; price: number; was: number; back: boolean }
  | { about: 'available'; cartId: number; price: number }
  | { about: 'sold'; cartId: number }
  | { about: 'digest'; cartIds: number[] }

export interface WatchClaim {
  id: number
  kind: WatchMessageKind
  watchId: number
  details: WatchAlert | null
}

export type BuiltWatchMessage =
  | { channel: 'email'; message: MailMessage }
  | { channel: 'push'; target: PushTarget; payload: string; topic: string }

interface Watch {
  id: number
  email: string | null
  pushEndpoint: string | null
  pushP256dh: string | null
  pushAuth: string | null
  cartId: number | null
  search: WatchedSearch | null
  confirmToken: string | null
  unsubscribeToken: string
}

type Known = Map<number, CartFacts>

interface CartFacts {
  id: number
  title: string
  slug: string
  price: number
  status: string
}

/** A line of text or a title from the inventory: what staff typed never forges a line of the email. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim()

const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

export function createWatchMessages(sql: Sql, carts: Pick<CartStore, 'similar'>, settings: Pick<MailSettings, 'from' | 'siteUrl' | 'mark'>) {
  const host = new URL(settings.siteUrl).hostname
  const url = (path: string) => `${settings.siteUrl}${path}`

  /** The carts of a batch of messages, read at once: one query for a batch, not one a message. */
  const readCarts = async (ids: readonly number[]): Promise<Known> => {
    if (ids.length === 0) return new Map()
    const rows = await sql<CartFacts[]>`
      select id, title, slug, price::float8 as price, status from golf_carts where id = any(${sql.array([...new Set(ids)])}::int[])
    `
    return new Map(rows.map((row) => [row.id, row]))
  }
  // In the order the alert gave them; a cart deleted since is left out.
  const cartsOf = (known: Known, ids: readonly number[]) => ids.flatMap((id) => known.get(id) ?? [])

  /** The email around every watch message: the greeting-free words, the links, the footer. */
  function email(watch: Watch, claim: WatchClaim, parts: { subject: string; lines: string[]; links: { label: string; href: string }[]; why: string }): MailMessage {
    const stop = url(paths.watchLink('unsubscribe', watch.unsubscribeToken))
    const showroom = showrooms[0]
    const footer = [
      parts.why,
      `Stop these emails with one click: ${stop}`,
      '',
      `${business.name}, ${business.tollFree.display}${showroom?.address ? `, ${formatAddress(showroom.address)}` : ''}`,
      settings.siteUrl,
    ]
    const text = [...parts.lines, '', ...parts.links.map((link) => `${link.label}: ${link.href}`), '', ...footer].join('\n')
    const html = [
      ...parts.lines.filter(Boolean).map((line) => `<p>${escape(line)}</p>`),
      `<ul>${parts.links.map((link) => `<li><a href="${escape(link.href)}">${escape(link.label)}</a></li>`).join('')}</ul>`,
      `<p style="color:#555;font-size:13px">${escape(parts.why)} <a href="${escape(stop)}">Stop these emails</a>.</p>`,
      `<p style="color:#555;font-size:13px">${escape(business.name)}, ${escape(business.tollFree.display)}</p>`,
    ].join('\n')
    return {
      from: settings.from,
      to: [watch.email!],
      replyTo: business.email,
      subject: [...oneLine(parts.subject)].slice(0, 200).join(''),
      text,
      html,
      messageId: messageId(settings, `watch-${watch.id}-${claim.id}`),
      headers: { 'List-Unsubscribe': `<${stop}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    }
  }

  /** What a watch is about, in words: "the 2025 Denago EV City", "new carts: Denago, at least 6 seats". */
  async function subjectOf(watch: Watch, known: Known) {
    if (watch.cartId !== null) {
      const [cart] = cartsOf(known, [watch.cartId])
      if (!cart) throw new Error(`cart ${watch.cartId} of watch ${watch.id} no longer exists`)
      return { cart, search: undefined }
    }
    const search = readCartSearch(watch.search ?? {}).search as WatchedSearch
    return { cart: undefined, search }
  }

  async function confirmation(watch: Watch, claim: WatchClaim, known: Known): Promise<MailMessage> {
    if (!watch.confirmToken) throw new Error(`watch ${watch.id} has no confirmation link`)
    const { cart, search } = await subjectOf(watch, known)
    const confirm = url(paths.watchLink('confirm', watch.confirmToken))
    const days = `The link works for ${alertRules.confirmWithinDays} days. If you did not ask for this, ignore this email: nothing more will be sent.`
    return email(watch, claim, {
      subject: cart ? `Confirm your price alert: ${cart.title}` : 'Confirm your alert for new golf carts',
      lines: cart
        ? [
            `Please confirm that you want an email when the price of the ${oneLine(cart.title)} (now ${formatPrice(cart.price)}) drops${cart.status === 'hold' ? ' or when it comes off hold' : ''}.`,
            '',
            days,
          ]
        : [`Please confirm that you want an email, at most one a day, when new golf carts like these arrive: ${describeSearch(search)}.`, '', days],
      links: [{ label: 'Confirm the alert', href: confirm }],
      why: `You are getting this email because someone entered this address on ${host}.`,
    })
  }

  async function alertEmail(watch: Watch, claim: WatchClaim, alert: WatchAlert, known: Known): Promise<MailMessage> {
    const call = `Questions? Call ${business.tollFree.display} or reply to this email.`
    if (alert.about === 'digest') {
      const found = cartsOf(known, alert.cartIds)
      const search = readCartSearch(watch.search ?? {}).search as WatchedSearch
      const first = found[0]
      return email(watch, claim, {
        subject: found.length === 1 && first ? `New golf cart: ${first.title}, ${formatPrice(first.price)}` : `${found.length} new golf carts like the ones you asked about`,
        lines: [`New at ${business.name}, matching your search (${describeSearch(search)}):`, ...found.map((c) => `- ${oneLine(c.title)}, ${formatPrice(c.price)}${c.status === 'hold' ? ' (on hold)' : c.status === 'sold' ? ' (sold)' : ''}`), '', call],
        links: [...found.map((c) => ({ label: oneLine(c.title), href: url(paths.vehicle(c.slug)) })), { label: 'Every cart like these', href: url(paths.inventorySearch(search)) }],
        why: 'You are getting this email because you asked us to tell you about new carts like these, at most once a day.',
      })
    }
    const [cart] = cartsOf(known, [alert.cartId])
    if (!cart) throw new Error(`cart ${alert.cartId} no longer exists`)
    const title = oneLine(cart.title)
    const page = { label: `See the ${title}`, href: url(paths.vehicle(cart.slug)) }
    const why = 'You are getting this email because you asked us to tell you when this cart gets cheaper or comes back.'
    if (alert.about === 'sold') {
      const similar = await carts.similar({ id: cart.id, price: cart.price }, featuredCount)
      return email(watch, claim, {
        subject: `Sold: ${title}`,
        lines: [
          `The ${title} you were watching has been sold, so this alert has ended and we will not write about it again.`,
          ...(similar.length > 0 ? ['', 'Carts like it in stock now:', ...similar.map((c: GolfCart) => `- ${oneLine(c.title)}, ${formatPrice(c.price)}`)] : []),
          '',
          call,
        ],
        links: [...similar.map((c) => ({ label: oneLine(c.title), href: url(paths.vehicle(c.slug)) })), { label: 'Every cart in stock', href: url(paths.inventory) }],
        why,
      })
    }
    if (alert.about === 'price-drop') {
      return email(watch, claim, {
        subject: `Price drop: ${title}, now ${formatPrice(alert.price)}`,
        lines: [
          `The ${title} you are watching is now ${formatPrice(alert.price)}, down from ${formatPrice(alert.was)}.${alert.back ? ' It is off hold and available again.' : ''}`,
          '',
          call,
        ],
        links: [page],
        why,
      })
    }
    return email(watch, claim, {
      subject: `Available again: ${title}`,
      lines: [`The ${title} you are watching is off hold and available again, at ${formatPrice(alert.price)}.`, '', call],
      links: [page],
      why,
    })
  }

  /** A push notification's words and the page it opens, as the shoppers' service worker shows it. */
  async function pushPayload(watch: Watch, alert: WatchAlert, known: Known): Promise<{ title: string; body: string; url: string }> {
    if (alert.about === 'digest') {
      const found = cartsOf(known, alert.cartIds)
      const search = readCartSearch(watch.search ?? {}).search as WatchedSearch
      return {
        title: found.length === 1 ? `New golf cart: ${oneLine(found[0]!.title)}` : `${found.length} new golf carts like the ones you asked about`,
        body: found.map((c) => `${oneLine(c.title)}, ${formatPrice(c.price)}`).join('; ').slice(0, 300),
        url: found.length === 1 ? paths.vehicle(found[0]!.slug) : paths.inventorySearch(search),
      }
    }
    const [cart] = cartsOf(known, [alert.cartId])
    if (!cart) throw new Error(`cart ${alert.cartId} no longer exists`)
    const title = oneLine(cart.title)
    if (alert.about === 'sold') return { title: `Sold: ${title}`, body: 'This alert has ended. Tap to see carts like it.', url: paths.vehicle(cart.slug) }
    if (alert.about === 'price-drop') {
      return { title: `Price drop: ${title}`, body: `Now ${formatPrice(alert.price)}, down from ${formatPrice(alert.was)}.`, url: paths.vehicle(cart.slug) }
    }
    return { title: `Available again: ${title}`, body: `Off hold, at ${formatPrice(alert.price)}.`, url: paths.vehicle(cart.slug) }
  }

  /** One message from its watch and the carts it names, read beforehand. */
  async function buildOne(claim: WatchClaim, watch: Watch | undefined, known: Known): Promise<BuiltWatchMessage> {
    if (!watch) throw new Error(`watch ${claim.watchId} no longer exists`)
    if (claim.kind === 'watch-push') {
      if (!watch.pushEndpoint || !claim.details) throw new Error(`watch ${watch.id} has no browser to push to`)
      const words = await pushPayload(watch, claim.details, known)
      return {
        channel: 'push',
        target: { endpoint: watch.pushEndpoint, p256dh: watch.pushP256dh!, auth: watch.pushAuth! },
        payload: JSON.stringify({ ...words, tag: `watch-${watch.id}` }),
        topic: `watch-${watch.id}`,
      }
    }
    if (!watch.email) throw new Error(`watch ${watch.id} has no address to email`)
    if (claim.kind === 'watch-confirm') return { channel: 'email', message: await confirmation(watch, claim, known) }
    if (!claim.details) throw new Error(`alert ${claim.id} says nothing`)
    return { channel: 'email', message: await alertEmail(watch, claim, claim.details, known) }
  }

  /**
   * The messages outbox rows about watches stand for, as they are right now, in their order: the
   * watches in one query and the carts they name in another, however many rows (the outbox worker
   * claims a watch's alerts in batches). A row that cannot be built is its error, not the batch's.
   */
  async function buildMany(claims: readonly WatchClaim[]): Promise<(BuiltWatchMessage | Error)[]> {
    if (claims.length === 0) return []
    const rows = await sql<Watch[]>`
      select id, email, push_endpoint, push_p256dh, push_auth, cart_id, search, confirm_token, unsubscribe_token
      from cart_watches where id = any(${sql.array([...new Set(claims.map((c) => c.watchId))])}::int[])
    `
    const watches = new Map(rows.map((watch) => [watch.id, watch]))
    const cartIds = claims.flatMap((claim) => {
      const details = claim.details
      if (details?.about === 'digest') return details.cartIds
      if (details) return [details.cartId]
      const cartId = watches.get(claim.watchId)?.cartId
      return cartId == null ? [] : [cartId]
    })
    const known = await readCarts(cartIds)
    return Promise.all(
      claims.map((claim) => buildOne(claim, watches.get(claim.watchId), known).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))),
    )
  }

  return {
    buildMany,
    /** The message one outbox row about a watch stands for, as it is right now. */
    async build(claim: WatchClaim): Promise<BuiltWatchMessage> {
      const [built] = await buildMany([claim])
      if (built instanceof Error) throw built
      return built!
    },
  }
}

export type WatchMessages = ReturnType<typeof createWatchMessages>
