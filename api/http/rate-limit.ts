import { TRPCError } from '@trpc/server'
import type { RequestHandler } from 'express'
import { business } from '../../domain/business.ts'
import type { Sql } from '../db/database.ts'
import { isDatabaseUnavailable, withDeadline, writeDeadlineMs } from '../db/unavailable.ts'
import { unavailableMessages } from '../trpc/init.ts'

/**
 * Lead submissions per client address, counted in PostgreSQL so every server process shares
 * one count (docs/PRODUCT.md, "Spam and floods"). A fixed window: the first submission of a window inserts the row,
 * the rest increment it in the same statement. Over the limit: 429 with Retry-After.
 *
 * The client address is `req.ip`, which reads X-Forwarded-For only as far as TRUST_PROXY says;
 * by default the socket's own address, so a visitor cannot pick a new address per request.
 *
 * Refusals go on as tRPC errors, so the API answers them in its one error shape and the
 * JavaScript-free contact form renders them beside what the visitor typed.
 */
export function leadRateLimit(sql: Sql, settings: { limit: number; windowSeconds: number }): RequestHandler {
  let sinceCleanup = 0
  return async (req, res, next) => {
    if (settings.limit <= 0) return next()
    try {
      // Bounded like the submission itself: a database that stops answering gets a 503 "not sent".
      const [row] = await withDeadline(sql<[{ hits: number; retryAfter: number }]>`
        insert into rate_limits (key, window_start, hits)
        values (
          ${`lead:${req.ip ?? 'unknown'}`},
          to_timestamp(floor(extract(epoch from now()) / ${settings.windowSeconds}) * ${settings.windowSeconds}),
          1
        )
        on conflict (key, window_start) do update set hits = rate_limits.hits + 1
        returning hits,
          ceil(extract(epoch from window_start) + ${settings.windowSeconds} - extract(epoch from now()))::int as retry_after
      `, writeDeadlineMs)
      if (++sinceCleanup >= 500) {
        sinceCleanup = 0
        void sql`delete from rate_limits where window_start < now() - interval '1 day'`.catch(() => {})
      }
      if (row.hits > settings.limit) {
        res.set('Retry-After', String(Math.max(1, row.retryAfter)))
        const minutes = Math.max(1, Math.ceil(row.retryAfter / 60))
        const message = `Too many messages from this address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or call ${business.tollFree.display}.`
        return next(new TRPCError({ code: 'TOO_MANY_REQUESTS', message }))
      }
      next()
    } catch (error) {
      next(
        isDatabaseUnavailable(error)
          ? new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: unavailableMessages.mutation, cause: error })
          : error,
      )
    }
  }
}
