import type { Server } from 'node:http'
import { type AddressInfo, connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createHttpServer, httpLimits } from './server.ts'

/** Slow clients against the real server's limits (issue #11, point 9). */
const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

async function listen(limits = httpLimits) {
  const server = createHttpServer((_req, res) => res.end('ok'), limits)
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

const openConnections = (server: Server) =>
  new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))))

/**
 * A client that sends its headers one byte at a time, forever (the pause between bytes is the
 * slow client itself); resolves when the server hangs up.
 */
function slowHeaders(port: number) {
  const socket: Socket = connect(port, '127.0.0.1')
  let received = ''
  socket.on('data', (chunk) => (received += chunk.toString()))
  socket.on('error', () => {})
  socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n')
  const drip = setInterval(() => socket.writable && socket.write('X'), 500)
  return new Promise<{ received: string }>((resolve) =>
    socket.once('close', () => {
      clearInterval(drip)
      resolve({ received })
    }),
  )
}

describe('slow clients', () => {
  it('gives every server the limits: headers within 10 s, the whole request within 30 s', async () => {
    const { server } = await listen()
    expect([server.headersTimeout, server.requestTimeout]).toEqual([httpLimits.headersTimeout, httpLimits.requestTimeout])
    expect(httpLimits.headersTimeout).toBeLessThan(httpLimits.requestTimeout)
  })

  it('closes 40 connections that never finish their headers at the header timeout', async () => {
    // The header timeout short, the request's longer than the test would wait: a 408 can only be
    // the header timeout's, and the client still dripping shows the server hung up, not the client.
    const { port } = await listen({ ...httpLimits, headersTimeout: 1_000, requestTimeout: 600_000, connectionsCheckingInterval: 250 })
    const closed = await Promise.all(Array.from({ length: 40 }, () => slowHeaders(port)))
    for (const { received } of closed) expect(received).toMatch(/^HTTP\/1\.1 408/)
  }, 30_000)

  it('drops connections beyond the cap at once and serves the rest', async () => {
    const { server, port } = await listen({ ...httpLimits, maxConnections: 5 })
    const held = Array.from({ length: 5 }, () => connect(port, '127.0.0.1').on('error', () => {}))
    await expect.poll(() => openConnections(server)).toBe(5)
    const extra = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      let received = ''
      socket.on('data', (chunk) => (received += chunk.toString()))
      socket.on('error', () => resolve(`error ${received}`))
      socket.on('close', () => resolve(`closed ${received}`))
      socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    })
    // Dropped before a byte of an answer: reset or closed, depending on timing.
    expect(extra).toMatch(/^(closed|error) $/)
    for (const socket of held) socket.destroy()
    await expect.poll(() => openConnections(server)).toBe(0)
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(5000) })
    expect(await res.text()).toBe('ok')
  })
})
