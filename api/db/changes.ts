import type { Logger } from '../log.ts'
import { describeError } from '../log.ts'
import type { Database, Sql } from './database.ts'

/**
 * The one signal that something visitors see may have changed, so every answer kept for them
 * (api/http/answer-cache.ts) must be made again. Three things raise it:
 *
 * - a write through this process, at once, before its answer is sent (`notify`);
 * - a notice from the database: the triggers of migrations 0006, 0035 and 0041 send one on the
 *   `visible_changes` channel whenever a statement changes `golf_carts`, `featured_order`,
 *   `cart_photos` or `rental_requests`, whoever ran it, so a
 *   write through another server process (or by SQL by hand) reaches this one within
 *   milliseconds of its commit;
 * - the clock: a sold cart's page says Sold for SOLD_VISIBLE_DAYS and then answers 410, with
 *   no write at all, so the next such moment is scheduled as a change of its own.
 */
export const visibleChangesChannel = 'visible_changes'

export interface Changes {
  /** True once the database's notices arrive: until then, nothing may be kept for visitors. */
  readonly listening: boolean
  /**
   * Something changed: this process's listeners hear it now. `table`: the one table a write
   * changed, when that is known (a notice's payload); without it, anything may have.
   */
  notify(table?: string): void
  onChange(listener: (table?: string) => void): void
}

export function createChanges(): Changes & { setListening(on: boolean): void } {
  const listeners = new Set<(table?: string) => void>()
  let listening = false
  return {
    get listening() {
      return listening
    },
    setListening(on) {
      listening = on
    },
    notify(table) {
      for (const listener of listeners) listener(table)
    },
    onChange(listener) {
      listeners.add(listener)
    },
  }
}

/** The longest a timer can wait in Node (about 24.8 days); a later deadline is re-checked then. */
const longestTimer = 2 ** 31 - 1

/**
 * Listens for the database's notices and keeps the next sold-page deadline scheduled.
 * `listening` resolves once the notices arrive (retrying every `retryMs` while the database
 * cannot be reached).
 */
export function watchChanges(
  db: Database,
  changes: ReturnType<typeof createChanges>,
  { soldVisibleDays, log, retryMs = 2000 }: { soldVisibleDays: number; log: Logger; retryMs?: number },
): { listening: Promise<void>; stop(): void } {
  let stopped = false
  let deadline: NodeJS.Timeout | undefined
  let checking: Promise<void> | undefined
  let checkAgain = false

  /** Finds the next moment a sold cart's page turns 410, and raises a change then. */
  const scheduleDeadline = (): void => {
    if (checking) {
      checkAgain = true
      return
    }
    let retry = 0
    checking = nextSoldPageEnd(db.sql, soldVisibleDays)
      .then((at) => {
        clearTimeout(deadline)
        deadline = undefined
        // Timers may fire a millisecond early; the page turns at `at` exactly (soldPageExpired).
        if (at !== undefined && !stopped) deadline = setTimeout(() => changes.notify(), Math.min(Math.max(at - Date.now() + 50, 0), longestTimer))
      })
      .catch((error: unknown) => {
        log.warn('could not schedule the next sold page to close', { error: describeError(error) })
        checkAgain = true
        retry = retryMs
      })
      .finally(() => {
        checking = undefined
        deadline?.unref()
        if (checkAgain && !stopped) {
          checkAgain = false
          setTimeout(scheduleDeadline, retry).unref()
        }
      })
  }
  changes.onChange(scheduleDeadline)

  const listen = async () => {
    while (!stopped) {
      try {
        await db.listen(
          visibleChangesChannel,
          // The payload is the table a statement changed (the triggers of migrations 0006, 0035 and 0041).
          (table) => changes.notify(table || undefined),
          // Listening (again): notices sent while the connection was down are lost, so anything
          // kept may be stale.
          () => {
            changes.setListening(true)
            changes.notify()
          },
        )
        return
      } catch (error) {
        if (stopped) return
        log.warn("not listening for changes yet; visitors' answers are not kept until then", { error: describeError(error) })
        await new Promise((resolve) => setTimeout(resolve, retryMs).unref())
      }
    }
  }
  return {
    listening: listen(),
    stop() {
      stopped = true
      clearTimeout(deadline)
    },
  }
}

/** When the earliest still-visible sold cart's page ends (ms since the epoch), if any. */
async function nextSoldPageEnd(sql: Sql, soldVisibleDays: number): Promise<number | undefined> {
  // This process's clock, as soldPageExpired uses it, not the database's.
  const visibleSince = new Date(Date.now() - soldVisibleDays * 86_400_000)
  const [row] = await sql<[{ soldAt: string | null }]>`
    select to_json(min(sold_at)) #>> '{}' as sold_at from golf_carts
    where status = 'sold' and sold_at > ${visibleSince}
  `
  return row?.soldAt ? new Date(row.soldAt).getTime() + soldVisibleDays * 86_400_000 : undefined
}
