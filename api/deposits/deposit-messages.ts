import { business, formatAddress, showroomByKey } from '../../domain/business.ts'
import { formatCents, holdDate } from '../../domain/deposits.ts'
import { formatPrice, type GolfCart } from '../../domain/golf-cart.ts'
import { paths } from '../../domain/site-paths.ts'
import { leadPaths, staffPaths } from '../../domain/staff-paths.ts'
import { greetingName, type MailMessage, type MailSettings, messageId } from '../leads/messages.ts'
import { newJerseyTime } from '../leads/lead-facts.ts'
import { visible } from '../terminal.ts'

/**
 * The emails a deposit sends (PRODUCT.md, "holding a cart", "after the hold"): the shopper's
 * receipt, the refunded shopper's explanation with similar carts, the cart owner's notice a day
 * before a hold ends, and a renter's deposit link. Words only; the outbox sends them
 * (api/deposits/deposit-delivery.ts). The shopper's own words are never echoed back but the first
 * name, as every confirmation greets (`greetingName`).
 */
export interface DepositFacts {
  id: number
  kind: 'cart' | 'rental'
  firstName: string
  lastName: string
  email: string
  amountCents: number
  holdUntil: Date | null
  refundReason: 'taken' | 'staff' | null
  leadId: number | null
  cart: { title: string; slug: string; price: number; stockNumber: string; location: string } | null
  rental: { startDate: string; endDate: string } | null
}

const depositMessageId = (settings: MailSettings, deposit: DepositFacts, what: string) => messageId(settings, `deposit-${deposit.id}-${what}`)

const signature = (settings: MailSettings) => ['', `Questions? Call us at ${business.tollFree.display}.`, '', business.name, settings.siteUrl]

function shopperMail(settings: MailSettings, deposit: DepositFacts, what: string, subject: string, lines: string[]): MailMessage {
  return {
    from: settings.from,
    to: [deposit.email],
    replyTo: business.email,
    subject,
    text: [`Hi ${greetingName(deposit.firstName)},`, '', ...lines, ...signature(settings)].join('\n'),
    messageId: depositMessageId(settings, deposit, what),
  }
}

/** The receipt: what was paid, what it holds and until when. */
export function receiptEmail(settings: MailSettings, deposit: DepositFacts): MailMessage {
  const paid = formatCents(deposit.amountCents)
  if (deposit.kind === 'rental' || !deposit.cart) {
    return shopperMail(settings, deposit, 'receipt', `Your ${paid} rental deposit is paid - ${business.name}`, [
      `Thank you: we received your ${paid} deposit${deposit.rental ? ` for your golf cart rental from ${deposit.rental.startDate} to ${deposit.rental.endDate}` : ''}.`,
      'Your reservation is secured, and the deposit counts toward what you pay at pickup.',
    ])
  }
  const { cart } = deposit
  const showroom = showroomByKey(cart.location)
  const until = deposit.holdUntil ? holdDate(deposit.holdUntil) : undefined
  return shopperMail(settings, deposit, 'receipt', `Your deposit holds the ${cart.title}${until ? ` until ${until}` : ''}`, [
    `Thank you: we received your ${paid} deposit, and the ${cart.title} (stock number ${cart.stockNumber}) is held for you${until ? ` until ${until}` : ''}. Nobody else can buy it meanwhile.`,
    '',
    `The deposit counts toward the price of ${formatPrice(cart.price)}: ${formatPrice(cart.price - deposit.amountCents / 100)} is left to pay when you take it home.`,
    ...(showroom
      ? ['', `The cart is at our ${showroom.name} showroom${showroom.address ? `, ${formatAddress(showroom.address)}` : ''} (${showroom.phone.display}). We will call you to arrange a time.`]
      : []),
    '',
    `The cart's page: ${settings.siteUrl}${paths.vehicle(cart.slug)}`,
  ])
}

/** A refund: why, and (for a cart someone else held first) similar carts. */
export function refundedEmail(settings: MailSettings, deposit: DepositFacts, similar: readonly GolfCart[]): MailMessage {
  const paid = formatCents(deposit.amountCents)
  const what = deposit.cart ? `the ${deposit.cart.title}` : deposit.kind === 'rental' ? 'your rental' : 'the cart'
  const why =
    deposit.refundReason === 'taken'
      ? [
          `We're sorry: another shopper's deposit for ${what} went through moments before yours, so the cart is no longer free to hold.`,
          `We have refunded your ${paid} in full. Your bank shows it within 5 to 10 business days.`,
        ]
      : [`We have refunded your ${paid} deposit for ${what} in full. Your bank shows it within 5 to 10 business days.`]
  const alternatives = similar.length > 0 ? ['', 'Carts like it, in stock now:', ...similar.map((cart) => `- ${cart.title}, ${formatPrice(cart.price)}: ${settings.siteUrl}${paths.vehicle(cart.slug)}`)] : []
  return shopperMail(settings, deposit, 'refunded', `Your ${paid} deposit has been refunded - ${business.name}`, [...why, ...alternatives])
}

/** To the cart's owner a day before the hold ends. */
export function holdEndingEmail(settings: MailSettings, deposit: DepositFacts, to: string): MailMessage {
  const shopper = visible(`${deposit.firstName} ${deposit.lastName}`.trim())
  const cart = deposit.cart?.title ?? 'a cart'
  const until = deposit.holdUntil ? newJerseyTime(deposit.holdUntil) : 'soon'
  const page = `${settings.siteUrl}${staffPaths.deposits}`
  return {
    from: settings.from,
    to: [to],
    subject: `Hold ends tomorrow: ${visible(cart)} for ${shopper}`,
    text: [
      `${shopper}'s ${formatCents(deposit.amountCents)} deposit holds the ${visible(cart)} until ${until}.`,
      'Mark it sold (the deposit counts toward the price) on the deposits page, or it goes back on sale by itself then.',
      '',
      page,
      ...(deposit.leadId !== null ? ['', `The lead: ${settings.siteUrl}${leadPaths.lead(deposit.leadId)}`] : []),
    ].join('\n'),
    messageId: depositMessageId(settings, deposit, `hold-ending-${to.replace(/[^\w.-]/g, '_').slice(0, 60)}`),
  }
}

/** A renter's link to pay the deposit of a confirmed reservation. */
export function depositLinkEmail(settings: MailSettings, deposit: DepositFacts, link: string): MailMessage {
  const amount = formatCents(deposit.amountCents)
  return shopperMail(settings, deposit, 'link', `Secure your golf cart rental with a ${amount} deposit - ${business.name}`, [
    `Your golf cart rental${deposit.rental ? ` from ${deposit.rental.startDate} to ${deposit.rental.endDate}` : ''} is confirmed.`,
    `Pay the ${amount} deposit on Stripe's secure page to secure it; it counts toward what you pay at pickup:`,
    '',
    link,
  ])
}
