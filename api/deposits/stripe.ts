import type { Env } from '../config/env.ts'

/**
 * Stripe, through its official package (docs/decisions/0047-deposits.md): Checkout Sessions for
 * deposits, refunds, and the signature of the events Stripe posts to us. The shopper types the
 * card on Stripe's page; no card data ever reaches this server. The package is loaded when first
 * used, not at every start (docs/decisions/0013-lean-start.md).
 */
export type StripeSettings = NonNullable<Env['stripe']>

type StripePackage = typeof import('stripe').default
type StripeClient = InstanceType<StripePackage>
export type StripeEvent = ReturnType<StripeClient['webhooks']['constructEvent']>

let loading: Promise<StripePackage> | undefined
function loadStripe(): Promise<StripePackage> {
  loading ??= import('stripe').then((module) => module.default)
  return loading
}

/** What a deposit's Checkout Session is made of. */
export interface CheckoutRequest {
  amountCents: number
  /** The line the shopper reads on Stripe's page and receipt. */
  name: string
  description: string
  email: string
  /** Ours, carried back in `checkout.session.completed` and on the payment: strings only. */
  metadata: Record<string, string>
  successUrl: string
  cancelUrl: string
  /** The Session closes then if unpaid (Stripe allows 30 minutes to 24 hours). */
  expiresAt: Date
  /** The same deposit asks Stripe once, however often the request is retried. */
  idempotencyKey: string
}

export interface Payments {
  checkout(request: CheckoutRequest): Promise<{ id: string; url: string }>
  /** Refunds a payment in full; the key makes a retried refund the same refund. */
  refund(paymentIntentId: string, idempotencyKey: string, metadata: Record<string, string>): Promise<{ id: string; status: string }>
  /**
   * The event Stripe signed, from the raw body and its `Stripe-Signature` header, checked with the
   * webhook endpoint's secret (and its timestamp within Stripe's five-minute tolerance); throws
   * otherwise.
   */
  verify(rawBody: Buffer, signature: string | undefined): Promise<StripeEvent>
}

/**
 * The package's client on `STRIPE_API_URL`: Stripe's own host by default, a test's local stand-in
 * through the client's documented `host`, `port` and `protocol` settings.
 */
export function createPayments(settings: StripeSettings): Payments {
  let client: Promise<StripeClient> | undefined
  const connect = async () => {
    const Stripe = await loadStripe()
    const url = new URL(settings.apiUrl)
    const protocol = url.protocol === 'http:' ? 'http' : 'https'
    return new Stripe(settings.secretKey, {
      host: url.hostname,
      port: url.port || (protocol === 'http' ? 80 : 443),
      protocol,
      // A bounded wait: a refund that times out is tried again by the outbox.
      timeout: 20_000,
      maxNetworkRetries: 1,
      telemetry: false,
    })
  }
  const stripe = () => (client ??= connect())
  return {
    async checkout(request) {
      const session = await (await stripe()).checkout.sessions.create(
        {
          mode: 'payment',
          // Cards, the wallets that pay by card, and Link: paid at once, so the completed event
          // decides there and then (a bank debit would complete unpaid and settle days later).
          allowed_payment_method_types: ['card', 'link'],
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: request.amountCents,
                product_data: { name: request.name, description: request.description },
              },
            },
          ],
          customer_email: request.email,
          client_reference_id: request.metadata.depositId,
          metadata: request.metadata,
          payment_intent_data: { metadata: request.metadata, description: request.name },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          expires_at: Math.floor(request.expiresAt.getTime() / 1000),
        },
        { idempotencyKey: request.idempotencyKey },
      )
      if (!session.url) throw new Error(`Stripe made Checkout Session ${session.id} without an address`)
      return { id: session.id, url: session.url }
    },
    async refund(paymentIntentId, idempotencyKey, metadata) {
      const refund = await (await stripe()).refunds.create({ payment_intent: paymentIntentId, metadata }, { idempotencyKey })
      return { id: refund.id, status: refund.status ?? 'pending' }
    },
    async verify(rawBody, signature) {
      if (!signature) throw new Error('no Stripe-Signature header')
      return (await stripe()).webhooks.constructEvent(rawBody, signature, settings.webhookSecret)
    },
  }
}
