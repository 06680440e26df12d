import { randomUUID } from 'node:crypto'
import type { RequestHandler } from 'express'
import type { Logger } from '../log.ts'

export interface RequestRecord {
  id: string
  method: string | undefined
  /** The URL as requested; only its path is logged. */
  url: string
  status: number
  started: bigint
  bytes?: number
}

export type RequestLogger = (record: RequestRecord) => void

export const requestId = () => randomUUID()

/**
 * One line per request: method, path without its query string, status, time and size. Bodies,
 * query strings and headers are left out, so no email, phone or message text is ever logged.
 */
export function requestLogger(log: Logger): RequestLogger {
  return ({ id, method, url, status, started, bytes }) => {
    const path = url.split('?')[0]?.slice(0, 200)
    // A balancer asks every few seconds; a passing health check is no news (LOG_LEVEL=debug shows it).
    const routine = status < 400 && (path === '/healthz' || path === '/readyz')
    log[routine ? 'debug' : 'info']('request', {
      id,
      method,
      path,
      status,
      ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
      bytes: bytes || undefined,
    })
  }
}

export function requestLog(logRequest: RequestLogger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint()
    const id = requestId()
    res.setHeader('X-Request-Id', id)
    res.on('finish', () => {
      logRequest({
        id,
        method: req.method,
        url: req.originalUrl,
        status: res.statusCode,
        started,
        bytes: Number(res.getHeader('content-length') ?? 0),
      })
    })
    next()
  }
}
