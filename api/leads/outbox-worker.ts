import type { Sql } from '../db/database.ts'
import type { InquiryStore, NotificationKind } from '../inquiries/inquiry-store.ts'
import { describeError, type Logger, redactEmails } from '../log.ts'
import type { Mailer } from './mailer.ts'
import { buildMessage, type MailSettings } from './messages.ts'

export interface OutboxWorker {
  /** Look at the outbox now (a lead was just stored) instead of at the next poll. */
  kick(): void
  /** Finishes the message in hand (bounded) and stops. */
  stop(): Promise<void>
}

export interface OutboxWorkerOptions {
  sql: Sql
  mailer: Mailer
  inquiries: InquiryStore
  settings: MailSettings
  log: Logger
  pollMs: number
  /** First retry delay; each further failure doubles it, up to an hour. */
  retryBaseMs: number
  /** How long a claim holds before another worker may take the message over. */
  leaseMs?: number
  /**
   * This is the only process on the database (the embedded one, guarded by its lock file), so
   * any claim left at start belongs to a process that died: release them instead of waiting for
   * their leases to run out.
   */
  soleWorker?: boolean
}

const batchSize = 10
const maxRetryMs = 60 * 60 * 1000

/**
 * Sends what the outbox holds. Several server processes can run one each: a message is claimed
 * with FOR UPDATE SKIP LOCKED and a lease, so two workers never send it at the same time, and a
 * worker that dies mid-send leaves a claim that simply expires. A send that succeeded is marked
 * at once and never repeated; the only repeat possible is a crash between the mail server's
 * "accepted" and that mark, and the Message-ID is the same, so mail systems can tell.
 */
export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { sql, log } = options
  // Longer than the slowest send the mail transport allows (10 s to connect, 10 s to greet,
  // 20 s of silence), so a live worker never loses a message it is still sending.
  const leaseMs = options.leaseMs ?? 60_000
  let timer: NodeJS.Timeout | undefined
  let cycle: Promise<void> | undefined
  let again = false
  let stopped = false

  const claim = () => sql<{ id: number; inquiryId: number; kind: NotificationKind; attempts: number }[]>`
    update outbox_messages
    set claimed_until = now() + ${leaseMs} * interval '1 millisecond', attempts = attempts + 1
    where id in (
      select id from outbox_messages
      where sent_at is null and next_attempt_at <= now()
        and (claimed_until is null or claimed_until < now())
      order by next_attempt_at, id
      limit ${batchSize}
      for update skip locked
    )
    returning id, inquiry_id, kind, attempts
  `

  async function deliver(row: { id: number; inquiryId: number; kind: NotificationKind; attempts: number }) {
    try {
      const lead = await options.inquiries.byId(row.inquiryId)
      if (!lead) throw new Error(`inquiry ${row.inquiryId} no longer exists`)
      const message = buildMessage(row.kind, lead, options.settings)
      if (message.to.length === 0) throw new Error(`no recipient configured for ${row.kind}`)
      await options.mailer.send(message)
      await sql`update outbox_messages set sent_at = now(), claimed_until = null, last_error = null where id = ${row.id}`
      log.info('lead notification sent', { outboxId: row.id, inquiryId: row.inquiryId, kind: row.kind, attempt: row.attempts })
    } catch (error) {
      const retryInMs = Math.min(options.retryBaseMs * 2 ** (row.attempts - 1), maxRetryMs)
      const reason = redactEmails(describeError(error)).slice(0, 500)
      log.warn('lead notification failed', { outboxId: row.id, kind: row.kind, attempt: row.attempts, retryInMs, error: reason })
      await sql`
        update outbox_messages
        set claimed_until = null, last_error = ${reason},
            next_attempt_at = now() + ${retryInMs} * interval '1 millisecond'
        where id = ${row.id}
      `.catch((e: unknown) => log.warn('outbox update failed', { outboxId: row.id, error: describeError(e) }))
    }
  }

  async function run() {
    do {
      again = false
      const batch = await claim()
      for (const row of batch) {
        if (stopped) break
        await deliver(row)
      }
      if (batch.length === batchSize) again = true
    } while (again && !stopped)
  }

  function start() {
    if (stopped) return
    if (cycle) {
      again = true
      return
    }
    clearTimeout(timer)
    cycle = run()
      .catch((error: unknown) => log.warn('outbox check failed', { error: describeError(error) }))
      .finally(() => {
        cycle = undefined
        if (!stopped) timer = setTimeout(start, again ? 0 : options.pollMs)
      })
  }

  const releaseStale = options.soleWorker
    ? sql`update outbox_messages set claimed_until = null where sent_at is null and claimed_until is not null`.catch(
        (error: unknown) => log.warn('outbox claims not released', { error: describeError(error) }),
      )
    : Promise.resolve()
  void releaseStale.then(start)
  return {
    kick: start,
    async stop() {
      stopped = true
      clearTimeout(timer)
      if (cycle) await Promise.race([cycle, new Promise((resolve) => setTimeout(resolve, 10_000))])
    },
  }
}
