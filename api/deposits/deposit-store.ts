import { TRPCError } from '@trpc/server'
import { business } from '../../domain/business.ts'
import { type DepositOffer, formatCents, holdDate, holdEnds, type ValidDeposit } from '../../domain/deposits.ts'
import { formatPrice } from '../../domain/golf-cart.ts'
import { routingPools } from '../../domain/dealer-settings.ts'
import { paths } from '../../domain/site-paths.ts'
import { specificationsFor } from '../../domain/specifications.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { type NotificationKind, storeLead } from '../inquiries/inquiry-store.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'
import type { Payments, StripeEvent } from './stripe.ts'

/**
 * Deposits (PRODUCT.md, "deposits", "holding a cart"): a Checkout Session for a shopper who wants
 * a cart, and what Stripe's signed `checkout.session.completed` does. Only that event holds a
 * cart, in one transaction that locks the cart's row first: of two payments for one cart at once,
 * the first holds it and the second is refunded (an outbox row, retried until Stripe takes it).
 * Each event's id is stored in the same transaction, so an event delivered twice has one effect.
 */

/** Who the audit log names for what a payment did. */
export const depositActor: Actor = { id: null, name: 'deposit (Stripe)' }

/** The part of a Checkout Session the completed event is read for. */
export interface CompletedSession {
  id: string
  paymentStatus: string
  paymentIntentId: string | null
  amountTotal: number | null
}

export interface StripeEventFacts {
  id: string
  type: string
  session?: CompletedSession
}

export type EventOutcome = 'held' | 'refunding' | 'paid' | 'duplicate' | 'ignored'

export interface DepositStoreOptions {
  /** Stripe; undefined without its settings (no deposits anywhere). */
  payments?: Payments
  siteUrl: string
  amountCents: number
  holdDays: number
  /** What every lead queues (api/runtime.ts), a deposit's as any other's. */
  notifications: readonly NotificationKind[]
  /** After a commit that queued outbox rows: wake the worker. */
  onQueued?(): void
  /** After a commit that changed a cart: this process's visitors' answers at once (the trigger tells the others). */
  onCartChange?(): void
  /** The time holds are reckoned from (tests stand where they need). */
  clock?: () => Date
}

/** How long an unpaid Checkout Session stays open: Stripe's shortest, so few payments race for one cart. */
const checkoutOpenMs = 30 * 60_000

interface CartRow {
  id: number
  slug: string
  title: string
  price: number
  status: string
  holdUntil: Date | null
}

/** The routing pool of a deposit's lead: its cart's brand, as a quote for that cart would be (else `other`). */
function routedAs(title: string): string | null {
  const brand = specificationsFor(title).brand.toLowerCase()
  return (routingPools as readonly string[]).includes(brand) ? brand : null
}

/** Why a cart cannot be held now, in the shopper's words. */
function unavailable(cart: CartRow): string {
  if (cart.status === 'hold') {
    return cart.holdUntil
      ? `Another shopper holds the ${cart.title} until ${holdDate(cart.holdUntil)}. Call ${business.tollFree.display} and we will find you one like it.`
      : `The ${cart.title} is on hold. Call ${business.tollFree.display} and we will find you one like it.`
  }
  return `The ${cart.title} has been sold. Call ${business.tollFree.display} and we will find you one like it.`
}

