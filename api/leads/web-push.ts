import type { Agent } from 'node:https'
import { business } from '../../domain/business.ts'
import type { Sql } from '../db/database.ts'

/**
 * Web Push (PRODUCT.md, "lead alerts"), with the `web-push` library (decision 0026): the server's
 * VAPID key pair, made once and kept in the database (`web_push_keys`) so every process and every
 * restart signs with the same one, and the sender the outbox worker uses.
 */
export interface VapidKeys {
  publicKey: string
  privateKey: string
}

/** The key pair, made by the first process that needs it; two at once keep the first one stored. */
export async function vapidKeys(sql: Sql): Promise<VapidKeys> {
  const stored = async () => (await sql<VapidKeys[]>`select public_key, private_key from web_push_keys`)[0]
  const found = await stored()
  if (found) return found
  const made = (await loadWebPush()).generateVAPIDKeys()
  await sql`insert into web_push_keys (public_key, private_key) values (${made.publicKey}, ${made.privateKey}) on conflict (id) do nothing`
  return (await stored())!
}

/**
 * The library, loaded with the first push (not at every start, decision 0013). It is CommonJS,
 * whose exports Node gives as the default only.
 */
async function loadWebPush(): Promise<typeof import('web-push')> {
  return (await import('web-push')).default
}

export interface PushTarget {
  endpoint: string
  p256dh: string
  auth: string
}

/** A push service's refusal, with its HTTP status (404 and 410: the subscription is gone). */
export class PushRefused extends Error {
  override name = 'PushRefused'
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message)
  }
}

export interface PushSender {
  send(target: PushTarget, payload: string, options: { topic: string }): Promise<void>
}

/**
 * Sends one encrypted message to one browser's push service. `agent` is for tests' local push
 * service (its own certificate); production uses the default. A message waits at the push service
 * up to a day for a phone that is off, and a resend with the same `topic` replaces one not yet
 * delivered rather than adding a second.
 */
export function createPushSender(sql: Sql, options: { agent?: Agent; timeoutMs?: number } = {}): PushSender {
  let keys: Promise<VapidKeys> | undefined
  // Read once; a failed read is tried again at the next push.
  const keyPair = () =>
    (keys ??= vapidKeys(sql).catch((error: unknown) => {
      keys = undefined
      throw error
    }))
  return {
    async send(target, payload, { topic }) {
      const [webPush, vapid] = await Promise.all([loadWebPush(), keyPair()])
      try {
        await webPush.sendNotification({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, {
          vapidDetails: { subject: `mailto:${business.email}`, ...vapid },
          TTL: 24 * 60 * 60,
          urgency: 'high',
          contentEncoding: 'aes128gcm',
          topic,
          timeout: options.timeoutMs ?? 10_000,
          ...(options.agent ? { agent: options.agent } : {}),
        })
      } catch (error) {
        if (error instanceof webPush.WebPushError) throw new PushRefused(error.statusCode, `push service answered ${error.statusCode}`)
        throw error
      }
    },
  }
}
