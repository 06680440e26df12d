import { formatDollars } from './dollars.ts'

/**
 * The dealer's financing offer and the payment calculator (docs/PRODUCT.md, "Financing and the
 * payment calculator"). Every page, card and legal text that mentions financing reads the
 * offer here, so a changed offer is one edit.
 *
 * The original rule is exact when the APR is 0, the default: (price - down payment) / term, no
 * interest. With an APR the result is the standard amortised payment. A down payment above the
 * price finances nothing, so the payment is $0.00 and the result says why; so does a missing price.
 */
export const financingOffer = {
  /** The advertised rate, in percent. */
  apr: 0,
  /** Which carts it covers and who qualifies, as the sentences on the site say it. */
  models: 'select models',
  condition: 'with approved credit',
  /** The terms a buyer can choose, in months; the calculator offers the same ones. */
  terms: [24, 36, 48, 60],
  /** What to bring to apply, in a sentence's case (the page capitalises each line). */
  documents: [
    "valid driver's license",
    'proof of income',
    'Social Security number',
    'bank account information',
    'proof of residence',
  ],
} as const

export const paymentTerms = financingOffer.terms
export type PaymentTerm = (typeof paymentTerms)[number]
export const defaultTerm: PaymentTerm = 36
/** 60: "terms up to 60 months". */
export const longestTerm: number = Math.max(...paymentTerms)

/** "0% APR on select models with approved credit": the offer in one phrase. */
export const financingHeadline = `${financingOffer.apr}% APR on ${financingOffer.models} ${financingOffer.condition}`

/** "24, 36, 48 or 60 months". */
export const termChoices = `${paymentTerms.slice(0, -1).join(', ')} or ${longestTerm} months`

export interface PaymentInput {
  price: string | number
  downPayment: string | number
  term?: string | number
  apr?: string | number
}

export interface PaymentResult {
  monthly: number
  financed: number
  term: PaymentTerm
  apr: number
  /** Present when the visitor should be told why the figure looks odd. */
  note?: 'no-price' | 'down-payment-covers-price'
}

/**
 * Non-numeric or empty counts as 0. "$12,995" is what people type, so currency signs,
 * thousands separators and spaces are ignored first; a negative amount also counts as 0.
 */
export function parseAmount(value: string | number | undefined): number {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : 0
  if (value === undefined) return 0
  const n = Number(value.replace(/[$,\s]/g, ''))
  return Number.isFinite(n) && n > 0 ? n : 0
}

export function parseTerm(value: string | number | undefined): PaymentTerm {
  const n = Number(value)
  return paymentTerms.find((t) => t === n) ?? defaultTerm
}

export function monthlyPayment(input: PaymentInput): PaymentResult {
  const price = parseAmount(input.price)
  const down = parseAmount(input.downPayment)
  const term = parseTerm(input.term)
  const apr = parseAmount(input.apr)
  // An empty price counts as 0 (docs/PRODUCT.md): the payment is $0.00, and the visitor is told to enter one.
  if (price === 0) return { monthly: 0, financed: 0, term, apr, note: 'no-price' }
  if (down > price) return { monthly: 0, financed: 0, term, apr, note: 'down-payment-covers-price' }
  const financed = price - down
  if (apr === 0) return { monthly: financed / term, financed, term, apr }
  const rate = apr / 100 / 12
  const monthly = (financed * rate) / (1 - (1 + rate) ** -term)
  return { monthly, financed, term, apr }
}

/**
 * The calculator's starting terms (nothing down, `defaultTerm` months, the offer's rate): what a
 * card's "From $X/mo" assumes (PRODUCT.md, "cards"), said in `monthlyFromTerms` on the
 * financing page.
 */
export const defaultPaymentTerms = { downPayment: 0, term: defaultTerm, apr: financingOffer.apr } as const

/** "no money down, 36 months at 0% APR": the terms behind every "From $X/mo". */
export const monthlyFromTerms = `no money down, ${defaultPaymentTerms.term} months at ${defaultPaymentTerms.apr}% APR, ${financingOffer.condition}`

/** A card's monthly price: the calculator's own payment for `price` at its starting terms. */
export function monthlyFrom(price: number): number {
  return monthlyPayment({ price, ...defaultPaymentTerms }).monthly
}

/** "$362/mo": whole dollars, rounded up so the advertised payment is never below the real one. */
export function formatMonthly(amount: number): string {
  return `${formatDollars(Math.ceil(amount))}/mo`
}

/** "$1,234.56": the calculator always shows cents (two decimals). */
export function formatMoney(amount: number): string {
  return formatDollars(amount, 'always')
}
