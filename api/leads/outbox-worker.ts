import { randomUUID } from 'node:crypto'
import type { Sql } from '../db/database.ts'
import type { InquiryStore, NotificationKind } from '../inquiries/inquiry-store.ts'
import { describeError, type Logger, redactEmails } from '../log.ts'
import type { Mailer } from './mailer.ts'
import { buildMessage, type MailMessage, type MailSettings } from './messages.ts'

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
  /**
   * How long a claim holds if its worker stops renewing it (it died). A live worker renews it
   * every third of this for as long as it holds the message, however slow the mail server.
   */
  leaseMs?: number
  /** First pause before recording a sent message again after the database failed (doubling to 5 s). */
  markRetryMs?: number
  /**
   * This is the only process on the database (the embedded one, guarded by its lock file), so
   * any claim left at start belongs to a process that died: release them instead of waiting for
   * their leases to run out.
   */
  soleWorker?: boolean
}

interface Claim {
  id: number
  inquiryId: number
  kind: NotificationKind
  attempts: number
  token: string
}

const maxRetryMs = 60 * 60 * 1000

/**
 * Sends what the outbox holds, one message at a time. Several server processes can run one each:
 * a message is claimed with FOR UPDATE SKIP LOCKED, a lease and a token, and the holder renews
 * the lease while it works, so a slow mail server never lets another worker take over a message
 * that is still being sent. A worker that dies stops renewing and its claim expires.
 *
 * A send that succeeded is recorded at once; if the database fails right then, the worker keeps
 * the claim and keeps trying to record it (the message is not sent again). The one case left in
 * which a message goes out twice: the process dies (or is stopped and cannot reach the database
 * within its 10 s) between the mail server's "accepted" and that record. Every attempt carries the
 * same Message-ID, so mail systems can tell.
 */
export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { sql, log } = options
  const leaseMs = options.leaseMs ?? 60_000
  const markRetryMs = options.markRetryMs ?? 250
  let timer: NodeJS.Timeout | undefined
  let cycle: Promise<void> | undefined
  let again = false
  let stopped = false
  let stopDeadline = Number.POSITIVE_INFINITY

  const claimOne = async (): Promise<Claim | undefined> => {
    const token = randomUUID()
    const [row] = await sql<Omit<Claim, 'token'>[]>`
      update outbox_messages
      set claimed_until = now() + ${leaseMs} * interval '1 millisecond', claim_token = ${token},
          attempts = attempts + 1
      where id = (
        select id from outbox_messages
        where sent_at is null and next_attempt_at <= now()
          and (claimed_until is null or claimed_until < now())
        order by next_attempt_at, id
        limit 1
        for update skip locked
      )
      returning id, inquiry_id, kind, attempts
    `
    return row && { ...row, token }
  }

  /** Renews the claim every third of the lease until `stop()`. */
  function holdLease(claim: Claim) {
    const renew = setInterval(() => {
      sql`
        update outbox_messages set claimed_until = now() + ${leaseMs} * interval '1 millisecond'
        where id = ${claim.id} and claim_token = ${claim.token}
      `.then(
        (result) => {
          if (result.count === 0) log.warn('outbox claim lost', { outboxId: claim.id, kind: claim.kind })
        },
        (error: unknown) => log.warn('outbox claim not renewed', { outboxId: claim.id, step: 'database', error: describeError(error) }),
      )
    }, Math.max(10, Math.floor(leaseMs / 3)))
    return { stop: () => clearInterval(renew) }
  }

  async function deliver(claim: Claim) {
    const lease = holdLease(claim)
    try {
      let message: MailMessage
      try {
        const lead = await options.inquiries.byId(claim.inquiryId)
        if (!lead) throw new Error(`inquiry ${claim.inquiryId} no longer exists`)
        message = buildMessage(claim.kind, lead, options.settings)
        if (message.to.length === 0) throw new Error(`no recipient configured for ${claim.kind}`)
      } catch (error) {
        return await failed(claim, 'reading the lead', error)
      }
      try {
        await options.mailer.send(message)
      } catch (error) {
        return await failed(claim, 'mail server', error)
      }
      await recordSent(claim)
    } finally {
      lease.stop()
    }
  }

  /** Not sent: record why, release the claim, and come back after the backoff. */
  async function failed(claim: Claim, step: 'reading the lead' | 'mail server', error: unknown) {
    const retryInMs = Math.min(options.retryBaseMs * 2 ** (claim.attempts - 1), maxRetryMs)
    const reason = redactEmails(describeError(error)).slice(0, 500)
    log.warn('lead notification failed', { outboxId: claim.id, kind: claim.kind, attempt: claim.attempts, step, retryInMs, error: reason })
    await sql`
      update outbox_messages
      set claimed_until = null, claim_token = null, last_error = ${`${step}: ${reason}`},
          next_attempt_at = now() + ${retryInMs} * interval '1 millisecond'
      where id = ${claim.id} and claim_token = ${claim.token}
    `.catch((e: unknown) =>
      // The claim then simply expires and the message is tried again: it was not sent.
      log.warn('outbox update failed', { outboxId: claim.id, step: 'database', error: describeError(e) }),
    )
  }

  /** Sent: record it, trying again for as long as the database refuses, holding the claim meanwhile. */
  async function recordSent(claim: Claim) {
    for (let pause = markRetryMs; ; pause = Math.min(pause * 2, 5000)) {
      try {
        await sql`
          update outbox_messages set sent_at = now(), claimed_until = null, claim_token = null, last_error = null
          where id = ${claim.id}
        `
        log.info('lead notification sent', { outboxId: claim.id, inquiryId: claim.inquiryId, kind: claim.kind, attempt: claim.attempts })
        return
      } catch (error) {
        if (Date.now() + pause > stopDeadline) {
          log.error('lead notification sent but not recorded; it may be sent again', {
            outboxId: claim.id,
            kind: claim.kind,
            step: 'database',
            error: describeError(error),
          })
          return
        }
        log.warn('lead notification sent; recording it failed, trying again', {
          outboxId: claim.id,
          kind: claim.kind,
          step: 'database',
          retryInMs: pause,
          error: describeError(error),
        })
        await new Promise((resolve) => setTimeout(resolve, pause))
      }
    }
  }

  async function run() {
    do {
      again = false
      for (let claim = await claimOne(); claim; claim = stopped ? undefined : await claimOne()) {
        await deliver(claim)
      }
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
      .catch((error: unknown) => log.warn('outbox check failed', { step: 'database', error: describeError(error) }))
      .finally(() => {
        cycle = undefined
        if (!stopped) timer = setTimeout(start, again ? 0 : options.pollMs)
      })
  }

  const releaseStale = options.soleWorker
    ? sql`
        update outbox_messages set claimed_until = null, claim_token = null
        where sent_at is null and claimed_until is not null
      `.catch((error: unknown) => log.warn('outbox claims not released', { step: 'database', error: describeError(error) }))
    : Promise.resolve()
  void releaseStale.then(start)
  return {
    kick: start,
    async stop() {
      stopped = true
      stopDeadline = Date.now() + 10_000
      clearTimeout(timer)
      if (cycle) await Promise.race([cycle, new Promise((resolve) => setTimeout(resolve, 10_000))])
    },
  }
}
