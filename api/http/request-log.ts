import { randomUUID } from 'node:crypto'
import type { RequestHandler } from 'express'
import type { Logger } from '../log.ts'

/**
 * One line per request: method, path without its query string, status, time and size. Bodies,
 * query strings and headers are left out, so no email, phone or message text is ever logged.
 */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint()
    const id = randomUUID()
    res.setHeader('X-Request-Id', id)
    res.on('finish', () => {
      log.info('request', {
        id,
        method: req.method,
        path: req.originalUrl.split('?')[0]?.slice(0, 200),
        status: res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        bytes: Number(res.getHeader('content-length') ?? 0) || undefined,
      })
    })
    next()
  }
}
