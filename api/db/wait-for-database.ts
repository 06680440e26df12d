import { describeError, type Logger } from '../log.ts'
import type { Sql } from './database.ts'
import { isDatabaseUnavailable } from './unavailable.ts'

export interface WaitOptions {
  log: Logger
  /** How long to keep trying (PRODUCT.md: 60 s). */
  limitMs?: number
  /** Set when the process is asked to stop while it waits. */
  signal?: AbortSignal
}

/**
 * Waits until the database answers, retrying while it is down, restarting or slow to accept
 * (PRODUCT.md, "stopping and starting"): a process that met a slow database at start used to exit
 * with CONNECT_TIMEOUT, so a rolling restart silently shrank the cluster. The pauses double from
 * 250 ms to 5 s. A refusal that waiting cannot cure (a wrong password, a database that does not
 * exist) ends the wait at once, as does running out of time, with the last error as the cause.
 */
export async function waitForDatabase(sql: Sql | ((query: TemplateStringsArray) => PromiseLike<unknown>), { log, limitMs = 60_000, signal }: WaitOptions): Promise<void> {
  const started = Date.now()
  let pause = 250
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`select 1`
      if (attempt > 1) log.info('the database answers', { attempts: attempt, waitedMs: Date.now() - started })
      return
    } catch (error) {
      const waited = Date.now() - started
      if (!isDatabaseUnavailable(error)) throw error
      if (waited + pause > limitMs || signal?.aborted) {
        throw new Error(`The database did not answer within ${Math.round(limitMs / 1000)} s (${attempt} attempts; last: ${describeError(error)})`, { cause: error })
      }
      log.warn('waiting for the database', { attempt, error: describeError(error), retryInMs: pause, waitedMs: waited })
      await sleep(pause, signal)
      pause = Math.min(pause * 2, 5000)
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })
}
