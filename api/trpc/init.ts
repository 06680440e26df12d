import { initTRPC, TRPCError } from '@trpc/server'
import { errorAnswer, GoneError, isUnstorableCharacter, unstorableCharacterMessage } from '../http/errors.ts'
import { isDatabaseUnavailable, withDeadline } from '../db/unavailable.ts'
import type { Context } from './context.ts'

/**
 * The building blocks the routers use. Errors take the one shape (docs/CONTRACTS.md) from the one error
 * boundary, api/http/errors.ts: a readable `message` and `issues`, one per invalid field, so a
 * form can show each next to its field. Stacks and internal messages never leave the server.
 */
const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const { body } = errorAnswer(error)
    const status = error.cause instanceof GoneError ? 410 : shape.data.httpStatus
    const { stack: _stack, ...data } = shape.data
    // A sold cart past SOLD_VISIBLE_DAYS keeps NOT_FOUND's code and answers 410 (api/http/errors.ts).
    return { ...shape, message: body.message, issues: body.issues, data: { ...data, httpStatus: status } }
  },
})


/**
 * A database that is down, restarting or silent becomes a 503 with a plain sentence: within
 * `readDeadlineMs` for reads, within `writeDeadlineMs` for submissions (api/db/unavailable.ts;
 * `ctx.deadlines`, which only tests' servers change).
 * The sentence is the error boundary's ("not sent", "could not confirm", "unavailable"). A write
 * the database refused (a full disk) is noted for `/readyz` (api/http/health.ts). A character the
 * database cannot store is the caller's 400.
 */
const databaseGuard = t.middleware(async ({ ctx, type, path, next }) => {
  const mutation = type !== 'query'
  const staff = path.startsWith('staff.')
  const unavailable = (cause: unknown) =>
    new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: errorAnswer(cause, { mutation, staff }).body.message, cause })
  const result = await withDeadline(next(), mutation ? ctx.deadlines.write : ctx.deadlines.read).catch((error: unknown) => {
    throw isDatabaseUnavailable(error) ? unavailable(error) : error
  })
  // A value the database cannot hold (NUL) that no schema caught: the caller's 400, not a failure.
  if (!result.ok && isUnstorableCharacter(result.error.cause)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: unstorableCharacterMessage, cause: result.error.cause })
  }
  if (!result.ok && isDatabaseUnavailable(result.error.cause)) {
    ctx.writeRefusals.note(result.error.cause)
    throw unavailable(result.error.cause)
  }
  return result
})

export const router = t.router
export const middleware = t.middleware
export const publicProcedure = t.procedure.use(databaseGuard)
export const createCallerFactory = t.createCallerFactory
