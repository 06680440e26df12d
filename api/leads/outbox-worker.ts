import { randomUUID } from 'node:crypto'
import { type BuiltWatchMessage, type WatchAlert, type WatchMessageKind, watchMessageKinds, type WatchMessages, watchPushKinds } from '../alerts/alert-messages.ts'
import type { Sql } from '../db/database.ts'
import { type InquiryStore, type NotificationKind, notificationKinds } from '../inquiries/inquiry-store.ts'
import { describeError, type Logger, redactEmails } from '../log.ts'
import { drainInLanes } from './lanes.ts'
import type { Mailer } from './mailer.ts'
import { buildMessage, buildStaffAlert, type MailMessage, type MailSettings, messageId, pushPayload, type TaskDue } from './messages.ts'
import { pushKinds, type StaffAlertKind, staffAlertKinds } from './staff-alerts.ts'
import { PushRefused, type PushSender, type PushTarget } from './web-push.ts'
import { type AccountNotice, accountNoticeKind } from '../users/account-notices.ts'
import { createReplyDelivery, type ReplyKind, replyKinds, type ReplyOutcome } from './reply-delivery.ts'
import type { TextSender } from '../texts/twilio.ts'
import type { DepositDelivery } from '../deposits/deposit-delivery.ts'
import { type DepositMessageKind, depositMessageKinds } from '../deposits/deposit-store.ts'
import type { AppointmentDelivery } from '../appointments/appointment-delivery.ts'
import { type AppointmentMessageKind, appointmentMessageKinds } from '../appointments/appointment-store.ts'

export interface OutboxWorker {
  /** Look at the outbox now (a lead was just stored) instead of at the next poll. */
  kick(): void
  /** Looks at the outbox now and resolves once that look has sent (or set aside) everything due. */
  checkNow(): Promise<void>
  /** Finishes the message in hand (bounded) and stops. */
  stop(): Promise<void>
}

export interface OutboxWorkerOptions {
  sql: Sql
  /** Undefined without a mail server: emails wait in the outbox, pushes still go. */
  mailer?: Mailer
  /** Web Push to the browsers where staff turned alerts on. */
  pusher: PushSender
  /** Twilio, when texting is configured: replies by text wait in the outbox until it is. */
  texts?: TextSender
  /** Deposits' emails and refunds (api/deposits/deposit-delivery.ts); refunds wait for Stripe's settings. */
  deposits?: DepositDelivery
  /** Bookings' emails to their shoppers (api/appointments/appointment-delivery.ts); they wait for a mail server. */
  appointments?: AppointmentDelivery
  /**
   * The clock a message's due time and texting hours are read from (tests stand at 22:30 New
   * Jersey time); by default the database's `now()` decides what is due.
   */
  clock?: () => Date
  inquiries: InquiryStore
  /** Shoppers' watches: their confirmations and alerts (api/alerts/alert-messages.ts). */
  watches?: WatchMessages
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
   * Pushes' own lanes (default 8), beside the emails' `concurrency`: a lead's emails never wait
   * behind a push, however many push services never answer (PRODUCT.md, "alerts never hold up leads").
   */
  pushConcurrency?: number
  /**
   * Watchers' alert emails' own lanes (default 4), beside the leads' `concurrency`, each claiming
   * `alertBatch` (default 50) at a time: a dispatch of 10,000 alerts is 200 claims, not 10,000,
   * and a lead's emails never wait behind it.
   */
  alertConcurrency?: number
  alertBatch?: number
  /** How long a push may take before it counts as failed (default 10 s, PRODUCT.md). */
  pushTimeoutMs?: number
  /** A push is tried at most this many times (default 6, about a quarter of an hour at the default backoff), then given up. */
  pushTries?: number
  /**
   * This is the only process on the database (the embedded one, guarded by its lock file), so
   * any claim left at start belongs to a process that died: release them instead of waiting for
   * their leases to run out.
   */
  soleWorker?: boolean
}

