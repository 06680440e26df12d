import { TRPCError } from '@trpc/server'
import { getHTTPStatusCodeFromError } from '@trpc/server/http'
import type { ErrorRequestHandler, Response } from 'express'
import type { FieldIssue } from '../../domain/inquiry.ts'
import { describeError, type Logger } from '../log.ts'
import { isDatabaseUnavailable } from '../db/unavailable.ts'
import { fieldIssues, internalErrorMessage, unavailableMessages } from '../trpc/init.ts'

/** The one error shape every REST answer uses (PRODUCT.md): `{ message, issues }`. */
export interface ErrorBody {
  message: string
  issues: FieldIssue[]
}

export function sendError(res: Response, status: number, message: string, issues: FieldIssue[] = []): void {
  res.status(status).json({ message, issues } satisfies ErrorBody)
}

/** body-parser's error types, as Express hands them over. */
const bodyErrors: Record<string, [number, string]> = {
  'entity.parse.failed': [400, 'The request body is not valid JSON'],
  'entity.too.large': [413, 'The request body is larger than 100 kB'],
  'encoding.unsupported': [415, 'The request body uses an unsupported content encoding'],
  'charset.unsupported': [415, 'The request body uses an unsupported character set'],
  'request.aborted': [400, 'The request was aborted before its body arrived'],
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return
    const bodyError = bodyErrors[(error as { type?: string }).type ?? '']
    if (bodyError) return sendError(res, bodyError[0], bodyError[1])
    // Any other client error raised while reading the request (a body that claims gzip and is
    // not, a broken stream): its status, and a sentence of ours rather than its message.
    const status = (error as { status?: unknown }).status
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendError(res, status, 'The request could not be read. Check its body and its Content-Encoding.')
    }
    if (error instanceof TRPCError) {
      const status = getHTTPStatusCodeFromError(error)
      if (status >= 500) {
        if (status === 503) res.set('Retry-After', '30')
        log.error('request failed', { error: describeError(error.cause ?? error) })
        return sendError(res, status, status === 500 ? internalErrorMessage : error.message)
      }
      const issues = fieldIssues(error.cause)
      const message =
        issues.length > 0 ? `Invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}` : error.message
      return sendError(res, status, message, issues)
    }
    if (isDatabaseUnavailable(error)) {
      res.set('Retry-After', '30')
      return sendError(res, 503, unavailableMessages[req.method === 'POST' ? 'mutation' : 'query'])
    }
    log.error('request failed', { error: describeError(error) })
    sendError(res, 500, internalErrorMessage)
  }
}
