import type { IncomingMessage, ServerResponse } from 'node:http'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzipSync } from 'node:zlib'
import type { RequestHandler, Response } from 'express'
import { type RequestLogger, requestId } from './request-log.ts'

/**
 * The one cache: whole answers for visitors, kept as bytes until something they show changes
 * (api/db/changes.ts), bounded by size (CACHE_MB) and by age (CART_CACHE_MS). The first answer to a URL is made as usual,
 * by a procedure through Express or by rendering a page, and recorded here on its way out; every
 * later request for that URL is answered from memory with the same headers and a fresh request
 * id, before Express is involved. Compressed copies (gzip, brotli) are made once per change and
 * served to clients that accept them.
 *
 * What is kept: cart reads over REST and tRPC, and pages their handler marks with `keepAnswer`
 * (host/server/site.ts). Never errors, never an answer that was being made while a change came
 * in, and nothing until this process hears the database's notices.
 */
const cacheableApi = /^\/(api\/golf-carts(\/featured|\/slug\/[^/?]+)?|trpc\/cart\.(list|featured|bySlug|similar))(\?|$)/

interface Entry {
  status: number
  /** Name, value, name, value...: written in one call. */
  headers: string[]
  body: Buffer
  etag?: string
  gzip?: Buffer
  br?: Buffer
  /** What this entry counts against the bound. */
  bytes: number
  /** When it was made (`performance.now()`): it is not served after `maxAgeMs`. */
  madeAt: number
}

export interface AnswerCache {
  /** Answers from memory and returns true, or returns false to let Express answer. */
  serve(req: IncomingMessage, res: ServerResponse): boolean
  /** Express middleware (after compression) that records answers worth keeping. */
  record: RequestHandler
  /** Forgets everything: something visitors see has changed. */
  clear(): void
  /** How much is kept (for tests and the benchmarks). */
  size(): { entries: number; bytes: number }
}

export interface AnswerCacheOptions {
  /** The bound on kept bytes (bodies, compressed copies and headers); 0 keeps nothing. */
  maxBytes: number
  /**
   * The longest an answer is kept even when nothing changes (CART_CACHE_MS): a bound on how
   * stale an answer can be should a change ever go unheard; 0 keeps nothing.
   */
  maxAgeMs?: number
  trustProxy?: number
  /** False while changes made elsewhere could go unheard: then nothing is kept. */
  keeping?: () => boolean
}

/** Marks a page answer as one to keep: it shows only what a change would clear. */
export function keepAnswer(res: Response): void {
  res.locals.keepAnswer = true
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

/** Small answers are not worth compressing (compression's own threshold). */
const compressFrom = 1024
const brotliAsync = promisify(brotliCompress)

/**
 * Brotli's window fitted to the body: a page of 80 kB needs a window of 128 kB, not the default
 * 4 MB, and the encoder's buffers shrink with it. The output is the same size within a tenth of
 * a percent; the CPU a page costs falls by about 40%, most of it the kernel's work of handing the
 * encoder its memory (five pages of 3-85 kB, 20 rounds of five at once: 6.3-6.6 ms a page
 * instead of 10.5-10.9).
 */
const brotliWindow = (bytes: number) =>
  Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.min(constants.BROTLI_DEFAULT_WINDOW, Math.ceil(Math.log2(bytes))))

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

export function createAnswerCache(
  logRequest: RequestLogger,
  { maxBytes, maxAgeMs = Infinity, trustProxy = 0, keeping = () => true }: AnswerCacheOptions,
): AnswerCache {
  // A Map keeps insertion order: a hit moves its entry to the end, so the first is the least
  // recently used, and the bound evicts from the front.
  const entries = new Map<string, Entry>()
  let bytes = 0
  let generation = 0

  const remove = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    bytes -= entry.bytes
  }
  const grow = (entry: Entry, by: number) => {
    entry.bytes += by
    bytes += by
    for (const [key] of entries) {
      if (bytes <= maxBytes) break
      remove(key)
    }
  }

  function store(key: string, entry: Entry, madeIn: number) {
    if (madeIn !== generation || !keeping()) return
    remove(key)
    const size = key.length + entry.body.length + entry.headers.reduce((sum, h) => sum + h.length, 0)
    // No one answer may push out most of the others.
    if (size > maxBytes / 8) return
    entries.set(key, entry)
    grow(entry, size)
    if (entry.body.length < compressFrom) return
    // Made once per change. Gzip at once (a millisecond or two for a page); brotli, slower and
    // smaller, off the main thread, served once ready.
    entry.gzip = gzipSync(entry.body)
    grow(entry, entry.gzip.length)
    void brotliAsync(entry.body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: entry.body.length,
        [constants.BROTLI_PARAM_LGWIN]: brotliWindow(entry.body.length),
      },
    }).then((br) => {
      if (entries.get(key) !== entry) return
      entry.br = br
      grow(entry, br.length)
    })
  }

  return {
    clear() {
      generation++
      entries.clear()
      bytes = 0
    },

    size: () => ({ entries: entries.size, bytes }),

    serve(req, res) {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url) return false
      const key = keyOf(req, req.url, trustProxy)
      const entry = entries.get(key)
      if (!entry) return false
      if (performance.now() - entry.madeAt > maxAgeMs) {
        remove(key)
        return false
      }
      entries.delete(key)
      entries.set(key, entry)
      const started = process.hrtime.bigint()
      const id = requestId()
      let status = entry.status
      let body: Buffer | undefined = entry.body
      const headers = [...entry.headers, 'x-request-id', id]
      const accepted = req.headers['accept-encoding'] ?? ''
      if (entry.etag && req.headers['if-none-match'] === entry.etag) {
        status = 304
        body = undefined
      } else if (entry.br && /\bbr\b/.test(accepted)) {
        body = entry.br
        headers.push('content-encoding', 'br')
      } else if (entry.gzip && /\bgzip\b/.test(accepted)) {
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
      if (maxBytes <= 0 || maxAgeMs <= 0 || req.method !== 'GET') return next()
      const api = cacheableApi.test(req.originalUrl)
      const key = keyOf(req, req.originalUrl, trustProxy)
      const madeIn = generation
      const chunks: Buffer[] = []
      const write = res.write.bind(res) as (...args: unknown[]) => boolean
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        if (chunk) chunks.push(Buffer.from(chunk as string))
        return write(chunk, ...rest)
      }) as typeof res.write
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string))
        // The chunks recorded here are the uncompressed body: compression wraps the response
        // before this middleware does. A page may keep its 410 (a cart sold long ago).
        const kept = api ? res.statusCode === 200 : res.locals.keepAnswer === true && [200, 410].includes(res.statusCode)
        if (kept) {
          const headers = Object.entries(res.getHeaders()).flatMap(([name, value]) =>
            value === undefined || perRequestHeaders.has(name) ? [] : [name, Array.isArray(value) ? value.join(', ') : String(value)],
          )
          const body = Buffer.concat(chunks)
          if (body.length >= compressFrom && !headers.some((h, i) => i % 2 === 0 && h === 'vary' && /accept-encoding/i.test(headers[i + 1]!))) {
            headers.push('vary', 'Accept-Encoding')
          }
          store(key, { status: res.statusCode, headers, body, etag: res.getHeader('etag') as string | undefined, bytes: 0, madeAt: performance.now() }, madeIn)
        }
        return end(chunk, ...rest)
      }) as typeof res.end
      next()
    },
  }
}
