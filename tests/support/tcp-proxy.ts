import { createServer, type Server, type Socket, connect } from 'node:net'

/**
 * A TCP proxy in front of the database that a test can cut: `stop()` drops every connection and
 * refuses new ones (the database is down), `silence()` accepts and never answers (the database
 * hangs), `freeze()` keeps the open connections but carries nothing more over them (the network
 * went quiet mid-query), `start()` brings it back on the same port.
 */
export interface TcpProxy {
  port: number
  start(): Promise<void>
  stop(): Promise<void>
  silence(): Promise<void>
  freeze(): void
  close(): Promise<void>
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let server: Server | undefined
  let port = 0
  const sockets = new Set<Socket>()
  let frozen = false

  const listen = (mode: 'forward' | 'silent') =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        sockets.add(client)
        client.on('close', () => sockets.delete(client))
        client.on('error', () => client.destroy())
        if (mode === 'silent' || frozen) return
        const upstream = connect(target.port, target.host)
        sockets.add(upstream)
        upstream.on('close', () => {
          sockets.delete(upstream)
          client.destroy()
        })
        upstream.on('error', () => client.destroy())
        client.on('close', () => upstream.destroy())
        client.on('data', (chunk) => frozen || upstream.write(chunk))
        upstream.on('data', (chunk) => frozen || client.write(chunk))
      })
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port
        resolve()
      })
    })

  const shut = async () => {
    frozen = false
    for (const socket of sockets) socket.destroy()
    sockets.clear()
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()))
    server = undefined
  }

  await listen('forward')
  return {
    get port() {
      return port
    },
    start: async () => {
      await shut()
      await listen('forward')
    },
    stop: shut,
    silence: async () => {
      await shut()
      await listen('silent')
    },
    freeze: () => {
      frozen = true
    },
    close: shut,
  }
}
