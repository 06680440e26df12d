import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { Server as NetServer, type Socket } from 'node:net'

export interface GracefulStop {
  /**
   * Stops taking connections and resolves once every request received has been answered and
   * every connection is closed, or after `limitMs`, when whatever is left is cut, but for
   * requests still arriving then, which are answered 503 (`answered`).
   */
  stop(limitMs: number): Promise<{ cut: number; answered: number }>
}

/** How often idle connections are looked at while stopping. */
const checkEveryMs = 50

/**
 * After the limit, how long a request answered 503 (below) may go on sending what is left of its
 * body, which is read and dropped, so that the close after it is not a reset that loses the answer.
 */
const answeredGraceMs = 1000

/** The answer to a request still arriving when the time to stop is up. */
export const stoppedMidRequestMessage =
  'The server is restarting and this request had not all arrived in time: nothing of it was stored or sent. Send it again in a few seconds.'

/**
 * Stopping without losing a request the client has sent (PRODUCT.md, "stopping and starting").
 *
 * Node's own `server.close()` closes every connection that has no request in progress at that
 * instant, and on a busy event loop that includes connections whose request has arrived but not
 * been read yet: 10-15 of 20 page requests were reset at a SIGTERM (issue #27). So this closes
 * only the listening socket (net.Server's close, which leaves connections alone) and then looks
 * at each connection: one answering a request finishes it, with `Connection: close`; one that
 * has carried a request and is idle (a kept-alive connection) is closed once it has stayed idle,
 * with no byte read, across two looks with the event loop's turns between them, so anything that
 * was waiting in its buffer has been read and parsed, and is answered like any other request.
 * One that has not carried a whole request yet is not idle but a request on its way: it used to
 * be closed like an idle one, about 100 ms after the stop, if its client had not sent by then. On
 * a loaded machine (load 20) the server read 85 of 100 requests more than 100 ms after accepting
 * their connections, up to 500 ms, and one run of api/crash.test.ts had 43 of 100 connections
 * closed so (UND_ERR_SOCKET). It is given what any connection is given for its first request,
 * the headers timeout (`headersTimeout`, api/server.ts), within the stop's limit. (`bytesRead`
 * does move when Node's parser reads, partial headers included.)
 *
 * The listening socket is closed only once the kernel's accept queue is empty: a connection
 * waiting there has, for its client, been accepted (its request is sent), and closing the
 * listening socket resets it. Node 20 (libuv 1.46) accepts one connection per turn of the event
 * loop (strace: one accept4 per epoll_wait), so a server busy answering falls behind. At a SIGTERM
 * 50 ms into 100 lead submissions, 5 had been accepted; the 20 turns this used to wait accepted
 * 39 more, and the 56 still queued were reset (ECONNRESET for 11-57 of the 100 in 8 of 14 runs at
 * a load of 14-17). So the event loop turns until a turn accepts nothing, that is until a poll
 * found the queue empty, for as long as the limit allows (a client flooding new connections
 * holds the listening socket open until then, and what is not answered by the limit is cut as
 * below). A handshake that completes after that poll, in the moment before the close, is still
 * reset; one after the close is refused (ECONNREFUSED: nothing was sent).
 */
export function gracefulStop(server: Server): GracefulStop {
  const sockets = new Map<Socket, { requests: number; served: number; acceptedAt: number; bytesRead: number; idleLooks: number }>()
  const responses = new Set<ServerResponse>()
  let stopping = false

  let accepted = 0
  server.on('connection', (socket: Socket) => {
    accepted++
    sockets.set(socket, { requests: 0, served: 0, acceptedAt: Date.now(), bytesRead: 0, idleLooks: 0 })
    socket.once('close', () => sockets.delete(socket))
  })
  // First, before the app: a kept answer is sent within the app's own listener.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const state = sockets.get(req.socket)
    if (state) {
      state.requests++
      state.served++
    }
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
      // Two immediates are at least one poll phase, where a waiting connection is accepted (one a
      // poll): a turn that accepts none has found the accept queue empty.
      for (let before = -1; accepted !== before && Date.now() < deadline; ) {
        before = accepted
        await new Promise((resolve) => setImmediate(resolve))
        await new Promise((resolve) => setImmediate(resolve))
      }
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()))
      while (sockets.size > 0 && Date.now() < deadline) {
        for (const [socket, state] of sockets) {
          // A connection yet to carry a whole request has its request on the way.
          const arriving = state.served === 0 && Date.now() - state.acceptedAt < server.headersTimeout
          const quiet = state.requests === 0 && !arriving && socket.bytesRead === state.bytesRead
          state.idleLooks = quiet ? state.idleLooks + 1 : 0
          state.bytesRead = socket.bytesRead
          if (state.idleLooks >= 2) socket.destroy()
        }
        await new Promise((resolve) => setTimeout(resolve, checkEveryMs))
      }
      // A request still arriving (an upload on a slow line) has not reached the app: it is
      // answered 503 with a sentence rather than reset, and the app never gets the rest of it.
      const answered = new Set<Socket>()
      for (const res of responses) {
        const req = res.req
        if (res.headersSent || req.complete || res.socket === null) continue
        req.removeAllListeners('data')
        req.removeAllListeners('end')
        req.unpipe()
        req.resume()
        const body = JSON.stringify({ message: stoppedMidRequestMessage, issues: [] })
        res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'retry-after': '5', connection: 'close' })
        res.end(body)
        answered.add(res.socket)
      }
      const graceUntil = Date.now() + answeredGraceMs
      while ([...answered].some((socket) => sockets.has(socket)) && Date.now() < graceUntil) {
        await new Promise((resolve) => setTimeout(resolve, checkEveryMs))
      }
      const cut = [...sockets.keys()].filter((socket) => !answered.has(socket)).length
      for (const socket of sockets.keys()) socket.destroy()
      await closed
      return { cut, answered: answered.size }
    },
  }
}
