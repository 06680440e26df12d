import type { Request } from 'express'
import type { RequestInfo } from '../trpc/context.ts'

/** What a procedure may know about the HTTP request behind it; the same for every door. */
export function requestInfo(req: Request): RequestInfo {
  return { referer: req.get('referer'), clientAddress: req.ip ?? req.socket.remoteAddress }
}