type OutboxKind = NotificationKind | StaffAlertKind | typeof accountNoticeKind | ReplyKind | DepositMessageKind | WatchMessageKind | AppointmentMessageKind

interface Claim {
  id: number
  /** Null for an account notice, which belongs to no lead. */
  inquiryId: number | null
  kind: OutboxKind
  /** A staff alert's account, and for a push its browser. */
  userId: number | null
  pushSubscriptionId: number | null
  /** An account notice's email, composed when it was queued (api/users/account-notices.ts). */
  notice: AccountNotice | null
  /** A reply's message, or the text a text alert is about. */
  leadMessageId: number | null
  /** The deposit a deposit's email or refund is about. */
  depositId: number | null
  /** A shopper's watch, and what its alert tells. */
  watchId: number | null
  /** The booking a shopper's email is about; the task a task alert is about. */
  appointmentId: number | null
  taskId: number | null
  /** What a watch's alert tells, or the revision of the booking an email is about. */
  details: WatchAlert | { revision: number } | null
  attempts: number
  token: string
}

const isPush = (kind: OutboxKind) => (pushKinds as readonly string[]).includes(kind)
const isReply = (kind: OutboxKind): kind is ReplyKind => (replyKinds as readonly string[]).includes(kind)
const isDeposit = (kind: OutboxKind): kind is DepositMessageKind => (depositMessageKinds as readonly string[]).includes(kind)
const isWatch = (kind: OutboxKind): kind is WatchMessageKind => (watchMessageKinds as readonly string[]).includes(kind)
const isAppointment = (kind: OutboxKind): kind is AppointmentMessageKind => (appointmentMessageKinds as readonly string[]).includes(kind)

const maxRetryMs = 60 * 60 * 1000

/** A browser whose push service has failed every push for this long is removed (PRODUCT.md). */
const pushFailingForMs = 24 * 60 * 60 * 1000

/** How many messages a worker has in hand at once unless told otherwise (docs/decisions/0026). */
export const outboxConcurrency = 4

/** How many watchers' alert emails a worker sends at once besides (docs/decisions/0045). */
export const outboxAlertConcurrency = 4

/** What is sent in bulk, in batches, on lanes of its own: a price drop's alerts to every watcher. */
const bulkKinds: readonly OutboxKind[] = ['watch-alert']

