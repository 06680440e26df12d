import { describeError, type Logger } from '../log.ts'
import type { Sql } from './database.ts'

/**
 * The embedded database (PGlite) runs no autovacuum, so without this its planner would never
 * learn how large the tables have grown and would pick the wrong index for the lead inbox's
 * filters and search (measured: a search of 100,000 leads took 300 ms instead of 5). PostgreSQL
 * servers gather statistics themselves; on the embedded one the server runs `analyze` shortly
 * after start and then every `everyMs`. It samples at most 30,000 rows per table, so it holds the
 * one connection for a fraction of a second.
 */
export function refreshStatisticsRegularly(sql: Sql, log: Logger, options: { firstMs?: number; everyMs?: number } = {}) {
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const run = async () => {
    try {
      await sql`analyze`
    } catch (error) {
      log.warn('database statistics not refreshed', { step: 'database', error: describeError(error) })
    }
    if (!stopped) timer = setTimeout(() => void run(), options.everyMs ?? 3_600_000).unref()
  }
  timer = setTimeout(() => void run(), options.firstMs ?? 30_000).unref()
  return {
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}
