import type { Server } from 'node:http'
import { type AddressInfo, connect, type Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createHttpServer, httpLimits } from '../server.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { addressKey, addressLimits, tooManyAtOnceMessage } from './per-address.ts'

/**
 * One address cannot deny the others (issue #26, point 2): 1,000 half-sent requests from one
 * client took every connection the server allows and reset 125 of 134 other visitors' requests.
 * Two loopback addresses stand for two clients: 127.0.0.2 attacks, 127.0.0.1 visits.
 */
const servers: Server[] = []
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

async function listen(trustProxy = 0) {
  // Long header timeouts, so the half-sent requests stay for the whole test however loaded the machine.
  const limits = { ...httpLimits, headersTimeout: 120_000, requestTimeout: 120_000 }
  const server = createHttpServer((_req, res) => res.end('ok'), limits, trustProxy)
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

const openConnections = (server: Server) =>
  new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))))

/** A request whose headers never end, from `localAddress`; resolves once connected or refused. */
function halfSent(port: number, localAddress: string) {
  const socket = connect({ port, host: '127.0.0.1', localAddress })
  sockets.push(socket)
  socket.on('error', () => {})
  return new Promise<Socket>((resolve) => {
    socket.once('connect', () => {
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n')
      resolve(socket)
    })
    socket.once('close', () => resolve(socket))
  })
}

describe('connections per address', () => {
  it('keeps serving other addresses while one holds 1,000 half-sent requests', async () => {
    const { server, port } = await listen()
    await Promise.all(Array.from({ length: 1_000 }, () => halfSent(port, '127.0.0.2')))
    const visits = await Promise.allSettled(
      Array.from({ length: 40 }, () => fetch(`http://127.0.0.1:${port}/`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(10_000) }).then((r) => r.text())),
    )
    expect(visits.map((v) => (v.status === 'fulfilled' ? v.value : String(v.reason)))).toEqual(Array(40).fill('ok'))
    // The attacker kept its share and no more; the rest of its connections were closed at once.
    await expect.poll(() => openConnections(server), { timeout: 10_000 }).toBe(addressLimits.connections)
  }, 60_000)

  it('lets the attacking address back in once its connections close', async () => {
    const { server, port } = await listen()
    const held = await Promise.all(Array.from({ length: addressLimits.connections + 10 }, () => halfSent(port, '127.0.0.2')))
    await expect.poll(() => openConnections(server), { timeout: 10_000 }).toBe(addressLimits.connections)
    for (const socket of held) socket.destroy()
    await expect.poll(() => openConnections(server), { timeout: 10_000 }).toBe(0)
    const again = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' })
    sockets.push(again)
    const answer = await new Promise<string>((resolve) => {
      let received = ''
      again.on('data', (chunk) => (received += chunk.toString()))
      again.on('close', () => resolve(received))
      again.on('error', () => resolve(received))
      again.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
    })
    expect(answer).toMatch(/^HTTP\/1\.1 200[\s\S]*ok$/)
  }, 60_000)

  it('does not cap connections per socket address behind TRUST_PROXY, where they all come from the proxy', async () => {
    const { server, port } = await listen(1)
    await Promise.all(Array.from({ length: addressLimits.connections + 20 }, () => halfSent(port, '127.0.0.2')))
    await expect.poll(() => openConnections(server), { timeout: 10_000 }).toBe(addressLimits.connections + 20)
  }, 60_000)
})

describe('pending requests per forwarded address behind TRUST_PROXY', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer('pglite', { TRUST_PROXY: '1', LOG_LEVEL: 'silent' })
  })
  afterAll(() => server?.close())

  /** A lead whose body never finishes, as the proxy would pass it on for `client`. */
  function pendingLead(client: string) {
    const { port } = new URL(server.url)
    const socket = connect(Number(port), '127.0.0.1')
    sockets.push(socket)
    socket.on('error', () => {})
    socket.write(
      `POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-For: ${client}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"firstName":`,
    )
    return socket
  }
  const fromClient = (client: string) => fetch(`${server.url}/healthz`, { headers: { 'x-forwarded-for': client } })

  it('answers 429 at once past the cap for that forwarded address, and serves every other', async () => {
    const held = Array.from({ length: addressLimits.pendingRequests }, () => pendingLead('203.0.113.7'))
    await expect
      .poll(async () => (await fromClient('203.0.113.7')).status, { timeout: 20_000, interval: 200 })
      .toBe(429)
    const refused = await fromClient('203.0.113.7')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(await refused.json()).toEqual({ message: tooManyAtOnceMessage, issues: [] })
    const others = await Promise.all(['203.0.113.8', '198.51.100.1', '2001:db8:1::1'].map(fromClient))
    expect(others.map((r) => r.status)).toEqual([200, 200, 200])

    for (const socket of held) socket.destroy()
    await expect.poll(async () => (await fromClient('203.0.113.7')).status, { timeout: 10_000, interval: 200 }).toBe(200)
  }, 60_000)

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:0db8:0001:0002:ffff:1:2:3'))
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'))
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
  })
})