/**
 * Sends what the outbox holds, a few messages at a time (`concurrency`): one lane claims and
 * sends, and each claim that finds work opens another lane, up to the bound, so an empty outbox
 * costs one query a poll and a burst is sent in parallel. Pushes are a queue of their own, with
 * their own lanes (`pushConcurrency`) and a time limit each, so emails never wait behind a push
 * service that does not answer (docs/decisions/0048). Several server processes can run one each:
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
  const pushConcurrency = Math.max(1, options.pushConcurrency ?? 8)
  const pushTimeoutMs = options.pushTimeoutMs ?? 10_000
  const pushTries = Math.max(1, options.pushTries ?? 6)
  const alertConcurrency = Math.max(1, options.alertConcurrency ?? outboxAlertConcurrency)
  const alertBatch = Math.max(1, options.alertBatch ?? 50)
  let stopped = false
  let stopDeadline = Number.POSITIVE_INFINITY
  // Without a mail server only pushes (and texts) are claimed; emails wait, untouched, until one is
  // configured, as texts wait for Twilio's settings.
  const emailKinds: OutboxKind[] = [...notificationKinds, ...staffAlertKinds, accountNoticeKind, 'reply-email']
  const claimable: OutboxKind[] = [
    ...(options.mailer ? emailKinds : pushKinds),
    ...(options.texts ? (['reply-sms'] as const) : []),
    ...(options.deposits?.kinds() ?? []),
    ...(options.appointments?.kinds() ?? []),
    // A watch's emails wait for a mail server too; its pushes do not.
    ...(options.watches ? (options.mailer ? watchMessageKinds : watchPushKinds) : []),
  ]
  const pushes: readonly OutboxKind[] = [...pushKinds, ...watchPushKinds]
  /** What goes through the mail server: its success says the mail server answers again. */
  const mailed = (kind: OutboxKind) => !pushes.includes(kind) && kind !== 'reply-sms' && kind !== 'deposit-refund'
  // Set by a mail server failure in this process, cleared once a send succeeded and the rest were
  // made due again; another process's waiting messages are reached by its own probe (`failed`).
  let mailFailing = false
  const due = options.clock ? () => sql`${options.clock!()}` : () => sql`now()`
  const replies = createReplyDelivery({
    sql,
    send: options.mailer ? (message) => options.mailer!.send(message) : undefined,
    texts: options.texts,
    settings: options.settings,
    clock: options.clock ?? (() => new Date()),
  })

  /**
   * Up to `limit` due messages of these kinds, in one statement under one token. Pushes to a
   * browser whose push service is failing come after every other push, so a healthy browser's
   * alert never waits behind them.
   */
  const claimSome = async (kinds: readonly OutboxKind[], push: boolean, limit: number): Promise<Claim[]> => {
    const token = randomUUID()
    const failingLast = push
      ? sql`(select s.failing_since is not null from push_subscriptions s where s.id = outbox_messages.push_subscription_id) nulls first,`
      : sql``
    const rows = await sql<Omit<Claim, 'token'>[]>`
      update outbox_messages
      set claimed_until = now() + ${leaseMs} * interval '1 millisecond', claim_token = ${token},
          attempts = attempts + 1
      where id = any(array(
        select id from outbox_messages
        where sent_at is null and next_attempt_at <= ${due()}
          and (claimed_until is null or claimed_until < now()) and kind in ${sql(kinds)}
        order by ${failingLast} next_attempt_at, id
        limit ${limit}
        for update skip locked
      ))
      returning id, inquiry_id, kind, user_id, push_subscription_id, notice, lead_message_id, deposit_id, watch_id, appointment_id, task_id, details, attempts
    `
    return rows.map((row) => ({ ...row, token })).sort((a, b) => a.id - b.id)
  }

  /**
   * Renews the claims still held (one statement for a batch) every third of the lease until
   * `stop()`; `done` lets go of one once it is sent or set aside.
   */
  function holdLease(claims: readonly Claim[]) {
    const held = new Set(claims.map((claim) => claim.id))
    const token = claims[0]?.token
    const renew = setInterval(() => {
      if (held.size === 0) return
      const ids = [...held]
      sql`
        update outbox_messages set claimed_until = now() + ${leaseMs} * interval '1 millisecond'
        where id = any(${sql.array(ids)}::int[]) and claim_token = ${token!}
      `.then(
        (result) => {
          if (result.count < ids.filter((id) => held.has(id)).length) log.warn('outbox claim lost', { outboxIds: ids.join(","), kind: claims[0]!.kind })
        },
        (error: unknown) => log.warn('outbox claim not renewed', { outboxIds: ids.join(","), step: 'database', error: describeError(error) }),
      )
    }, Math.max(10, Math.floor(leaseMs / 3)))
    return {
      done: (claim: Claim) => held.delete(claim.id),
      stop: () => clearInterval(renew),
    }
  }

  /**
   * Claims taken but not tried (the worker is stopping): back to the outbox as they were, no
   * attempt counted, for this worker's next start or another's.
   */
  async function release(claims: readonly Claim[]) {
    if (claims.length === 0) return
    await sql`
      update outbox_messages set claimed_until = null, claim_token = null, attempts = attempts - 1
      where id = any(${sql.array(claims.map((claim) => claim.id))}::int[]) and claim_token = ${claims[0]!.token}
    `.catch((error: unknown) => log.warn('outbox claims not released', { step: 'database', error: describeError(error) }))
  }

  /** The email a claimed row stands for: a lead's message or staff alert, or an account notice. */
  async function compose(claim: Claim): Promise<MailMessage> {
    if (claim.notice || claim.inquiryId === null) {
      if (!claim.notice) throw new Error(`outbox row ${claim.id} has neither a lead nor a notice`)
      return { from: options.settings.from, ...claim.notice, messageId: messageId(options.settings, `account-notice-${claim.id}`) }
    }
    const lead = await options.inquiries.byId(claim.inquiryId)
    if (!lead) throw new Error(`inquiry ${claim.inquiryId} no longer exists`)
    if ((notificationKinds as readonly string[]).includes(claim.kind)) return buildMessage(claim.kind as NotificationKind, lead, options.settings)
    const [to] = await sql<{ username: string; email: string | null }[]>`select username, email from users where id = ${claim.userId}`
    return buildStaffAlert(claim.kind as StaffAlertKind, lead, to?.email ? [to.email] : [], options.settings, await textOf(claim), await taskOf(claim))
  }

  /**
   * A claimed batch, one message after another (one SMTP connection or push at a time per lane).
   * A watch's messages are built together first (two queries for the batch, not two a message).
   */
  async function deliverAll(claims: readonly Claim[]) {
    const lease = holdLease(claims)
    try {
      const watchClaims = claims.filter((claim) => isWatch(claim.kind))
      const built = new Map<number, BuiltWatchMessage | Error>()
      if (watchClaims.length > 0) {
        const messages = options.watches
          ? await options.watches
              .buildMany(watchClaims.map((claim) => ({ id: claim.id, kind: claim.kind as WatchMessageKind, watchId: claim.watchId!, details: claim.details as WatchAlert | null })))
              .catch((error: unknown) => watchClaims.map(() => (error instanceof Error ? error : new Error(String(error)))))
          : watchClaims.map(() => new Error('watches are not sent by this worker'))
        watchClaims.forEach((claim, i) => built.set(claim.id, messages[i]!))
      }
      for (const [i, claim] of claims.entries()) {
        if (stopped && i > 0) return await release(claims.slice(i))
        await deliver(claim, built.get(claim.id))
        lease.done(claim)
      }
    } finally {
      lease.stop()
    }
  }

  async function deliver(claim: Claim, built: BuiltWatchMessage | Error | undefined) {
    {
      if (isPush(claim.kind)) return await deliverPush(claim)
      if (isReply(claim.kind)) return await deliverReply(claim)
      if (isDeposit(claim.kind)) return await deliverDeposit(claim)
      if (isWatch(claim.kind)) return await deliverWatch(claim, built)
      if (isAppointment(claim.kind)) return await deliverAppointment(claim, claim.kind)
      let message: MailMessage
      try {
        message = await compose(claim)
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
      const lead = claim.inquiryId === null ? undefined : await options.inquiries.byId(claim.inquiryId)
      if (!lead) throw new Error(`inquiry ${claim.inquiryId} no longer exists`)
      ;[target] = await sql<{ endpoint: string; p256dh: string; auth: string }[]>`
        select endpoint, p256dh, auth from push_subscriptions where id = ${claim.pushSubscriptionId}
      `
      if (!target) throw new Error('the browser no longer takes alerts')
      payload = pushPayload(claim.kind as StaffAlertKind, lead, await textOf(claim), await taskOf(claim))
    } catch (error) {
      return await failed(claim, 'reading the lead', error)
    }
    try {
      const topic = `lead-${claim.inquiryId}${claim.kind === 'escalation-push' ? '-e' : claim.kind === 'text-push' ? `-t${claim.leadMessageId}` : claim.kind === 'task-push' ? `-k${claim.taskId}` : ''}`
      await sendPush(target, payload, topic)
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

  /**
   * A push, given `pushTimeoutMs` to be accepted: a push service that never answers fails it then
   * (the request itself ends at the library's own socket timeout), and the lane is free at once.
   */
  async function sendPush(target: PushTarget, payload: string, topic: string) {
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the push service did not answer within ${pushTimeoutMs} ms`)), pushTimeoutMs)
    })
    try {
      await Promise.race([options.pusher.send(target, payload, { topic }), deadline])
    } finally {
      clearTimeout(timer)
    }
  }

  /** The text a text alert is about. */
  async function textOf(claim: Claim): Promise<{ id: number; body: string } | undefined> {
    if (claim.leadMessageId === null) return undefined
    const [text] = await sql<{ id: number; body: string }[]>`select id, body from lead_messages where id = ${claim.leadMessageId}`
    if (!text) throw new Error(`text ${claim.leadMessageId} no longer exists`)
    return text
  }

  /**
   * A reply from the console (api/leads/reply-delivery.ts). A text outside texting hours goes
   * back to wait until 08:00 (not a failure: no attempt counted); one that can never go (its
   * number withdrew consent, Twilio refused the number) leaves the outbox, its reason on the timeline.
   */
  async function deliverReply(claim: Claim) {
    let outcome: ReplyOutcome
    try {
      outcome = await replies.deliver(claim.leadMessageId!)
    } catch (error) {
      return await failed(claim, 'reading the lead', error)
    }
    if ('sent' in outcome) return await recordSent(claim, outcome.providerId ?? null)
    if ('failed' in outcome) return await failed(claim, outcome.step, outcome.error)
    if ('waitUntil' in outcome) {
      await sql`
        update outbox_messages set claimed_until = null, claim_token = null, attempts = attempts - 1, next_attempt_at = ${outcome.waitUntil}
        where id = ${claim.id} and claim_token = ${claim.token}
      `
      return
    }
    log.info('reply not sent', { outboxId: claim.id, kind: claim.kind, reason: outcome.dropped })
    await sql`delete from outbox_messages where id = ${claim.id} and claim_token = ${claim.token}`
  }

  /** The follow-up a task alert is about. */
  async function taskOf(claim: Claim): Promise<TaskDue | undefined> {
    if (claim.taskId === null) return undefined
    const [task] = await sql<TaskDue[]>`select id, note, due_at from lead_tasks where id = ${claim.taskId}`
    if (!task) throw new Error(`task ${claim.taskId} no longer exists`)
    return task
  }

  /** A booking's email to its shopper (api/appointments/appointment-delivery.ts). */
  async function deliverAppointment(claim: Claim, kind: AppointmentMessageKind) {
    const revision = claim.details && 'revision' in claim.details ? claim.details.revision : 1
    const outcome = await options.appointments!.deliver(kind, claim.appointmentId!, revision).catch((error: unknown) => ({ failed: 'reading the lead' as const, error }))
    if ('failed' in outcome) return await failed(claim, outcome.failed, outcome.error)
    await recordSent(claim)
  }

  /** A deposit's email, or its refund asked of Stripe (api/deposits/deposit-delivery.ts). */
  async function deliverDeposit(claim: Claim) {
    const outcome = await options.deposits!.deliver(claim.kind as DepositMessageKind, claim.depositId!, claim.userId).catch((error: unknown) => ({ failed: 'reading the lead' as const, error }))
    if ('failed' in outcome) return await failed(claim, outcome.failed, outcome.error)
    await recordSent(claim)
  }

  /**
   * A shopper's watch message: an email, or a push to their browser. A push service that says the
   * browser is gone (404, 410) ends the watch, and with it this row: the alert has nowhere to go.
   */
  async function deliverWatch(claim: Claim, built: BuiltWatchMessage | Error | undefined) {
    if (!built || built instanceof Error) return await failed(claim, 'reading the watch', built ?? new Error(`outbox row ${claim.id} was not built`))
    try {
      if (built.channel === 'push') {
        await sendPush(built.target, built.payload, built.topic)
      } else {
        if (!options.mailer) throw new Error('no mail server configured')
        await options.mailer.send(built.message)
      }
    } catch (error) {
      if (error instanceof PushRefused && (error.statusCode === 404 || error.statusCode === 410)) {
        await sql`delete from cart_watches where id = ${claim.watchId}`.then(
          () => log.info('shopper push subscription gone: watch ended', { outboxId: claim.id, watch: claim.watchId, status: error.statusCode }),
          (e: unknown) => failed(claim, 'push service', e),
        )
        return
      }
      return await failed(claim, built.channel === 'push' ? 'push service' : 'mail server', error)
    }
    await recordSent(claim)
  }

  /**
   * Not sent: record why, release the claim, and come back after the backoff. A push tried
   * `pushTries` times is given up (the lead's emails carry the news), and a browser whose push
   * service has failed every push for a day is removed. While the mail server fails, one waiting
   * email is always due within `retryBaseMs`, whatever the others' backoff: its success brings the
   * rest at once (`mailAnswered`), so an outage ends for everyone within a retry of its end.
   */
  async function failed(
    claim: Claim,
    step: 'reading the lead' | 'reading the watch' | 'mail server' | 'push service' | 'twilio' | 'stripe',
    error: unknown,
  ) {
    const retryInMs = Math.min(options.retryBaseMs * 2 ** (claim.attempts - 1), maxRetryMs)
    const reason = redactEmails(describeError(error)).slice(0, 500)
    const push = pushes.includes(claim.kind)
    const givenUp = push && claim.attempts >= pushTries
    log.warn(givenUp ? 'push given up' : 'lead notification failed', {
      outboxId: claim.id,
      kind: claim.kind,
      attempt: claim.attempts,
      step,
      ...(givenUp ? {} : { retryInMs }),
      error: reason,
    })
    try {
      if (push && step === 'push service' && claim.pushSubscriptionId !== null) {
        const [subscription] = await sql<{ expired: boolean }[]>`
          update push_subscriptions set failing_since = coalesce(failing_since, now())
          where id = ${claim.pushSubscriptionId}
          returning failing_since < now() - ${pushFailingForMs} * interval '1 millisecond' as expired
        `
        if (subscription?.expired) {
          // With it go this row and whatever else it had queued.
          await sql`delete from push_subscriptions where id = ${claim.pushSubscriptionId}`
          log.warn('push subscription removed: its push service failed for a day', { outboxId: claim.id, subscription: claim.pushSubscriptionId })
          return
        }
      }
      if (givenUp) {
        await sql`delete from outbox_messages where id = ${claim.id} and claim_token = ${claim.token}`
        return
      }
      await sql`
        update outbox_messages
        set claimed_until = null, claim_token = null, last_error = ${`${step}: ${reason}`},
            next_attempt_at = now() + ${retryInMs} * interval '1 millisecond'
        where id = ${claim.id} and claim_token = ${claim.token}
      `
      if (step === 'mail server') {
        mailFailing = true
        await sql`
          update outbox_messages set next_attempt_at = now() + ${options.retryBaseMs} * interval '1 millisecond'
          where id = (
            select id from outbox_messages
            where sent_at is null and claimed_until is null and last_error like 'mail server:%'
            order by next_attempt_at, id limit 1
          ) and next_attempt_at > now() + ${options.retryBaseMs} * interval '1 millisecond'
        `
      }
    } catch (e) {
      // The claim then simply expires and the message is tried again: it was not sent.
      log.warn('outbox update failed', { outboxId: claim.id, step: 'database', error: describeError(e) })
    }
  }

  /**
   * The mail server took a message: every email waiting out a mail server failure is due now, not
   * at the end of its backoff (a 2-minute outage had the last of 118 waiting 2 more minutes).
   */
  async function mailAnswered() {
    if (!mailFailing) return
    mailFailing = false
    const result = await sql`
      update outbox_messages set next_attempt_at = now()
      where sent_at is null and claimed_until is null and last_error like 'mail server:%' and next_attempt_at > now()
    `.catch((error: unknown) => {
      mailFailing = true
      log.warn('waiting emails not made due', { step: 'database', error: describeError(error) })
      return undefined
    })
    if (result && result.count > 0) {
      log.info('mail server answers again: waiting emails sent now', { waiting: result.count })
      mail.start()
    }
  }

  /**
   * Sent: record it, trying again for as long as the database refuses, holding the claim meanwhile.
   * A reply's message is marked sent in the same statement (with Twilio's id for a text).
   */
  async function recordSent(claim: Claim, providerId: string | null = null) {
    for (let pause = markRetryMs; ; pause = Math.min(pause * 2, 5000)) {
      try {
        await sql`
          with sent as (
            update outbox_messages set sent_at = now(), claimed_until = null, claim_token = null, last_error = null
            where id = ${claim.id}
            returning lead_message_id, kind
          )
          update lead_messages m set status = 'sent', sent_at = now(), provider_id = coalesce(${providerId}, m.provider_id), status_detail = null
          from sent where m.id = sent.lead_message_id and sent.kind in ${sql(replyKinds)} and m.status in ('queued', 'waiting')
        `
        log.info(claim.watchId === null ? 'lead notification sent' : 'watch message sent', {
          outboxId: claim.id,
          ...(claim.watchId === null ? { inquiryId: claim.inquiryId } : { watchId: claim.watchId }),
          kind: claim.kind,
          attempt: claim.attempts,
        })
        if (claim.pushSubscriptionId !== null) {
          await sql`update push_subscriptions set failing_since = null where id = ${claim.pushSubscriptionId} and failing_since is not null`.catch(
            (error: unknown) => log.warn('push subscription not marked working', { subscription: claim.pushSubscriptionId, step: 'database', error: describeError(error) }),
          )
        }
        if (mailed(claim.kind)) await mailAnswered()
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

  /**
   * One queue of the outbox: these kinds, up to `lanes` messages in hand at once, its own polls.
   * The emails' queue and the pushes' queue never wait for each other (not even for the end of
   * the other's look), so a push service that never answers holds up pushes at most.
   */
  function queue(kinds: readonly OutboxKind[], lanes: number, push: boolean, batch = 1) {
    let timer: NodeJS.Timeout | undefined
    let cycle: Promise<void> | undefined
    let again = false

    async function run() {
      do {
        again = false
        await drainInLanes({
          lanes,
          claim: () => claimSome(kinds, push, batch),
          deliver: deliverAll,
          stopped: () => stopped,
        })
      } while (again && !stopped)
    }

    function start() {
      if (stopped || kinds.length === 0) return
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

    return {
      start,
      /** The look under way, if any. */
      cycle: () => cycle,
      stop: () => clearTimeout(timer),
    }
  }

  const mailKinds = claimable.filter((kind) => !pushes.includes(kind))
  // Watchers' alert emails are a queue of their own, claimed in batches: 10,000 of them never
  // stand before a lead's email, whose lanes they do not use (docs/decisions/0045).
  const mail = queue(
    mailKinds.filter((kind) => !bulkKinds.includes(kind)),
    concurrency,
    false,
  )
  const bulk = queue(
    mailKinds.filter((kind) => bulkKinds.includes(kind)),
    alertConcurrency,
    false,
    alertBatch,
  )
  const push = queue(
    claimable.filter((kind) => pushes.includes(kind)),
    pushConcurrency,
    true,
  )
  const queues = [mail, bulk, push]
  const start = () => {
    for (const q of queues) q.start()
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
    async checkNow() {
      // A look under way goes round once more (`again`), so either way the look awaited began after this call.
      start()
      await Promise.all(queues.map((q) => q.cycle() ?? Promise.resolve()))
    },
    async stop() {
      stopped = true
      stopDeadline = Date.now() + 10_000
      for (const q of queues) q.stop()
      const cycles = queues.map((q) => q.cycle()).filter((cycle) => cycle !== undefined)
      if (cycles.length > 0) await Promise.race([Promise.all(cycles), new Promise((resolve) => setTimeout(resolve, 10_000))])
    },
  }
}
