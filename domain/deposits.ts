import * as z from 'zod/mini'
import { formatPrice } from './golf-cart.ts'
import { inquiryInput } from './inquiry.ts'
import { textConsentLabel } from './texting.ts'

/**
 * Deposits (PRODUCT.md, "deposits", "holding a cart", "after the hold"): the words shoppers read
 * and the form's rules, shared by the vehicle page, `gc-vehicle-detail` and the API. Pure.
 */

/** What the site offers while Stripe is configured: `deposit.offer`, null without it. */
export interface DepositOffer {
  /** A cart's deposit, in cents (DEPOSIT_AMOUNT). */
  amountCents: number
  /** How long a paid deposit holds the cart (DEPOSIT_HOLD_DAYS). */
  holdDays: number
}

/** "$500": whole dollars, cents only when there are some. */
export function formatCents(cents: number): string {
  return formatPrice(cents / 100)
}

/** The button on an available cart's page and in `gc-vehicle-detail`. */
export function holdButtonLabel(offer: DepositOffer): string {
  return `Hold it with a ${formatCents(offer.amountCents)} deposit`
}

/** What the deposit does, said beside the form before the shopper pays. */
export function holdTerms(offer: DepositOffer): string {
  return (
    `Pay ${formatCents(offer.amountCents)} on Stripe's secure page and the cart is held for you for ${offer.holdDays} days: ` +
    'no one else can buy it. The deposit counts toward the price. If the cart is held by someone else before your payment ' +
    'goes through, your deposit is refunded in full at once.'
  )
}

/** "Tuesday, July 8", New Jersey's calendar: the day a hold ends, as pages and emails say it. */
export function holdDate(at: Date | string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'long', month: 'long', day: 'numeric' }).format(new Date(at))
}

/** What a held cart's page says (PRODUCT.md, "holding a cart"). */
export function onHoldUntil(at: Date | string): string {
  return `On hold until ${holdDate(at)}`
}

/** When a hold made at `paidAt` ends. */
export function holdEnds(paidAt: Date, holdDays: number): Date {
  return new Date(paidAt.getTime() + holdDays * 86_400_000)
}

/** The shopper's fields: the lead forms' own rules, so a deposit's lead is like any other. */
const shopperFields = z.pick(inquiryInput, {
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  textConsent: true,
  sourceUrl: true,
  sourceLabel: true,
})

/** `POST /api/deposits` and `deposit.start`: a cart and who holds it. */
export const depositInput = z
  .extend(shopperFields, {
    cartId: z.int('cartId must be a whole number').check(z.positive('cartId must be a whole number')),
  })
  .check(
    z.superRefine((input, ctx) => {
      if (input.textConsent && !input.phone) {
        ctx.issues.push({ code: 'custom', input: input.phone, path: ['phone'], message: `Enter the phone number to text, or untick “${textConsentLabel}”` })
      }
    }),
  )

export type DepositInput = z.input<typeof depositInput>
export type ValidDeposit = z.output<typeof depositInput>

/** The fields of the hold form, in its order: where each problem is shown. */
export const depositFieldNames = ['firstName', 'lastName', 'email', 'phone', 'textConsent'] as const

/** A deposit's state, as `/staff/deposits` names it. */
export const depositStatusLabels = {
  open: 'At checkout',
  held: 'Holding the cart',
  paid: 'Paid',
  refunding: 'Refund asked of Stripe',
  refunded: 'Refunded',
  expired: 'Hold ended',
  sold: 'Sold, counted toward the price',
} as const

export type DepositStatus = keyof typeof depositStatusLabels
