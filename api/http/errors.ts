import { TRPCError } from '@trpc/server'
import { getHTTPStatusCodeFromError } from '@trpc/server/http'
import type { ErrorRequestHandler, Response } from 'express'
import { business } from '../../domain/business.ts'
import type { FieldIssue } from '../../domain/inquiry.ts'
import { isDatabaseUnavailable } from '../db/unavailable.ts'
import { describeError, type Logger } from '../log.ts'
import { bodyTooLargeMessage } from './body-limit.ts'
import { OriginRefusedError } from './origin.ts'

/**
 * The one error boundary. Whatever went wrong (a schema refusal, a rate limit, a refused origin,
 * a database that stopped answering, a body that could not be read, a bug), `errorAnswer` turns
 * it into the one shape docs/CONTRACTS.md names, `{ message, issues: [{ path, message }] }`, with its
 * status and, where the caller should come back later, Retry-After. The tRPC error formatter
 * (api/trpc/init.ts), the Express error handler below and the contact form without JavaScript
 * (host/server/contact-post.ts) all use it, so a refusal reads the same through every door.
 * Stacks, driver text and SQL never leave the server: a failure of ours is handed back separately
 * (`failure`) for the log.
 */
export interface ErrorBody {
  message: string
  issues: FieldIssue[]
}

export interface ErrorAnswer {
  status: number
  body: ErrorBody
  /** Seconds, for the Retry-After header. */
  retryAfter?: number
  /** Set when the fault is ours, not the client's: what to log. */
  failure?: unknown
}

export const internalErrorMessage =
  'Something went wrong on our side. Please try again, or call us and we will help right away.'

export const unavailableMessages = {
  query: 'Our inventory is briefly unavailable. Please try again in a minute.',
  mutation: `Your message was not sent: our system is briefly unavailable. Please try again in a minute, or call ${business.tollFree.display}.`,
  unconfirmed: `We could not confirm that your message arrived: our system is not answering. Please try again in a minute, or call ${business.tollFree.display}.`,
  /** The staff console's writes: a change, not a visitor's message, and no phone number to call. */
  staffMutation: 'Your change was not saved: the database is briefly unavailable. Nothing was lost; try again in a minute.',
  staffUnconfirmed: 'We could not confirm that your change was saved: the database is not answering. Reload in a minute to check before trying again.',
}

/** How long a client should wait before trying again after a 503. */
const unavailableRetryAfter = 30

/**
 * Fields refused after the schema's own check (a stock number just taken, a code that is not
 * right): each problem beside its field, already in the error shape's `issues`. Thrown by a store
 * or a procedure; `fieldIssues` reads it as it reads a schema's issues.
 */
export class FieldError extends Error {
  override name = 'FieldError'
  constructor(
    readonly issues: FieldIssue[],
    message = issues.map((i) => `${i.path}: ${i.message}`).join('; '),
  ) {
    super(message)
  }
}

/** A procedure's refusal of one field: 400, the sentence beside the field (`path`, as posted). */
export function fieldRefused(path: string, message: string): TRPCError {
  return new TRPCError({ code: 'BAD_REQUEST', message, cause: new FieldError([{ path, message }], message) })
}

/**
 * A refusal with a status and a sentence of our own, raised outside tRPC (a path that is not a
 * URL, a file that is not there). `retryAfter` in seconds.
 */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message)
  }
}

/** A lead refused by the rate limit: carried as the cause of a TOO_MANY_REQUESTS TRPCError. */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError'
  constructor(readonly retryAfter: number) {
    super(`rate limited for ${retryAfter} s`)
  }
}

/**
 * Something that existed and is gone for good, such as a sold cart past SOLD_VISIBLE_DAYS: carried
 * as the cause of a NOT_FOUND TRPCError, so clients treat it as any missing thing; its HTTP
 * status is 410.
 */
export class GoneError extends Error {
  override name = 'GoneError'
}

/**
 * PostgreSQL refused a character in a value: NUL in text (22021) or in JSON (22P05). The schemas
 * refuse control characters before SQL (`plainText`, domain/inquiry.ts); this is the net under
 * them for any input a schema missed, so such a request is the client's 400, never our 500 and
 * a database error in the log (issue #26, point 6).
 */
export function isUnstorableCharacter(error: unknown): boolean {
  const code = (error as { code?: unknown } | null | undefined)?.code
  return code === '22021' || code === '22P05'
}

export const unstorableCharacterMessage =
  'The request holds a character that cannot be stored (a NUL byte or another control character). Remove it and send it again.'

/** body-parser's error types, as Express hands them over. */
const bodyErrors: Record<string, [number, string]> = {
  'entity.parse.failed': [400, 'The request body is not valid JSON'],
  'entity.too.large': [413, bodyTooLargeMessage],
  'encoding.unsupported': [415, 'The request body uses an unsupported content encoding'],
  'charset.unsupported': [415, 'The request body uses an unsupported character set'],
  'request.aborted': [400, 'The request was aborted before its body arrived'],
  'parameters.too.many': [413, 'The form has too many fields'],
}

export interface ErrorContext {
  /** A write: "not sent" or "could not confirm" rather than "unavailable" when the database fails. */
  mutation?: boolean
  /** A staff console call: its writes are changes to the inventory, not messages. */
  staff?: boolean
  /** What was asked for, for "nothing here" sentences (at most 200 characters are shown). */
  method?: string
  path?: string
}

