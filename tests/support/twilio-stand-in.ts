import { createHmac, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Twilio on loopback, for tests (issue #50): the Messages API as Twilio documents it
 * (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded `To`, `From`, `Body`,
 * `StatusCallback`, HTTP Basic with the account SID and auth token; 201 and the message resource
 * as JSON), recording every text it is asked to send; and Twilio's side of the webhooks: posts
 * signed as Twilio signs them (`X-Twilio-Signature`: HMAC-SHA1 with the auth token of the URL
 * followed by each parameter's name and value, sorted by name, in base64). The server under test
 * reaches it through TWILIO_API_URL.
 */
export interface SentText {
  to: string
  from: string
  body: string
  statusCallback: string | undefined
  sid: string
  at: number
}

export interface TwilioStandIn {
  url: string
  accountSid: string
  authToken: string
  from: string
  /** The settings for the server under test. */
  env: Record<string, string>
  sent: SentText[]
  /** Twilio answers a text to this number with this error (status, Twilio's code, message). */
  refuse(to: string, error: { status: number; code: number; message: string }): void
  /** The signature Twilio would send for a post of `fields` to `url`. */
  sign(url: string, fields: Record<string, string>): string
  /**
   * Posts form fields to `url` as Twilio does, signed unless `signed: false`; `signedFor` is the
   * address Twilio was given when it differs from where the post goes (localhost for 127.0.0.1).
   */
  post(url: string, fields: Record<string, string>, options?: { signed?: boolean; signedFor?: string }): Promise<Response>
  /** A text from a shopper to the dealer's number, as Twilio delivers it to the webhook. */
  textIn(url: string, from: string, body: string, options?: { signed?: boolean; sid?: string; signedFor?: string }): Promise<Response>
  stop(): Promise<void>
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex')

export function twilioSignature(authToken: string, url: string, fields: Record<string, string>): string {
  const data = Object.keys(fields)
    .sort()
    .reduce((acc, key) => acc + key + fields[key], url)
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf-8')).digest('base64')
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

export async function startTwilioStandIn(options: { from?: string } = {}): Promise<TwilioStandIn> {
  const accountSid = `AC${hex(16)}`
  const authToken = hex(16)
  const from = options.from ?? '+16095550100'
  const sent: SentText[] = []
  const refusals = new Map<string, { status: number; code: number; message: string }>()
  const answer = (res: import('node:http').ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))

  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = `/2010-04-01/Accounts/${accountSid}/Messages.json`
      if (req.method !== 'POST' || req.url !== path) {
        return answer(res, 404, { code: 20404, message: `The requested resource ${req.url} was not found`, status: 404 })
      }
      const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`
      if (req.headers.authorization !== expected) return answer(res, 401, { code: 20003, message: 'Authenticate', status: 401 })
      const form = await formOf(req)
      const to = form.get('To') ?? ''
      const refusal = refusals.get(to)
      if (refusal) return answer(res, refusal.status, { code: refusal.code, message: refusal.message, status: refusal.status })
      const sid = `SM${hex(16)}`
      const text = { to, from: form.get('From') ?? '', body: form.get('Body') ?? '', statusCallback: form.get('StatusCallback') ?? undefined, sid, at: Date.now() }
      sent.push(text)
      const now = new Date().toUTCString()
      answer(res, 201, {
        sid,
        account_sid: accountSid,
        to: text.to,
        from: text.from,
        body: text.body,
        status: 'queued',
        direction: 'outbound-api',
        num_segments: '1',
        num_media: '0',
        api_version: '2010-04-01',
        date_created: now,
        date_updated: now,
        date_sent: null,
        price: null,
        price_unit: 'USD',
        error_code: null,
        error_message: null,
        messaging_service_sid: null,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
        subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
      })
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const standIn: TwilioStandIn = {
    url,
    accountSid,
    authToken,
    from,
    env: { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: from, TWILIO_API_URL: url },
    sent,
    refuse: (to, error) => void refusals.set(to, error),
    sign: (target, fields) => twilioSignature(authToken, target, fields),
    post(target, fields, { signed = true, signedFor = target } = {}) {
      return fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
          'user-agent': 'TwilioProxy/1.1',
          ...(signed ? { 'x-twilio-signature': twilioSignature(authToken, signedFor, fields) } : {}),
        },
        body: new URLSearchParams(fields),
      })
    },
    textIn(target, sender, body, { signed = true, sid = `SM${hex(16)}`, signedFor = target } = {}) {
      return standIn.post(
        target,
        { ToCountry: 'US', SmsMessageSid: sid, NumMedia: '0', SmsSid: sid, SmsStatus: 'received', Body: body, To: from, NumSegments: '1', MessageSid: sid, AccountSid: accountSid, From: sender, ApiVersion: '2010-04-01' },
        { signed, signedFor },
      )
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  return standIn
}
