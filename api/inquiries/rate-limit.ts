import type { Sql } from '../db/database.ts'

export interface RateLimitSettings {
  /** Submissions allowed per client address in each window; 0 turns the limit off. */
  limit: number
  windowSeconds: number
}

export type RateLimitVerdict = { allowed: true } | { allowed: false; retryAfter: number }

export interface LeadRateLimit {
  /** Counts one submission from this address and says whether it may go on. */
  hit(clientAddress: string | undefined): Promise<RateLimitVerdict>
}

/**
 * Lead submissions per client address, counted in PostgreSQL so every server process shares one
 * count (docs/PRODUCT.md, "Spam and floods"). A fixed window: the first submission of a window inserts the row, the rest
 * increment it in the same statement. The tRPC middleware on `inquiry.submit`
 * (api/trpc/routers/inquiries.ts) is its only caller, so every door to that procedure (REST,
 * tRPC however its path is spelled, the contact form without JavaScript) shares the count, and
 * only input that passed the schema is counted.
 *
 * The address is the one Express reads (`req.ip`): X-Forwarded-For only as far as TRUST_PROXY
 * says, by default the socket's own address, so a visitor cannot pick a new address per request.
 * A call that names no address (none of the HTTP doors does that) counts as one address.
 */
export function createLeadRateLimit(
  sql: Sql,
  settings: RateLimitSettings = { limit: 0, windowSeconds: 600 },
  /** Whose count: leads, or shoppers asking for price alerts (`alert`, the same limit counted apart). */
  counter: 'lead' | 'alert' = 'lead',
): LeadRateLimit {
  let sinceCleanup = 0
  return {
    async hit(clientAddress) {
      if (settings.limit <= 0) return { allowed: true }
      const [row] = await sql<[{ hits: number; retryAfter: number }]>`
        insert into rate_limits (key, window_start, hits)
        values (
          ${`${counter}:${clientAddress ?? 'unknown'}`},
          to_timestamp(floor(extract(epoch from now()) / ${settings.windowSeconds}) * ${settings.windowSeconds}),
          1
        )
        on conflict (key, window_start) do update set hits = rate_limits.hits + 1
        returning hits,
          ceil(extract(epoch from window_start) + ${settings.windowSeconds} - extract(epoch from now()))::int as retry_after
      `
      if (++sinceCleanup >= 500) {
        sinceCleanup = 0
        void sql`delete from rate_limits where window_start < now() - interval '1 day'`.catch(() => {})
      }
      return row.hits > settings.limit ? { allowed: false, retryAfter: Math.max(1, row.retryAfter) } : { allowed: true }
    },
  }
}