export function errorAnswer(error: unknown, context: ErrorContext = {}): ErrorAnswer {
  const answer = (status: number, message: string, extra: Partial<ErrorAnswer> = {}, issues: FieldIssue[] = []): ErrorAnswer => ({
    status,
    body: { message, issues },
    ...extra,
  })

  if (error instanceof TRPCError) {
    const status = error.cause instanceof GoneError ? 410 : getHTTPStatusCodeFromError(error)
    // A schema's issues are shown beside their fields whatever raised them (the input parser,
    // or a check inside a procedure), as they always were.
    const issues = fieldIssues(error.cause)
    if (issues.length > 0) return answer(status, invalidInputMessage(issues), status >= 500 ? { failure: error.cause } : {}, issues)
    if (status === 503) return answer(503, error.message, { retryAfter: unavailableRetryAfter, failure: error.cause ?? error })
    if (status >= 500) return answer(status, internalErrorMessage, { failure: error.cause ?? error })
    const retryAfter = error.cause instanceof RateLimitedError ? error.cause.retryAfter : undefined
    return answer(status, error.message, { retryAfter })
  }
  if (isUnstorableCharacter(error)) return answer(400, unstorableCharacterMessage)
  if (isDatabaseUnavailable(error)) {
    const unconfirmed = (error as { code?: unknown }).code === 'DATABASE_DEADLINE'
    const message = !context.mutation
      ? unavailableMessages.query
      : context.staff
        ? unconfirmed
          ? unavailableMessages.staffUnconfirmed
          : unavailableMessages.staffMutation
        : unconfirmed
          ? unavailableMessages.unconfirmed
          : unavailableMessages.mutation
    return answer(503, message, { retryAfter: unavailableRetryAfter, failure: error })
  }
  if (error instanceof HttpError) return answer(error.status, error.message, { retryAfter: error.retryAfter })
  if (error instanceof OriginRefusedError) return answer(403, error.message)

  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown }
  const bodyError = bodyErrors[typeof type === 'string' ? type : '']
  if (bodyError) return answer(bodyError[0], bodyError[1])
  // A path that is not a URL: Express's router and the static file servers fail to decode it.
  if (error instanceof URIError || (status === 400 && /decode/i.test((error as Error).message ?? ''))) {
    return answer(400, malformedUrlMessage)
  }
  // The static file servers' answers (serve-static, send).
  const shown = context.path === undefined ? 'this address' : context.path.slice(0, 200)
  if (status === 403) return answer(403, `${shown} is not a file this site serves.`)
  if (status === 404) return answer(404, `No file at ${shown}`)
  if (status === 405) return answer(405, `${String(context.method ?? 'This method').slice(0, 20)} is not supported here`)
  // Any other client error raised while reading the request (a body that claims gzip and is
  // not, a broken stream): its status, and a sentence of ours rather than its message.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return answer(status, 'The request could not be read. Check its body and its Content-Encoding.')
  }
  return answer(500, internalErrorMessage, { failure: error })
}

export const malformedUrlMessage = 'This address is not a valid URL: it has a broken %-escape.'

/** "Invalid input: email: Enter a valid email...; lastName: ..." */
export function invalidInputMessage(issues: readonly FieldIssue[]): string {
  return `Invalid input: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`
}

/**
 * The issues of a failed schema check (zod or any Standard Schema: a path as a list), or of a
 * store's refusal that already speaks the error shape (a path as text: api/staff/cart-records.ts,
 * `FieldError`), as `{ path, message }`.
 */
export function fieldIssues(cause: unknown): FieldIssue[] {
  const issues = (cause as { issues?: unknown } | undefined)?.issues
  if (!Array.isArray(issues)) return []
  return issues.map((issue: { path?: string | readonly PropertyKey[] | { key: PropertyKey }[]; message?: string }) => ({
    path:
      typeof issue.path === 'string'
        ? issue.path
        : (issue.path ?? []).map((p) => (typeof p === 'object' && p !== null ? String(p.key) : String(p))).join('.'),
    message: issue.message ?? 'Invalid value',
  }))
}

/** JSON answers are data, never a document: nothing may run or be framed if one is opened. */
export const jsonPolicy = "default-src 'none'; frame-ancestors 'none'"

export function sendError(res: Response, status: number, message: string, issues: FieldIssue[] = []): void {
  sendErrorAnswer(res, { status, body: { message, issues } })
}

/** Writes an answer in the one shape, with Retry-After where due and the JSON policy. */
export function sendErrorAnswer(res: Response, answer: ErrorAnswer): void {
  if (answer.retryAfter !== undefined) res.set('Retry-After', String(Math.max(1, Math.ceil(answer.retryAfter))))
  // A page's policy is for HTML; this answer is JSON, whatever route it came from.
  res.set('Content-Security-Policy', jsonPolicy)
  res.status(answer.status).json(answer.body satisfies ErrorBody)
}

/** Logs a failure of ours once, by name and message only. */
export function logFailure(log: Logger, msg: string, answer: ErrorAnswer, fields: Record<string, string | undefined> = {}): void {
  if (answer.failure === undefined) return
  const error = describeError(answer.failure)
  if (answer.status === 503) log.warn(msg, { ...fields, error })
  else log.error(msg, { ...fields, error })
}

export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return
    const staff = req.path.startsWith('/api/staff') || req.path.startsWith('/staff')
    const answer = errorAnswer(error, { mutation: req.method === 'POST', staff, method: req.method, path: req.path })
    logFailure(log, 'request failed', answer, { path: req.path.slice(0, 200) })
    sendErrorAnswer(res, answer)
  }
}
