import type { IncomingMessage, ServerResponse } from 'node:http'
import { gzipSync } from 'node:zlib'
import type { RequestHandler } from 'express'
import { type RequestLogger, requestId } from './request-log.ts'

/**
 * The hot path for the busiest answers: cart lists, featured carts and single carts, over REST
 * and tRPC. The first answer to a URL goes through Express as usual and is recorded; for the
 * next second the same URL is answered straight from memory, with a fresh request id and the
 * same headers, before Express is involved. A cart write clears everything at once.
 */
const cacheable = /^\/(api\/golf-carts(\/featured|\/slug\/[^/?]+)?|trpc\/cart\.(list|featured|bySlug))(\?|$)/

interface Entry {
  expires: number
  /** Name, value, name, value...: written in one call. */
  headers: string[]
  body: Buffer
  gzip?: Buffer
  etag?: string
}

export interface HotCache {
  /** Answers from memory and returns true, or returns false to let Express answer. */
  serve(req: IncomingMessage, res: ServerResponse): boolean
  /** Express middleware (after compression) that records cacheable 200 answers. */
  record: RequestHandler
  clear(): void
}

/** Everything the recorded answer said, except what belongs to one request or one connection. */
const perRequestHeaders = new Set([
  'x-request-id',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'date',
  'connection',
  'keep-alive',
  'set-cookie',
])

/**
 * The URL, and how the request arrived as Express will judge it: an answer made for a request
 * that came over HTTPS carries HSTS (api/http/security.ts), one made over plain HTTP does not,
 * and each is only ever replayed to requests like the one it was made for. X-Forwarded-Proto
 * counts only behind a trusted proxy (TRUST_PROXY), exactly as for Express's `req.secure`; with
 * no proxy trusted, a made-up header neither changes the answer nor makes a new cache entry.
 */
function keyOf(req: IncomingMessage, url: string, trustProxy: number): string {
  const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'
  const forwarded = trustProxy > 0 ? String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]!.trim() : ''
  return `${(forwarded || own) === 'https' ? 'https' : 'http'} ${url}`
}

export function createHotCache(
  logRequest: RequestLogger,
  ttlMs = 1000,
  { maxEntries = 2000, trustProxy = 0 }: { maxEntries?: number; trustProxy?: number } = {},
): HotCache {
  const entries = new Map<string, Entry>()
  let generation = 0

  return {
    clear() {
      generation++
      entries.clear()
    },

    serve(req, res) {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url) return false
      const key = keyOf(req, req.url, trustProxy)
      const entry = entries.get(key)
      if (!entry) return false
      const now = Date.now()
      if (entry.expires <= now) {
        entries.delete(key)
        return false
      }
      const started = process.hrtime.bigint()
      const id = requestId()
      let status = 200
      let body: Buffer | undefined = entry.body
      const headers = [...entry.headers, 'x-request-id', id]
      if (entry.etag && req.headers['if-none-match'] === entry.etag) {
        status = 304
        body = undefined
      } else if (entry.body.length > 1024 && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        entry.gzip ??= gzipSync(entry.body)
        body = entry.gzip
        headers.push('content-encoding', 'gzip')
      }
      if (body) headers.push('content-length', String(body.length))
      res.writeHead(status, headers)
      res.end(req.method === 'HEAD' ? undefined : body)
      logRequest({ id, method: req.method, url: req.url, status, started, bytes: body?.length })
      return true
    },

    record(req, res, next) {
      if (ttlMs <= 0 || req.method !== 'GET' || !cacheable.test(req.originalUrl)) return next()
      const key = keyOf(req, req.originalUrl, trustProxy)
      const recordedIn = generation
      const chunks: Buffer[] = []
      const write = res.write.bind(res) as (...args: unknown[]) => boolean
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        if (chunk) chunks.push(Buffer.from(chunk as string))
        return write(chunk, ...rest)
      }) as typeof res.write
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string))
        // Only a 200 made while no cart was written meanwhile. The chunks recorded here are the
        // uncompressed body: compression wraps the response before this middleware does.
        if (res.statusCode === 200 && recordedIn === generation) {
          if (entries.size >= maxEntries) entries.clear()
          entries.set(key, {
            expires: Date.now() + ttlMs,
            body: Buffer.concat(chunks),
            etag: res.getHeader('etag') as string | undefined,
            headers: Object.entries(res.getHeaders()).flatMap(([name, value]) =>
              value === undefined || perRequestHeaders.has(name) ? [] : [name, Array.isArray(value) ? value.join(', ') : String(value)],
            ),
          })
        }
        return end(chunk, ...rest)
      }) as typeof res.end
      next()
    },
  }
}
