import { randomUUID } from 'node:crypto'
import type { Sql } from '../db/database.ts'
import { type InquiryStore, type NotificationKind, notificationKinds } from '../inquiries/inquiry-store.ts'
import { describeError, type Logger, redactEmails } from '../log.ts'
import type { Mailer } from './mailer.ts'
import { buildMessage, buildStaffAlert, type MailMessage, type MailSettings, pushPayload } from './messages.ts'
import { pushKinds, type StaffAlertKind, staffAlertKinds } from './staff-alerts.ts'
import { PushRefused, type PushSender } from './web-push.ts'

export interface OutboxWorker {
  /** Look at the outbox now (a lead was just stored) instead of at the next poll. */
  kick(): void
  /** Finishes the message in hand (bounded) and stops. */
  stop(): Promise<void>
}

export interface OutboxWorkerOptions {
  sql: Sql
  /** Undefined without a mail server: emails wait in the outbox, pushes still go. */
  mailer?: Mailer
  /** Web Push to the browsers where staff turned alerts on. */
  pusher: PushSender
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
   * At most this many messages in hand at once (default 4): a burst of leads queues several
   * messages each, and one slow mail server or push service must not hold up the rest.
   */
  concurrency?: number
  /**
   * This is the only process on the database (the embedded one, guarded by its lock file), so
   * any claim left at start belongs to a process that died: release them instead of waiting for
   * their leases to run out.
   */
  soleWorker?: boolean
}

type OutboxKind = NotificationKind | StaffAlertKind

interface Claim {
  id: number
  inquiryId: number
  kind: OutboxKind
  /** A staff alert's account, and for a push its browser. */
  userId: number | null
  pushSubscriptionId: number | null
  attempts: number
  token: string
}

const isPush = (kind: OutboxKind) => (pushKinds as readonly string[]).includes(kind)

const maxRetryMs = 60 * 60 * 1000

/** How many messages a worker has in hand at once unless told otherwise (docs/decisions/0026). */
export const outboxConcurrency = 4

/**
 * Sends what the outbox holds, a few messages at a time (`concurrency`): one lane claims and
 * sends, and each claim that finds work opens another lane, up to the bound, so an empty outbox
 * costs one query a poll and a burst is sent in parallel. Several server processes can run one each:
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
  const concurrency = Math.max(1, options.concurrency ?? outboxConcurrency)
  let timer: NodeJS.Timeout | undefined
  let cycle: Promise<void> | undefined
  let again = false
  let stopped = false
  let stopDeadline = Number.POSITIVE_INFINITY
  // Without a mail server only pushes are claimed; emails wait, untouched, until one is configured.
  const claimable: OutboxKind[] = options.mailer ? [...notificationKinds, ...staffAlertKinds] : [...pushKinds]

  const claimOne = async (): Promise<Claim | undefined> => {
    const token = randomUUID()
    const [row] = await sql<Omit<Claim, 'token'>[]>`
      update outbox_messages
      set claimed_until = now() + ${leaseMs} * interval '1 millisecond', claim_token = ${token},
          attempts = attempts + 1
      where id = (
        select id from outbox_messages
        where sent_at is null and next_attempt_at <= now()
          and (claimed_until is null or claimed_until < now()) and kind in ${sql(claimable)}
        order by next_attempt_at, id
        limit 1
        for update skip locked
      )
      returning id, inquiry_id, kind, user_id, push_subscription_id, attempts
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
      if (isPush(claim.kind)) return await deliverPush(claim)
      let message: MailMessage
      try {
        const lead = await options.inquiries.byId(claim.inquiryId)
        if (!lead) throw new Error(`inquiry ${claim.inquiryId} no longer exists`)
        if ((notificationKinds as readonly string[]).includes(claim.kind)) {
          message = buildMessage(claim.kind as NotificationKind, lead, options.settings)
        } else {
          const [to] = await sql<{ username: string; email: string | null }[]>`select username, email from users where id = ${claim.userId}`
          message = buildStaffAlert(claim.kind as StaffAlertKind, lead, to?.email ? [to.email] : [], options.settings)
        }
        if (message.to.length === 0) throw new Error(`no recipient configured for ${claim.kind}`)
      } catch (error) {
        return await failed(claim, 'reading the lead', error)
      }
      try {
        if (!options.mailer) throw new Error('no mail server configured')
        await options.mailer.send(message)
      } catch (error) {
        return await failed(claim, 'mail server', error)
      }
      await recordSent(claim)
    } finally {
      lease.stop()
    }
  }

  /**
   * One browser's notification. A push service that says the subscription is gone (404, 410)
   * removes it, and with it this row and whatever else it had queued: nothing is left to retry.
   */
  async function deliverPush(claim: Claim) {
    let payload: string
    let target: { endpoint: string; p256dh: string; auth: string } | undefined
    try {
      const lead = await options.inquiries.byId(claim.inquiryId)
      if (!lead) throw new Error(`inquiry ${claim.inquiryId} no longer exists`)
      ;[target] = await sql<{ endpoint: string; p256dh: string; auth: string }[]>`
        select endpoint, p256dh, auth from push_subscriptions where id = ${claim.pushSubscriptionId}
      `
      if (!target) throw new Error('the browser no longer takes alerts')
      payload = pushPayload(claim.kind as StaffAlertKind, lead)
    } catch (error) {
      return await failed(claim, 'reading the lead', error)
    }
    try {
      await options.pusher.send(target, payload, { topic: `lead-${claim.inquiryId}${claim.kind === 'escalation-push' ? '-e' : ''}` })
    } catch (error) {
      if (error instanceof PushRefused && (error.statusCode === 404 || error.statusCode === 410)) {
        await sql`delete from push_subscriptions where id = ${claim.pushSubscriptionId}`.then(
          () => log.info('push subscription removed', { outboxId: claim.id, subscription: claim.pushSubscriptionId, status: error.statusCode }),
          (e: unknown) => failed(claim, 'push service', e),
        )
        return
      }
      return await failed(claim, 'push service', error)
    }
    await recordSent(claim)
  }

  /** Not sent: record why, release the claim, and come back after the backoff. */
  async function failed(claim: Claim, step: 'reading the lead' | 'mail server' | 'push service', error: unknown) {
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
      const lanes: Promise<void>[] = []
      const lane = async () => {
        for (let claim = await claimOne(); claim; claim = stopped ? undefined : await claimOne()) {
          // There was work: another lane may find more while this one sends.
          if (lanes.length < concurrency && !stopped) lanes.push(lane())
          await deliver(claim)
        }
      }
      lanes.push(lane())
      // Every lane ends before the cycle does, even when one fails (its database error is
      // reported once the others are done), so two cycles never run side by side.
      let failure: PromiseRejectedResult | undefined
      for (let settled = 0; settled < lanes.length; ) {
        const results = await Promise.allSettled(lanes.slice(settled))
        settled += results.length
        failure ??= results.find((result): result is PromiseRejectedResult => result.status === 'rejected')
      }
      if (failure) throw failure.reason
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
