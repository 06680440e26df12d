import type RequestClient from 'twilio/lib/base/RequestClient.js'
import type { Env } from '../config/env.ts'

/**
 * Twilio, through its official package (docs/decisions/0042-twilio.md): texts out by the Messages
 * API, and the signature of what Twilio posts to us. The package is loaded when first used, not
 * at every start (it takes a quarter of a second to load; docs/decisions/0013-lean-start.md).
 */
export type TwilioSettings = NonNullable<Env['twilio']>

type TwilioPackage = typeof import('twilio')

let loading: Promise<TwilioPackage> | undefined
/** The package, once per process. */
export function loadTwilio(): Promise<TwilioPackage> {
  loading ??= import('twilio').then((module) => module.default)
  return loading
}

/** Where Twilio's REST API is, as the package's requests name it. */
const twilioApi = /^https:\/\/api\.twilio\.com(?=\/|$)/

export interface SentText {
  /** Twilio's MessageSid, which its status callbacks name. */
  sid: string
  /** Twilio's first status: queued, accepted, sending, sent. */
  status: string
}

export interface TextSender {
  /** The dealer's number texts come from (E.164). */
  from: string
  send(text: { to: string; body: string; statusCallback: string }): Promise<SentText>
}

/**
 * Sends through the Messages API from `TWILIO_FROM`. `TWILIO_API_URL` other than Twilio's own
 * (a test's local stand-in) is reached through the package's documented hook for it, a custom
 * HTTP client: the package's own client, given the stand-in's address in place of Twilio's.
 */
export function createTextSender(settings: TwilioSettings): TextSender {
  let client: Promise<ReturnType<TwilioPackage>> | undefined
  const connect = async () => {
    const twilio = await loadTwilio()
    class ApiAtUrl extends twilio.RequestClient {
      override request<TData>(options: RequestClient.RequestOptions<TData>) {
        return super.request<TData>({ ...options, uri: options.uri.replace(twilioApi, settings.apiUrl) })
      }
    }
    // A bounded wait: a silent API delays one text's attempt, and the outbox tries it again.
    return twilio(settings.accountSid, settings.authToken, { httpClient: new ApiAtUrl({ timeout: 15_000 }) })
  }
  return {
    from: settings.from,
    async send({ to, body, statusCallback }) {
      const message = await (await (client ??= connect())).messages.create({ to, from: settings.from, body, statusCallback })
      return { sid: message.sid, status: message.status }
    },
  }
}

/** Whether a post is Twilio's: its `X-Twilio-Signature` for the URL we gave Twilio and the posted fields. */
export async function signedByTwilio(authToken: string, signature: string | undefined, url: string, fields: Record<string, string>): Promise<boolean> {
  if (!signature) return false
  return (await loadTwilio()).validateRequest(authToken, signature, url, fields)
}

/** The TwiML answer to a text: a reply, or nothing (an empty `<Response/>`). */
export async function messagingAnswer(reply?: string): Promise<string> {
  const answer = new (await loadTwilio()).twiml.MessagingResponse()
  if (reply) answer.message(reply)
  return answer.toString()
}
