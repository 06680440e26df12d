import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'

export interface GracefulStop {
  /**
   * Stops taking connections and resolves once every request received has been answered and
   * every connection is closed, or after `limitMs`, when whatever is left is cut.
   */
  stop(limitMs: number): Promise<{ cut: number }>
}

/** How often idle connections are looked at while stopping. */
const checkEveryMs = 50

/**
 * Stopping without losing a request the client has sent (PRODUCT.md, "stopping and starting").
 *
 * Node's own `server.close()` closes every connection that has no request in progress at that
 * instant, and on a busy event loop that includes connections whose request has arrived but not
 * been read yet: 10-15 of 20 page requests were reset at a SIGTERM (issue #27). So this closes
 * only the listening socket (net.Server's close, which leaves connections alone) and then looks
 * at each connection: one answering a request finishes it, with `Connection: close`; an idle one
 * is closed only once it has stayed idle, with no byte read, across two looks with the event
 * loop's turns between them, so anything that was waiting in its buffer has been read and
 * parsed, and is answered like any other request.
 *
 * Before the listening socket closes, the event loop turns until a turn accepts no connection:
 * those already waiting in the kernel's accept queue are accepted and served rather than reset
 * (in a reproduction on a busy loop, 1 of 20 had been accepted when the signal was handled, and
 * they came in over the next turns).
 */
export function gracefulStop(server: Server): GracefulStop {
  const sockets = new Map<Socket, { requests: number; bytesRead: number; idleLooks: number }>()
  const responses = new Set<ServerResponse>()
  let stopping = false

  let accepted = 0
  server.on('connection', (socket: Socket) => {
    accepted++
    sockets.set(socket, { requests: 0, bytesRead: 0, idleLooks: 0 })
    socket.once('close', () => sockets.delete(socket))
  })
  // First, before the app: a kept answer is sent within the app's own listener.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = sockets.get(req.socket)
    if (state) state.requests++
    responses.add(res)
    if (stopping) res.setHeader('Connection', 'close')
    res.once('close', () => {
      responses.delete(res)
      if (state) state.requests--
    })
  })

  return {
    async stop(limitMs) {
      stopping = true
      const deadline = Date.now() + limitMs
      for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close')
      // Two immediates are at least one poll phase, where a waiting connection is accepted.
      for (let turn = 0, before = -1; turn < 20 && accepted !== before; turn++) {
        before = accepted
        await new Promise((resolve) => setImmediate(resolve))
        await new Promise((resolve) => setImmediate(resolve))
      }
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()))
      while (sockets.size > 0 && Date.now() < deadline) {
        for (const [socket, state] of sockets) {
          const quiet = state.requests === 0 && socket.bytesRead === state.bytesRead
          state.idleLooks = quiet ? state.idleLooks + 1 : 0
          state.bytesRead = socket.bytesRead
          if (state.idleLooks >= 2) socket.destroy()
        }
        await new Promise((resolve) => setTimeout(resolve, checkEveryMs))
      }
      const cut = sockets.size
      for (const socket of sockets.keys()) socket.destroy()
      await closed
      return { cut }
    },
  }
}
