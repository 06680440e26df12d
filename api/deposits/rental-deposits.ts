import { createHmac, timingSafeEqual } from 'node:crypto'
import { TRPCError } from '@trpc/server'
import { business } from '../../domain/business.ts'
import { formatCents } from '../../domain/deposits.ts'
import { paths } from '../../domain/site-paths.ts'
import type { Sql } from '../db/database.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'
import { queueDepositMessage } from './deposit-store.ts'
import type { Payments } from './stripe.ts'

/**
 * A renter's deposit (PRODUCT.md, "after the hold"): confirming a reservation can email the renter
 * a link; the link opens a Stripe Checkout Session for `RENTAL_DEPOSIT`, and Stripe's completed
 * event marks the reservation paid (api/deposits/deposit-store.ts). The link names the deposit and
 * carries an HMAC of it under the webhook secret, so the email can be composed again on a retry
 * and nothing secret is kept in the outbox; anyone holding it can only pay that deposit.
 */
export const rentalDepositPath = '/deposits/pay'

/** Checkout Sessions close after a day at the latest; the link makes a new one whenever the last has closed. */
const sessionOpenMs = 23 * 3_600_000

export function rentalLinkSignature(secret: string, depositId: number): string {
  return createHmac('sha256', secret).update(`rental-deposit:${depositId}`).digest('base64url').slice(0, 32)
}

/** The address in the renter's email. */
export function rentalDepositLink(siteUrl: string, secret: string, depositId: number): string {
  return `${siteUrl}${rentalDepositPath}/${depositId}/${rentalLinkSignature(secret, depositId)}`
}

export function createRentalDeposits(
  sql: Sql,
  options: { payments?: Payments; secret?: string; siteUrl: string; amountCents: number; onQueued?(): void },
) {
  return {
    /** What confirming a rental may ask (the calendar's "Send deposit link"): null without Stripe's settings. */
    offer: (): { amountCents: number } | null => (options.payments ? { amountCents: options.amountCents } : null),

    /**
     * Emails the renter of a confirmed reservation a link to pay its deposit (again, if one was
     * asked and is still unpaid). Refused when deposits are not set up, the request is not
     * confirmed, or its deposit is already paid.
     */
    async sendLink(actor: Actor, inquiryId: number): Promise<{ depositId: number; amountCents: number }> {
      if (!options.payments) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: 'Deposits are not set up: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.' })
      const result = await sql.begin(async (tx) => {
        const [request] = await tx<{ status: string; firstName: string; lastName: string; email: string; phone: string | null }[]>`
          select r.status, i.first_name, i.last_name, i.email, i.phone from rental_requests r join contact_inquiries i on i.id = r.inquiry_id
          where r.inquiry_id = ${inquiryId} for update of r
        `
        if (!request) throw new TRPCError({ code: 'NOT_FOUND', message: `Lead ${inquiryId} has no rental request` })
        if (request.status !== 'confirmed') throw new TRPCError({ code: 'CONFLICT', message: 'Confirm the reservation first: a deposit is asked for a confirmed reservation.' })
        const [last] = await tx<{ id: number; status: string }[]>`
          select id, status from deposits where kind = 'rental' and inquiry_id = ${inquiryId} order by id desc limit 1
        `
        if (last?.status === 'paid') throw new TRPCError({ code: 'CONFLICT', message: 'This reservation’s deposit is already paid.' })
        let id = last?.status === 'open' ? last.id : undefined
        if (id === undefined) {
          const [made] = await tx<{ id: number }[]>`
            insert into deposits (kind, inquiry_id, amount_cents, first_name, last_name, email, phone)
            values ('rental', ${inquiryId}, ${options.amountCents}, ${request.firstName}, ${request.lastName}, ${request.email}, ${request.phone})
            returning id
          `
          id = made!.id
          await recordChanges(tx, actor, 'deposit', id, [{ action: 'create', after: { kind: 'rental', lead: inquiryId, amountCents: options.amountCents } }])
        }
        // Sent again on request: the earlier email's row makes way for a new one.
        await tx`delete from outbox_messages where deposit_id = ${id} and kind = 'deposit-link' and sent_at is not null`
        await queueDepositMessage(tx, inquiryId, 'deposit-link', id)
        await recordChanges(tx, actor, 'lead', inquiryId, [{ action: 'update', field: 'deposit', before: null, after: `${formatCents(options.amountCents)} asked (link emailed)` }])
        return { depositId: id, amountCents: options.amountCents }
      })
      options.onQueued?.()
      return result
    },

    /**
     * Where a link leads: Stripe's page for the deposit, or the rentals page when it is paid. An
     * open Session is used again until it closes, so two clicks never make two payments possible.
     */
    async checkoutFor(depositId: number, signature: string): Promise<{ url: string } | { paid: true } | undefined> {
      if (!options.payments || !options.secret) return undefined
      const expected = Buffer.from(rentalLinkSignature(options.secret, depositId))
      const given = Buffer.from(signature)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
      const [deposit] = await sql<{ id: number; status: string; email: string; amountCents: number; checkoutSessionId: string | null; checkoutUrl: string | null; checkoutClosesAt: Date | null }[]>`
        select id, status, email, amount_cents, checkout_session_id, checkout_url, checkout_closes_at from deposits where id = ${depositId} and kind = 'rental'
      `
      if (!deposit) return undefined
      if (deposit.status !== 'open') return { paid: true }
      if (deposit.checkoutUrl && deposit.checkoutClosesAt && deposit.checkoutClosesAt.getTime() > Date.now() + 60_000) return { url: deposit.checkoutUrl }
      const closes = new Date(Date.now() + sessionOpenMs)
      const rentals = `${options.siteUrl}${paths.rentals}`
      const session = await options.payments.checkout({
        amountCents: deposit.amountCents,
        name: `Rental deposit, ${business.name}`,
        description: 'Secures your confirmed golf cart rental; it counts toward what you pay at pickup.',
        email: deposit.email,
        metadata: { depositId: String(deposit.id), kind: 'rental' },
        successUrl: `${rentals}?deposit=paid`,
        cancelUrl: rentals,
        expiresAt: closes,
        idempotencyKey: `deposit-${deposit.id}-checkout-${closes.getTime()}`,
      })
      await sql`update deposits set checkout_session_id = ${session.id}, checkout_url = ${session.url}, checkout_closes_at = ${closes} where id = ${deposit.id} and status = 'open'`
      return { url: session.url }
    },
  }
}

export type RentalDeposits = ReturnType<typeof createRentalDeposits>
