import type { Server } from 'node:http'
import type { RequestHandler } from 'express'
import { sendError } from './errors.ts'

/**
 * What one client address may hold at once (issue #26: 1,000 half-sent requests from one address
 * took every connection the server allows, and 125 of 134 other visitors' requests were reset).
 * 256 is far more than a browser opens (6 per site) or a showroom behind one address needs, and
 * leaves three quarters of the 1,000 connections (`httpLimits`, api/server.ts) to everyone else.
 *
 * - Connections: counted by the socket's address, beyond the limit closed at once. Behind
 *   TRUST_PROXY every connection comes from the proxy, so there is none of this cap (the proxy
 *   holds the visitors' connections; the server's total cap still applies).
 * - Pending requests (received, not yet answered): counted by the client's address as TRUST_PROXY
 *   reads it (Express's `req.ip`, the forwarded address behind a proxy); beyond the limit answered
 *   429 at once, so one forwarded address cannot keep the proxy's connections to us busy.
 *
 * IPv6 addresses count by their /64, the block one subscriber is given, so a client cannot take
 * a fresh address for each connection.
 */
export const addressLimits = {
  connections: 256,
  pendingRequests: 256,
} as const

export const tooManyAtOnceMessage = 'Too many requests at once from this address. Please wait a moment and try again.'

/** The key a client address counts under: IPv4 as it is, IPv6 by its first four groups (/64). */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return mapped[1]!
  if (!address.includes(':')) return address
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::')
  const front = head ? head.split(':') : []
  const back = tail ? tail.split(':') : []
  const groups = tail === undefined ? front : [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back]
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`
}

/** A count per key that forgets keys back at zero. */
function counter() {
  const counts = new Map<string, number>()
  return {
    take(key: string, limit: number): boolean {
      const count = counts.get(key) ?? 0
      if (count >= limit) return false
      counts.set(key, count + 1)
      return true
    },
    give(key: string) {
      const count = (counts.get(key) ?? 1) - 1
      if (count > 0) counts.set(key, count)
      else counts.delete(key)
    },
  }
}

/** Closes, as soon as it opens, a connection from an address that already holds `limit`. */
export function capConnectionsPerAddress(server: Server, limit: number = addressLimits.connections): void {
  const open = counter()
  server.on('connection', (socket) => {
    const key = addressKey(socket.remoteAddress)
    if (!open.take(key, limit)) return void socket.destroy()
    socket.once('close', () => open.give(key))
  })
}

/** Answers 429 at once to a request from a client that already has `limit` waiting for answers. */
export function capPendingRequestsPerAddress(limit: number = addressLimits.pendingRequests): RequestHandler {
  const pending = counter()
  return (req, res, next) => {
    const key = addressKey(req.ip ?? req.socket.remoteAddress)
    if (!pending.take(key, limit)) {
      // The body may be unread: the connection closes after this answer.
      res.set({ Connection: 'close', 'Retry-After': '1' })
      return sendError(res, 429, tooManyAtOnceMessage)
    }
    res.once('close', () => pending.give(key))
    next()
  }
}
