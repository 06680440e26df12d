import { TRPCError } from '@trpc/server'
import { getHTTPStatusCodeFromError } from '@trpc/server/http'
import { TRPC_ERROR_CODES_BY_KEY, type TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc'
import type { ErrorRequestHandler, Response } from 'express'
import type { FieldIssue } from '../../domain/inquiry.ts'
import { describeError, type Logger } from '../log.ts'
import { isDatabaseUnavailable } from '../db/unavailable.ts'
import { fieldIssues, internalErrorMessage, unavailableMessages } from '../trpc/init.ts'

/** The one error shape every REST answer uses (docs/CONTRACTS.md): `{ message, issues }`. */
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
    // Errors raised in front of tRPC (the rate limit, a database that stopped answering it) are
    // answered in tRPC's own shape on /trpc, so the widgets' client reads them like any other.
    const reply = (status: number, message: string, issues: FieldIssue[] = [], code = codeOf(status)) =>
      req.baseUrl === '/trpc' || req.path.startsWith('/trpc/')
        ? sendTrpcError(res, req.path.replace(/^\/(trpc\/)?/, ''), { code, httpStatus: status }, message, issues)
        : sendError(res, status, message, issues)
    const bodyError = bodyErrors[(error as { type?: string }).type ?? '']
    if (bodyError) return reply(bodyError[0], bodyError[1])
    // Any other client error raised while reading the request (a body that claims gzip and is
    // not, a broken stream): its status, and a sentence of ours rather than its message.
    const status = (error as { status?: unknown }).status
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply(status, 'The request could not be read. Check its body and its Content-Encoding.')
    }
    if (error instanceof TRPCError) {
      const status = getHTTPStatusCodeFromError(error)
      if (status >= 500) {
        if (status === 503) res.set('Retry-After', '30')
        log.error('request failed', { error: describeError(error.cause ?? error) })
        return reply(status, status === 500 ? internalErrorMessage : error.message, [], error.code)
      }
      const issues = fieldIssues(error.cause)
      const message =
        issues.length > 0 ? `Invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}` : error.message
      return reply(status, message, issues, error.code)
    }
    if (isDatabaseUnavailable(error)) {
      res.set('Retry-After', '30')
      return reply(503, unavailableMessages[req.method === 'POST' ? 'mutation' : 'query'])
    }
    log.error('request failed', { error: describeError(error) })
    reply(500, internalErrorMessage)
  }
}

/** What tRPC itself sends for a failed call, with our formatter's `issues` (api/trpc/init.ts). */
function sendTrpcError(
  res: Response,
  path: string,
  data: { code: TRPC_ERROR_CODE_KEY; httpStatus: number },
  message: string,
  issues: FieldIssue[],
): void {
  res.status(data.httpStatus).json({ error: { message, code: TRPC_ERROR_CODES_BY_KEY[data.code], issues, data: { ...data, path } } })
}

/** The tRPC name of a status this handler answers with. */
function codeOf(status: number): TRPC_ERROR_CODE_KEY {
  const byStatus: Record<number, TRPC_ERROR_CODE_KEY> = {
    400: 'BAD_REQUEST',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    503: 'SERVICE_UNAVAILABLE',
  }
  return byStatus[status] ?? (status < 500 ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR')
}
