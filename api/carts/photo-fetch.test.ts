import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { photoMessages, processPhoto } from '../photos/processing.ts'
import { fetchPhoto, type FetchLimits, PhotoFetchError } from './photo-fetch.ts'
import { checkPhotoSource, type PhotoSourcePolicy } from './photo-sources.ts'

/**
 * The rules of fetching an imported photo, against a server on 127.0.0.1 that the policy lets
 * through explicitly (`trustedAddresses`): its names resolve through a stub, so the fetch must
 * connect to the checked address, never to a DNS answer of its own.
 */
const body = Buffer.alloc(4000, 7)
let server: Server
let port: number
const hosts: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    hosts.push(req.headers.host ?? '')
    const at = (path: string) => `http://photos.example:${port}${path}`
    switch (req.url) {
      case '/photo.jpg':
        return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(body)
      case '/price-list.jpg':
        return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('stock,price\nGC-1,9995\n')
      case '/moved':
        return res.writeHead(302, { location: '/photo.jpg' }).end()
      case '/loop':
        return res.writeHead(301, { location: at('/loop') }).end()
      case '/to-elsewhere':
        return res.writeHead(302, { location: 'http://evil.example/photo.jpg' }).end()
      case '/to-inside':
        return res.writeHead(307, { location: `http://inside.example:${port}/photo.jpg` }).end()
      case '/to-site':
        return res.writeHead(302, { location: 'https://carts.example/photos/x.jpg' }).end()
      case '/huge-declared':
        return res.writeHead(200, { 'content-length': String(50_000) }).end(Buffer.alloc(50_000))
      case '/huge-streamed':
        res.writeHead(200, { 'transfer-encoding': 'chunked' })
        for (let i = 0; i < 50; i++) res.write(Buffer.alloc(1000))
        return res.end()
      case '/slow':
        // Held: never answered; the connection ends when the server closes after the tests.
        return
      default:
        return res.writeHead(404).end('no')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => {
  server.closeAllConnections()
  server.close()
})

const policy = (): PhotoSourcePolicy => ({
  siteUrl: 'https://carts.example',
  allowedHosts: [`photos.example:${port}`, `inside.example:${port}`],
  // photos.example is "public" and resolves to the test server; inside.example to the office network.
  resolve: async (host) => (host === 'photos.example' ? ['127.0.0.1'] : ['10.0.0.9']),
  trustedAddresses: ['127.0.0.1'],
})
const limits: FetchLimits = { timeoutMs: 1_000, maxBytes: 10_000, maxRedirects: 3 }

async function fetched(path: string, given = limits): Promise<Buffer | string> {
  const source = await checkPhotoSource(`http://photos.example:${port}${path}`, policy(), { filesAllowed: false })
  if (typeof source === 'string' || source.kind !== 'remote') throw new Error(`not a remote source: ${JSON.stringify(source)}`)
  return fetchPhoto(source, policy(), given).catch((error: unknown) => {
    if (error instanceof PhotoFetchError) return error.message
    throw error
  })
}

describe('fetching an imported photo', () => {
  it('connects to the checked address, with the name in the Host header (no second DNS look-up)', async () => {
    expect(await fetched('/photo.jpg')).toEqual(body)
    expect(hosts.at(-1)).toBe(`photos.example:${port}`)
  })

  it('refuses an internal address unless the policy trusts it, before connecting', async () => {
    const untrusted = { ...policy(), trustedAddresses: [] }
    expect(await checkPhotoSource(`http://photos.example:${port}/photo.jpg`, untrusted, { filesAllowed: false })).toMatch(/internal address \(127\.0\.0\.1\)/)
  })

  it('follows a redirect to an allowed place, and checks each one again', async () => {
    expect(await fetched('/moved')).toEqual(body)
    expect(await fetched('/to-elsewhere')).toMatch(/redirects to http:\/\/evil\.example\/photo\.jpg: .*evil\.example is not allowed/)
    const before = hosts.length
    expect(await fetched('/to-inside')).toMatch(/redirects to .*inside\.example points at an internal address \(10\.0\.0\.9\)/)
    expect(hosts.slice(before)).toEqual([`photos.example:${port}`]) // nothing was sent inside
    expect(await fetched('/to-site')).toMatch(/redirects to this site/)
    expect(await fetched('/loop')).toMatch(/redirects more than 3 times/)
  })

  it('refuses a body past the size limit, declared or streamed', async () => {
    expect(await fetched('/huge-declared')).toMatch(/larger than/)
    expect(await fetched('/huge-streamed')).toMatch(/larger than/)
    expect(await fetched('/photo.jpg', { ...limits, maxBytes: 3999 })).toMatch(/larger than/)
  })

  it('gives up after the time limit', async () => {
    expect(await fetched('/slow', { ...limits, timeoutMs: 300 })).toMatch(/did not send the photo within 0.3 seconds/)
  })

  it('refuses an answer that is not the photo; what it sends is checked by the photo processor, not trusted by its type', async () => {
    expect(await fetched('/gone.jpg')).toMatch(/answered 404, not the photo/)
    const text = await fetched('/price-list.jpg')
    expect(Buffer.isBuffer(text)).toBe(true)
    await expect(processPhoto(text as Buffer)).rejects.toThrow(photoMessages.notImage)
  })
})
