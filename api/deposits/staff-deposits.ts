import type postgres from 'postgres'
import { TRPCError } from '@trpc/server'
import type { DepositStatus } from '../../domain/deposits.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'
import { queueDepositMessage } from './deposit-store.ts'

/**
 * `/staff/deposits` (PRODUCT.md, "after the hold"; managers and owners): every paid deposit, a
 * refund, or the cart marked sold with the deposit counted toward its price; and a renter's
 * deposit link when a reservation is confirmed. Each change is one transaction with its audit
 * rows; a refund is an outbox row (api/deposits/deposit-delivery.ts), tried until Stripe takes it.
 */
export interface StaffDeposit {
  id: number
  kind: 'cart' | 'rental'
  status: DepositStatus
  amountCents: number
  firstName: string
  lastName: string
  email: string
  phone: string | null
  /** The lead it made or belongs to. */
  leadId: number | null
  /** The lead's assignee, who owns the hold. */
  owner: string | null
  cart: { id: number; slug: string; title: string; price: number; status: string } | null
  holdUntil: string | null
  paidAt: string | null
  endedAt: string | null
  refundReason: 'taken' | 'staff' | null
  /** What the buyer still owes once the deposit is counted: the cart's price less the deposit. */
  balanceDueCents: number | null
}

export class DepositNotFoundError extends Error {
  override name = 'DepositNotFoundError'
}

const notFound = (id: number) => new TRPCError({ code: 'NOT_FOUND', message: `No deposit has the id ${id}` })

export function createStaffDeposits(sql: Sql, options: { onQueued?(): void; onCartChange?(): void; /** Whether Stripe is set up: a refund needs it. */ configured?: boolean }) {
  async function read(db: Sql | TransactionSql, where: postgres.Fragment, limit = 200): Promise<StaffDeposit[]> {
    const rows = await db<(Omit<StaffDeposit, 'cart' | 'holdUntil' | 'paidAt' | 'endedAt' | 'balanceDueCents'> & {
      cartId: number | null
      cartSlug: string | null
      cartTitle: string | null
      cartPrice: number | null
      cartStatus: string | null
      holdUntil: Date | null
      paidAt: Date | null
      endedAt: Date | null
    })[]>`
      select d.id, d.kind, d.status, d.amount_cents, d.first_name, d.last_name, d.email, d.phone, d.inquiry_id as lead_id,
             u.username as owner, d.hold_until, d.paid_at, d.ended_at, d.refund_reason,
             c.id as cart_id, c.slug as cart_slug, c.title as cart_title, c.price::float8 as cart_price, c.status as cart_status
      from deposits d
      left join golf_carts c on c.id = d.golf_cart_id
      left join contact_inquiries i on i.id = d.inquiry_id
      left join users u on u.id = i.owner_id
      where ${where}
      order by coalesce(d.paid_at, d.created_at) desc, d.id desc
      limit ${limit}
    `
    return rows.map(({ cartId, cartSlug, cartTitle, cartPrice, cartStatus, holdUntil, paidAt, endedAt, ...row }) => ({
      ...row,
      cart: cartId === null ? null : { id: cartId, slug: cartSlug!, title: cartTitle!, price: cartPrice!, status: cartStatus! },
      holdUntil: holdUntil?.toISOString() ?? null,
      paidAt: paidAt?.toISOString() ?? null,
      endedAt: endedAt?.toISOString() ?? null,
      balanceDueCents: cartPrice === null || row.kind !== 'cart' ? null : Math.round(cartPrice * 100) - row.amountCents,
    }))
  }

  async function locked(tx: TransactionSql, id: number): Promise<StaffDeposit> {
    await tx`select id from deposits where id = ${id} for update`
    const [deposit] = await read(tx, tx`d.id = ${id}`, 1)
    if (!deposit) throw notFound(id)
    return deposit
  }

  return {
    /** Paid deposits, newest first (those still at Stripe's page are left out). */
    list: (status?: DepositStatus) => read(sql, status ? sql`d.status = ${status}` : sql`d.status <> 'open'`),

    get: async (id: number) => (await read(sql, sql`d.id = ${id} and d.status <> 'open'`, 1))[0],

    /**
     * Refunds a deposit in full. A held cart is available again at once; the shopper's money goes
     * back through Stripe (the outbox asks, and asks again until Stripe answers).
     */
    async refund(actor: Actor, id: number): Promise<StaffDeposit> {
      // Without Stripe the refund could not be made: refused, so no deposit waits as "asked" for settings.
      if (!options.configured) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'Refunds go through Stripe, which is not set up: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.' })
      let cartChanged = false
      const result = await sql.begin(async (tx) => {
        const deposit = await locked(tx, id)
        if (!['held', 'paid', 'expired'].includes(deposit.status)) {
          throw new TRPCError({ code: 'CONFLICT', message: `This deposit cannot be refunded: it is ${deposit.status}.` })
        }
        await tx`update deposits set status = 'refunding', refund_reason = 'staff' where id = ${id}`
        await recordChanges(tx, actor, 'deposit', id, [{ action: 'update', field: 'status', before: deposit.status, after: 'refunding' }])
        if (deposit.status === 'held' && deposit.cart?.status === 'hold') {
          await tx`update golf_carts set status = 'available' where id = ${deposit.cart.id}`
          await recordChanges(tx, actor, 'cart', deposit.cart.id, [{ action: 'update', field: 'status', before: 'hold', after: 'available' }])
          cartChanged = true
        }
        if (deposit.leadId !== null) await queueDepositMessage(tx, deposit.leadId, 'deposit-refund', id)
        return locked(tx, id)
      })
      if (cartChanged) options.onCartChange?.()
      options.onQueued?.()
      return result
    },

    /** The held cart sold to the shopper who paid: the deposit counts toward its price. */
    async markSold(actor: Actor, id: number): Promise<StaffDeposit> {
      const result = await sql.begin(async (tx) => {
        const deposit = await locked(tx, id)
        if (deposit.kind !== 'cart' || !['held', 'expired'].includes(deposit.status) || !deposit.cart) {
          throw new TRPCError({ code: 'CONFLICT', message: `Only a cart's deposit that held it can be counted toward a sale; this one is ${deposit.status}.` })
        }
        if (deposit.cart.status !== 'hold' && deposit.cart.status !== 'available') {
          throw new TRPCError({ code: 'CONFLICT', message: `The ${deposit.cart.title} is ${deposit.cart.status}: it cannot be sold to this shopper.` })
        }
        await tx`update deposits set status = 'sold', ended_at = now() where id = ${id}`
        await tx`update golf_carts set status = 'sold' where id = ${deposit.cart.id}`
        await recordChanges(tx, actor, 'deposit', id, [{ action: 'update', field: 'status', before: deposit.status, after: 'sold' }])
        await recordChanges(tx, actor, 'cart', deposit.cart.id, [{ action: 'update', field: 'status', before: deposit.cart.status, after: 'sold' }])
        return locked(tx, id)
      })
      options.onCartChange?.()
      return result
    },
  }
}

export type StaffDeposits = ReturnType<typeof createStaffDeposits>
