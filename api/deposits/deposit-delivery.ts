import type { Sql } from '../db/database.ts'
import { createCartStore } from '../carts/cart-store.ts'
import { composeAndSend, type MailMessage, type MailOutcome, type MailSettings } from '../leads/messages.ts'
import { type DepositMessageKind, queueDepositMessage } from './deposit-store.ts'
import { type DepositFacts, depositLinkEmail, holdEndingEmail, receiptEmail, refundedEmail } from './deposit-messages.ts'
import { rentalDepositLink } from './rental-deposits.ts'
import type { Payments } from './stripe.ts'

/**
 * What the outbox does with a deposit's row (api/leads/outbox-worker.ts): an email, or a refund
 * asked of Stripe. A refund carries an idempotency key of its deposit, so asking again after a
 * timeout or a crash is the same refund, never a second one; once Stripe has taken it the deposit
 * is `refunded` and the shopper's email is queued, in one statement's transaction.
 */
export type DepositOutcome = MailOutcome | { failed: 'reading the lead' | 'stripe'; error: unknown }

export function createDepositDelivery(options: {
  sql: Sql
  send?: (message: MailMessage) => Promise<unknown>
  payments?: Payments
  /** The webhook secret, which signs a renter's deposit link. */
  linkSecret?: string
  settings: MailSettings
}) {
  const { sql, settings } = options
  const carts = createCartStore(sql)

  async function factsOf(id: number): Promise<(DepositFacts & { paymentIntentId: string | null; cartId: number | null; status: string }) | undefined> {
    const [row] = await sql<(Omit<DepositFacts, 'cart' | 'rental'> & {
      paymentIntentId: string | null
      status: string
      cartId: number | null
      cartTitle: string | null
      cartSlug: string | null
      cartPrice: number | null
      cartStock: string | null
      cartLocation: string | null
      startDate: string | null
      endDate: string | null
    })[]>`
      select d.id, d.kind, d.first_name, d.last_name, d.email, d.amount_cents, d.hold_until, d.refund_reason, d.inquiry_id as lead_id,
             d.payment_intent_id, d.status, c.id as cart_id, c.title as cart_title, c.slug as cart_slug, c.price::float8 as cart_price,
             c.stock_number as cart_stock, c.location as cart_location,
             r.start_date::text as start_date, r.end_date::text as end_date
      from deposits d
      left join golf_carts c on c.id = d.golf_cart_id
      left join rental_requests r on d.kind = 'rental' and r.inquiry_id = d.inquiry_id
      where d.id = ${id}
    `
    if (!row) return undefined
    const { cartTitle, cartSlug, cartPrice, cartStock, cartLocation, startDate, endDate, ...facts } = row
    return {
      ...facts,
      cart: row.cartId === null ? null : { title: cartTitle!, slug: cartSlug!, price: cartPrice!, stockNumber: cartStock!, location: cartLocation! },
      rental: startDate && endDate ? { startDate, endDate } : null,
    }
  }

  async function compose(kind: Exclude<DepositMessageKind, 'deposit-refund'>, deposit: DepositFacts & { cartId: number | null }, userId: number | null): Promise<MailMessage> {
    switch (kind) {
      case 'deposit-receipt':
        return receiptEmail(settings, deposit)
      case 'deposit-refunded': {
        const similar = deposit.cart && deposit.cartId !== null && deposit.refundReason === 'taken' ? await carts.similar({ id: deposit.cartId, price: deposit.cart.price }) : []
        return refundedEmail(settings, deposit, similar)
      }
      case 'hold-ending': {
        const [user] = await sql<{ email: string | null }[]>`select email from users where id = ${userId}`
        if (!user?.email) throw new Error(`account ${userId} has no email address`)
        return holdEndingEmail(settings, deposit, user.email)
      }
      case 'deposit-link':
        if (!options.linkSecret) throw new Error('deposits are not set up')
        return depositLinkEmail(settings, deposit, rentalDepositLink(settings.siteUrl, options.linkSecret, deposit.id))
    }
  }

  /** Asks Stripe to refund the deposit's payment; once it has, the deposit is refunded and its shopper told. */
  async function refund(deposit: DepositFacts & { paymentIntentId: string | null; status: string }): Promise<DepositOutcome> {
    if (deposit.status === 'refunded') return { sent: true }
    if (!options.payments) return { failed: 'stripe', error: new Error('deposits are not set up: no STRIPE_SECRET_KEY') }
    if (!deposit.paymentIntentId) return { failed: 'reading the lead', error: new Error(`deposit ${deposit.id} has no payment to refund`) }
    let refunded: { id: string }
    try {
      refunded = await options.payments.refund(deposit.paymentIntentId, `deposit-${deposit.id}-refund`, { depositId: String(deposit.id) })
    } catch (error) {
      return { failed: 'stripe', error }
    }
    await sql.begin(async (tx) => {
      const [done] = await tx<{ leadId: number | null }[]>`
        update deposits set status = 'refunded', refund_id = ${refunded.id}, ended_at = now() where id = ${deposit.id} and status = 'refunding'
        returning inquiry_id as lead_id
      `
      if (done?.leadId != null) await queueDepositMessage(tx, done.leadId, 'deposit-refunded', deposit.id)
    })
    return { sent: true }
  }

  return {
    /** Which kinds this process can send: emails with a mail server, refunds with Stripe. */
    kinds(): DepositMessageKind[] {
      return [...(options.send ? (['deposit-receipt', 'deposit-refunded', 'hold-ending', 'deposit-link'] as const) : []), ...(options.payments ? (['deposit-refund'] as const) : [])]
    },

    deliver(kind: DepositMessageKind, depositId: number, userId: number | null): Promise<DepositOutcome> {
      return composeAndSend(options.send, async () => {
        const deposit = await factsOf(depositId)
        if (!deposit) throw new Error(`deposit ${depositId} no longer exists`)
        if (kind === 'deposit-refund') return { outcome: await refund(deposit) }
        return compose(kind, deposit, userId)
      })
    },
  }
}

export type DepositDelivery = ReturnType<typeof createDepositDelivery>