export function createDepositStore(sql: Sql, options: DepositStoreOptions) {
  const clock = options.clock ?? (() => new Date())
  const offer: DepositOffer | null = options.payments ? { amountCents: options.amountCents, holdDays: options.holdDays } : null

  function payments(): Payments {
    if (!options.payments) throw new TRPCError({ code: 'NOT_FOUND', message: 'Deposits are not taken on this site' })
    return options.payments
  }

  return {
    /** What the pages offer: null without Stripe's settings, and then no button anywhere. */
    offer: () => offer,

    /** The event Stripe signed, from the raw body and its signature; throws for anything else. */
    verify: (rawBody: Buffer, signature: string | undefined): Promise<StripeEvent> => payments().verify(rawBody, signature),

    /**
     * Sends a shopper to Stripe Checkout for an available cart: the Session carries the deposit's
     * id and the cart in its metadata, and comes back to the cart's page on SITE_URL.
     */
    async start(input: ValidDeposit): Promise<{ url: string }> {
      const stripe = payments()
      const [cart] = await sql<CartRow[]>`
        select id, slug, title, price::float8 as price, status, hold_until from golf_carts
        where id = ${input.cartId} and status <> 'draft'
      `
      if (!cart) throw new TRPCError({ code: 'NOT_FOUND', message: `No golf cart has the id ${input.cartId}` })
      if (cart.status !== 'available') throw new TRPCError({ code: 'CONFLICT', message: unavailable(cart) })
      const [deposit] = await sql<{ id: number }[]>`
        insert into deposits (kind, golf_cart_id, amount_cents, first_name, last_name, email, phone, text_consent, source_url, source_label)
        values ('cart', ${cart.id}, ${options.amountCents}, ${input.firstName}, ${input.lastName}, ${input.email},
                ${input.phone || null}, ${input.textConsent ?? false}, ${input.sourceUrl || null}, ${input.sourceLabel || null})
        returning id
      `
      const page = `${options.siteUrl}${paths.vehicle(cart.slug)}`
      try {
        const session = await stripe.checkout({
          amountCents: options.amountCents,
          name: `Deposit to hold the ${cart.title}`,
          description: `Holds the cart for ${options.holdDays} days at ${business.name} and counts toward its price of ${formatPrice(cart.price)}.`,
          email: input.email,
          metadata: { depositId: String(deposit!.id), kind: 'cart', cartId: String(cart.id), cartSlug: cart.slug },
          successUrl: `${page}?deposit=paid`,
          cancelUrl: `${page}?deposit=cancelled`,
          expiresAt: new Date(Date.now() + checkoutOpenMs),
          idempotencyKey: `deposit-${deposit!.id}-checkout`,
        })
        await sql`update deposits set checkout_session_id = ${session.id} where id = ${deposit!.id}`
        return { url: session.url }
      } catch (error) {
        await sql`delete from deposits where id = ${deposit!.id} and status = 'open'`.catch(() => undefined)
        throw new TRPCError({
          code: 'SERVICE_UNAVAILABLE',
          message: `Payments can't be taken right now. Please try again in a minute, or call ${business.tollFree.display} to hold the cart.`,
          cause: error,
        })
      }
    },

    /**
     * One event Stripe signed (the signature is checked before this is called). Only a paid
     * `checkout.session.completed` for one of our Sessions does anything, once.
     */
    async handleEvent(event: StripeEventFacts): Promise<EventOutcome> {
      let cartChanged = false
      let queued = false
      const outcome = await sql.begin(async (tx): Promise<EventOutcome> => {
        const [fresh] = await tx`insert into stripe_events (id, type) values (${event.id}, ${event.type}) on conflict (id) do nothing returning id`
        if (!fresh) return 'duplicate'
        const session = event.session
        if (event.type !== 'checkout.session.completed' || !session || session.paymentStatus !== 'paid') return 'ignored'
        const [deposit] = await tx<DepositRow[]>`
          select id, kind, golf_cart_id, inquiry_id, amount_cents, first_name, last_name, email, phone, text_consent, source_url, source_label, status
          from deposits where checkout_session_id = ${session.id} for update
        `
        if (!deposit || deposit.status !== 'open') return 'ignored'
        const paidAt = clock()
        queued = true
        if (deposit.kind === 'rental') return payRental(tx, deposit, session, paidAt)
        // The cart's row is locked before it is read: a second payment for it waits here until
        // the first has committed, then reads the hold the first one made.
        const [cart] = deposit.golfCartId
          ? await tx<CartRow[]>`select id, slug, title, price::float8 as price, status, hold_until from golf_carts where id = ${deposit.golfCartId} for update`
          : []
        if (cart?.status === 'available') {
          cartChanged = true
          return holdCart(tx, deposit, cart, session, paidAt)
        }
        return refundTaken(tx, deposit, cart, session, paidAt)
      })
      if (cartChanged) options.onCartChange?.()
      if (queued) options.onQueued?.()
      return outcome
    },
  }

  async function holdCart(tx: TransactionSql, deposit: DepositRow, cart: CartRow, session: CompletedSession, paidAt: Date): Promise<EventOutcome> {
    const holdUntil = holdEnds(paidAt, options.holdDays)
    await tx`update golf_carts set status = 'hold', hold_until = ${holdUntil} where id = ${cart.id}`
    await recordChanges(tx, depositActor, 'cart', cart.id, [{ action: 'update', field: 'status', before: 'available', after: 'hold' }])
    const lead = await leadOf(tx, deposit, cart, `Paid a ${formatCents(deposit.amountCents)} deposit online to hold this cart until ${holdDate(holdUntil)}.`)
    await tx`
      update deposits set status = 'held', hold_until = ${holdUntil}, paid_at = ${paidAt}, payment_intent_id = ${session.paymentIntentId}, inquiry_id = ${lead}
      where id = ${deposit.id}
    `
    await recordChanges(tx, depositActor, 'deposit', deposit.id, [{ action: 'update', field: 'status', before: 'open', after: 'held' }])
    await queueDepositMessage(tx, lead, 'deposit-receipt', deposit.id)
    return 'held'
  }

  /** Paid for a cart someone else holds or bought meanwhile: refunded at once, and the shopper told why. */
  async function refundTaken(tx: TransactionSql, deposit: DepositRow, cart: CartRow | undefined, session: CompletedSession, paidAt: Date): Promise<EventOutcome> {
    const why = cart
      ? `Paid a ${formatCents(deposit.amountCents)} deposit online, but the cart was ${cart.status === 'hold' ? 'already on hold' : 'no longer for sale'}: the deposit is refunded automatically. Offer a similar cart.`
      : `Paid a ${formatCents(deposit.amountCents)} deposit online for a cart since removed: the deposit is refunded automatically.`
    const lead = await leadOf(tx, deposit, cart, why)
    await tx`
      update deposits set status = 'refunding', refund_reason = 'taken', paid_at = ${paidAt}, payment_intent_id = ${session.paymentIntentId}, inquiry_id = ${lead}
      where id = ${deposit.id}
    `
    await recordChanges(tx, depositActor, 'deposit', deposit.id, [{ action: 'update', field: 'status', before: 'open', after: 'refunding' }])
    await queueDepositMessage(tx, lead, 'deposit-refund', deposit.id)
    return 'refunding'
  }

  /** A renter's deposit on a confirmed reservation: the reservation shows as paid. */
  async function payRental(tx: TransactionSql, deposit: DepositRow, session: CompletedSession, paidAt: Date): Promise<EventOutcome> {
    await tx`update deposits set status = 'paid', paid_at = ${paidAt}, payment_intent_id = ${session.paymentIntentId} where id = ${deposit.id}`
    await recordChanges(tx, depositActor, 'deposit', deposit.id, [{ action: 'update', field: 'status', before: 'open', after: 'paid' }])
    if (deposit.inquiryId !== null) {
      await recordChanges(tx, depositActor, 'lead', deposit.inquiryId, [{ action: 'update', field: 'deposit', before: null, after: `${formatCents(deposit.amountCents)} paid` }])
      await queueDepositMessage(tx, deposit.inquiryId, 'deposit-receipt', deposit.id)
    }
    return 'paid'
  }

  /** The deposit's lead (interest `deposit`), stored through the one lead path: customer, owner, alerts, emails. */
  async function leadOf(tx: TransactionSql, deposit: DepositRow, cart: CartRow | undefined, message: string): Promise<number> {
    const { receipt } = await storeLead(
      tx,
      {
        firstName: deposit.firstName,
        lastName: deposit.lastName,
        email: deposit.email,
        phone: deposit.phone ?? undefined,
        message,
        textConsent: deposit.textConsent,
        sourceUrl: deposit.sourceUrl ?? undefined,
        sourceLabel: deposit.sourceLabel ?? undefined,
        cartSlug: cart?.slug,
      },
      options.notifications,
      { interest: 'deposit', routeAs: cart ? routedAs(cart.title) : null },
    )
    return receipt.id
  }
}

export type DepositStore = ReturnType<typeof createDepositStore>

interface DepositRow {
  id: number
  kind: 'cart' | 'rental'
  golfCartId: number | null
  inquiryId: number | null
  amountCents: number
  firstName: string
  lastName: string
  email: string
  phone: string | null
  textConsent: boolean
  sourceUrl: string | null
  sourceLabel: string | null
  status: string
}

/** The outbox kinds a deposit queues (api/deposits/deposit-delivery.ts sends them). */
export const depositMessageKinds = ['deposit-receipt', 'deposit-refund', 'deposit-refunded', 'hold-ending', 'deposit-link'] as const
export type DepositMessageKind = (typeof depositMessageKinds)[number]

/** Queues one of a deposit's messages in the caller's transaction; `userId` for a staff member's. */
export async function queueDepositMessage(tx: TransactionSql, inquiryId: number, kind: DepositMessageKind, depositId: number, userId: number | null = null): Promise<void> {
  await tx`
    insert into outbox_messages (inquiry_id, kind, deposit_id, user_id) values (${inquiryId}, ${kind}, ${depositId}, ${userId})
    on conflict do nothing
  `
}
