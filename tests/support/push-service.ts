import { execFile } from 'node:child_process'
import { createECDH, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { Agent, createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
// eslint-disable-next-line @typescript-eslint/ban-ts-comment -- http_ece ships no types
// @ts-ignore
import ece from 'http_ece'

/**
 * A local push service for tests (issue #28): HTTPS with its own certificate (made by openssl),
 * one endpoint per subscription it hands out, each with the browser's keys, so what arrives is
 * decrypted (RFC 8291, aes128gcm) exactly as a browser would. An endpoint can be made to answer
 * 410 Gone, as a push service does for a subscription the browser dropped, or `'never'`: it takes
 * the request and holds it unanswered (a firewall that drops push traffic, a hostile endpoint).
 */
export interface ReceivedPush {
  subscription: string
  at: number
  payload: { title: string; body: string; url: string; tag: string }
  headers: Record<string, string | string[] | undefined>
}

export interface PushService {
  /**
   * The host its endpoints are on, for the server's PUSH_SERVICE_HOSTS: a test names it there, as
   * production names the browsers' push services; nothing in the server lets loopback in otherwise.
   */
  host: string
  /** A subscription as `PushSubscription.toJSON()` gives it. */
  subscribe(name: string, answer?: number | 'never'): { endpoint: string; keys: { p256dh: string; auth: string } }
  received: ReceivedPush[]
  /** Requests to a `'never'` endpoint, held unanswered: when each arrived, and whether its sender still waits. */
  held: { subscription: string; at: number; open: boolean }[]
  /** Trusts the service's certificate, for the server under test. */
  agent: Agent
  /** The certificate's file, for NODE_EXTRA_CA_CERTS in a server process. */
  caFile: string
  start(): Promise<void>
  stop(): Promise<void>
}

export async function startPushService(port = 0): Promise<PushService> {
  const dir = mkdtempSync(join(tmpdir(), 'gc-push-'))
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ])
  const cert = readFileSync(join(dir, 'cert.pem'))
  const key = readFileSync(join(dir, 'key.pem'))
  const subscriptions = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: string; answer: number | 'never' }>()
  const received: ReceivedPush[] = []
  const held: PushService['held'] = []
  let server: Server | undefined
  let listenPort = port

  const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const name = decodeURIComponent((req.url ?? '').replace(/^\/push\//, ''))
      const subscription = subscriptions.get(name)
      if (!subscription) return void res.writeHead(404).end()
      if (subscription.answer === 'never') {
        const request = { subscription: name, at: Date.now(), open: true }
        held.push(request)
        // Never answered: the sender gives up (its connection closes) or `stop()` closes it.
        res.on('close', () => (request.open = false))
        return
      }
      if (subscription.answer !== 201) return void res.writeHead(subscription.answer).end()
      const plain = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.auth }) as Buffer
      received.push({ subscription: name, at: Date.now(), payload: JSON.parse(plain.toString('utf8')), headers: req.headers })
      res.writeHead(201).end()
    })
  }

  const service: PushService = {
    host: '127.0.0.1',
    received,
    held,
    agent: new Agent({ ca: cert }),
    caFile: join(dir, 'cert.pem'),
    subscribe(name, answer = 201) {
      const ecdh = createECDH('prime256v1')
      ecdh.generateKeys()
      const auth = randomBytes(16).toString('base64url')
      subscriptions.set(name, { ecdh, auth, answer })
      return { endpoint: `https://127.0.0.1:${listenPort}/push/${encodeURIComponent(name)}`, keys: { p256dh: ecdh.getPublicKey('base64url'), auth } }
    },
    async start() {
      server = createServer({ cert, key }, handler)
      await new Promise<void>((resolve) => server!.listen(listenPort, '127.0.0.1', resolve))
      listenPort = (server.address() as AddressInfo).port
    },
    async stop() {
      server?.closeAllConnections()
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
      server = undefined
    },
  }
  await service.start()
  return service
}
