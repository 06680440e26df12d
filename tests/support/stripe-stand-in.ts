import { createHmac, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Stripe on loopback, for tests (issue #52): the two API calls deposits make, as Stripe documents
 * them (form-encoded bodies with bracketed keys, `Authorization: Bearer` with the secret key,
 * `Idempotency-Key` honoured: the same key answers the same object), recording each request:
 * `POST /v1/checkout/sessions` answers a Checkout Session with its `url` (a page of this stand-in,
 * `GET /c/pay/{id}`, where a browser test lands), and `POST /v1/refunds` a refund. And Stripe's side
 * of the webhook: events signed exactly as Stripe signs them, `Stripe-Signature: t={unix
 * time},v1={HMAC-SHA256 with the endpoint's secret of "{t}.{raw body}", in hex}`. The server under
 * test reaches it through STRIPE_API_URL.
 */
export interface StripeRequest {
  method: string
  path: string
  idempotencyKey: string | undefined
  /** The form body, its bracketed keys made objects and arrays. */
  body: Record<string, unknown>
}

export interface CheckoutSession {
  id: string
  object: 'checkout.session'
  url: string
  mode: string
  amount_total: number
  currency: string
  customer_email: string | null
  client_reference_id: string | null
  metadata: Record<string, string>
  success_url: string
  cancel_url: string
  expires_at: number
  payment_status: 'unpaid' | 'paid'
  status: 'open' | 'complete'
  payment_intent: string | null
}

export interface StripeStandIn {
  url: string
  secretKey: string
  webhookSecret: string
  /** The settings for the server under test. */
  env: Record<string, string>
  requests: StripeRequest[]
  sessions: Map<string, CheckoutSession>
  refunds: { id: string; paymentIntent: string; idempotencyKey: string | undefined }[]
  /** The next `count` refund requests answer 500, as an outage would. */
  failRefunds(count: number): void
  /** `checkout.session.completed` for a Session, paid, as Stripe sends it. */
  completedEvent(sessionId: string): { id: string; body: string }
  /** The header Stripe would send with `body` at `time` (seconds), signed with `secret` (the endpoint's by default). */
  sign(body: string, options?: { time?: number; secret?: string }): string
  /** Posts an event to the webhook as Stripe does; `signature` replaces the real one. */
  deliver(webhookUrl: string, body: string, options?: { signature?: string | null }): Promise<Response>
  stop(): Promise<void>
}

const token = (bytes: number) => randomBytes(bytes).toString('hex')

/** `a[b][0][c]=1` as `{ a: { b: [{ c: '1' }] } }`. */
function formObject(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\]\[|\[|\]/).filter(Boolean)
    let node = root
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value
      else node = (node[part] ??= {}) as Record<string, unknown>
    })
  }
  const arrays = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value
    const entries = Object.entries(value).map(([k, v]) => [k, arrays(v)] as const)
    return entries.length > 0 && entries.every(([k], i) => k === String(i)) ? entries.map(([, v]) => v) : Object.fromEntries(entries)
  }
  return arrays(root) as Record<string, unknown>
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export function stripeSignature(secret: string, body: string, time: number): string {
  return `t=${time},v1=${createHmac('sha256', secret).update(`${time}.${body}`, 'utf8').digest('hex')}`
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_${token(12)}`
  const webhookSecret = `whsec_${token(16)}`
  const requests: StripeRequest[] = []
  const sessions = new Map<string, CheckoutSession>()
  const refunds: StripeStandIn['refunds'] = []
  const answered = new Map<string, unknown>()
  let refundFailures = 0
  let url = ''

  const answer = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${token(7)}` }).end(JSON.stringify(body))
  const error = (res: ServerResponse, status: number, message: string) => answer(res, status, { error: { type: 'invalid_request_error', message } })

  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0]!
      if (req.method === 'GET' && path.startsWith('/c/pay/')) {
        return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Stripe Checkout (stand-in)</title><h1>Pay ${path.slice(7)}</h1>`)
      }
      // What a browser on Stripe's page asks for besides the page.
      if (req.method === 'GET' && path === '/favicon.ico') return res.writeHead(204).end()
      if (req.headers.authorization !== `Bearer ${secretKey}`) return error(res, 401, 'Invalid API Key provided')
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined
      const body = formObject(await bodyOf(req))
      requests.push({ method: req.method ?? '', path, idempotencyKey, body })
      if (idempotencyKey && answered.has(`${path} ${idempotencyKey}`)) return answer(res, 200, answered.get(`${path} ${idempotencyKey}`))
      const remember = (object: unknown) => {
        if (idempotencyKey) answered.set(`${path} ${idempotencyKey}`, object)
        answer(res, 200, object)
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${token(12)}`
        const items = body.line_items as { price_data: { unit_amount: string; currency: string }; quantity: string }[]
        const session: CheckoutSession = {
          id,
          object: 'checkout.session',
          url: `${url}/c/pay/${id}`,
          mode: String(body.mode),
          amount_total: Number(items[0]!.price_data.unit_amount) * Number(items[0]!.quantity),
          currency: items[0]!.price_data.currency,
          customer_email: (body.customer_email as string | undefined) ?? null,
          client_reference_id: (body.client_reference_id as string | undefined) ?? null,
          metadata: (body.metadata as Record<string, string> | undefined) ?? {},
          success_url: String(body.success_url),
          cancel_url: String(body.cancel_url),
          expires_at: Number(body.expires_at),
          payment_status: 'unpaid',
          status: 'open',
          payment_intent: null,
        }
        sessions.set(id, session)
        return remember(session)
      }
      if (req.method === 'POST' && path === '/v1/refunds') {
        if (refundFailures > 0) {
          refundFailures -= 1
          return answer(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } })
        }
        const paymentIntent = String(body.payment_intent)
        const refund = { id: `re_${token(12)}`, object: 'refund', payment_intent: paymentIntent, status: 'succeeded', metadata: body.metadata ?? {} }
        refunds.push({ id: refund.id, paymentIntent, idempotencyKey })
        return remember(refund)
      }
      error(res, 404, `Unrecognized request URL (${req.method}: ${path})`)
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const standIn: StripeStandIn = {
    url,
    secretKey,
    webhookSecret,
    env: { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: url },
    requests,
    sessions,
    refunds,
    failRefunds: (count) => void (refundFailures = count),
    completedEvent(sessionId) {
      const session = sessions.get(sessionId)
      if (!session) throw new Error(`no Checkout Session ${sessionId}`)
      const id = `evt_${token(12)}`
      const paid = { ...session, status: 'complete', payment_status: 'paid', payment_intent: `pi_${token(12)}` }
      const event = {
        id,
        object: 'event',
        api_version: '2026-11-18.endive',
        created: Math.floor(Date.now() / 1000),
        data: { object: paid },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: 'checkout.session.completed',
      }
      return { id, body: JSON.stringify(event, null, 2) }
    },
    sign: (body, { time = Math.floor(Date.now() / 1000), secret = webhookSecret } = {}) => stripeSignature(secret, body, time),
    deliver(webhookUrl, body, { signature } = {}) {
      const header = signature === undefined ? standIn.sign(body) : signature
      return fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)', ...(header === null ? {} : { 'stripe-signature': header }) },
        body,
      })
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  return standIn
}
