import { initTRPC, TRPCError } from '@trpc/server'
import { business } from '../../domain/business.ts'
import type { FieldIssue } from '../../domain/inquiry.ts'
import { isDatabaseUnavailable, readDeadlineMs, withDeadline, writeDeadlineMs } from '../db/unavailable.ts'
import type { Context } from './context.ts'

/**
 * The building blocks the routers use, and the one error shape (docs/CONTRACTS.md): every error carries
 * a readable `message` and `issues`, one per invalid field, so a form can show each next to its
 * field. Stacks and internal messages never leave the server.
 */
export const internalErrorMessage =
  'Something went wrong on our side. Please try again, or call us and we will help right away.'

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const issues = fieldIssues(error.cause)
    const message =
      issues.length > 0
        ? `Invalid input: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`
        : error.code === 'INTERNAL_SERVER_ERROR'
          ? internalErrorMessage
          : shape.message
    const { stack: _stack, ...data } = shape.data
    return { ...shape, message, issues, data }
  },
})

export const unavailableMessages = {
  query: 'Our inventory is briefly unavailable. Please try again in a minute.',
  mutation: `Your message was not sent: our system is briefly unavailable. Please try again in a minute, or call ${business.tollFree.display}.`,
  unconfirmed: `We could not confirm that your message arrived: our system is not answering. Please try again in a minute, or call ${business.tollFree.display}.`,
}

/**
 * A database that is down, restarting or silent becomes a 503 with a plain sentence: within
 * two seconds for reads, within `writeDeadlineMs` for submissions (see api/db/unavailable.ts).
 */
const databaseGuard = t.middleware(async ({ type, next }) => {
  const isQuery = type === 'query'
  const unavailable = (cause: unknown) =>
    new TRPCError({
      code: 'SERVICE_UNAVAILABLE',
      message: unavailableMessages[isQuery ? 'query' : isDeadline(cause) ? 'unconfirmed' : 'mutation'],
      cause,
    })
  const result = await withDeadline(next(), isQuery ? readDeadlineMs : writeDeadlineMs).catch((error: unknown) => {
    throw isDatabaseUnavailable(error) ? unavailable(error) : error
  })
  if (!result.ok && isDatabaseUnavailable(result.error.cause)) throw unavailable(result.error.cause)
  return result
})

const isDeadline = (error: unknown) => (error as { code?: unknown } | undefined)?.code === 'DATABASE_DEADLINE'

export const router = t.router
export const publicProcedure = t.procedure.use(databaseGuard)
export const createCallerFactory = t.createCallerFactory

/** The issues of a failed schema check (zod or any Standard Schema), as `{ path, message }`. */
export function fieldIssues(cause: unknown): FieldIssue[] {
  const issues = (cause as { issues?: unknown } | undefined)?.issues
  if (!Array.isArray(issues)) return []
  return issues.map((issue: { path?: readonly PropertyKey[] | { key: PropertyKey }[]; message?: string }) => ({
    path: (issue.path ?? [])
      .map((p) => (typeof p === 'object' && p !== null ? String(p.key) : String(p)))
      .join('.'),
    message: issue.message ?? 'Invalid value',
  }))
}
