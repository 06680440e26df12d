import type { Agent } from 'node:https'
import { type AlertDispatch, createAlertDispatch, startAlertDispatch } from './alerts/alert-dispatch.ts'
import { createWatchMessages } from './alerts/alert-messages.ts'
import { createAlertUpkeep } from './alerts/alert-upkeep.ts'
import type { Env } from './config/env.ts'
import { startDailyBackups } from './db/backup-files.ts'
import { createChanges, watchChanges } from './db/changes.ts'
import type { Database } from './db/database.ts'
import { refreshStatisticsRegularly } from './db/statistics.ts'
import type { Deadlines } from './db/unavailable.ts'
import type { NotificationKind } from './inquiries/inquiry-store.ts'
import { createLeadEscalation, type LeadEscalation } from './leads/lead-escalation.ts'
import { startLeadUpkeep } from './leads/lead-upkeep.ts'
import { createMailer } from './leads/mailer.ts'
import { type OutboxWorker, outboxAlertConcurrency, outboxConcurrency, startOutboxWorker } from './leads/outbox-worker.ts'
import { createPushSender } from './leads/web-push.ts'
import { createTextSender } from './texts/twilio.ts'
import { createDepositDelivery } from './deposits/deposit-delivery.ts'
import { createHoldUpkeep, type HoldUpkeep } from './deposits/hold-upkeep.ts'
import { createPayments } from './deposits/stripe.ts'
import { createAppointmentDelivery } from './appointments/appointment-delivery.ts'
import { createFollowUpUpkeep, type FollowUpUpkeep } from './appointments/follow-up-upkeep.ts'
import type { Logger } from './log.ts'
import type { SignInPolicy } from './staff/sign-in.ts'
import { createServices, type Services } from './services.ts'

export interface Runtime {
  services: Services
  /** Sends the outbox: emails when a mail transport is configured, staff alerts' pushes always. */
  worker?: OutboxWorker
  /** Waiting leads' escalation to managers and owners, checked on a timer (api/leads/lead-upkeep.ts). */
  escalation: LeadEscalation
  /** Holds ending by themselves, and their owners told a day before, checked on the same timer. */
  holds: HoldUpkeep
  /** Bookings' reminders and follow-ups due, checked every FOLLOW_UP_POLL_MS (api/appointments/follow-up-upkeep.ts). */
  followUps: FollowUpUpkeep
  /** What shoppers' watches must hear of, run on a timer and at every cart change (api/alerts/alert-dispatch.ts). */
  alerts: AlertDispatch
  /** Resolves once the database's change notices arrive (api/db/changes.ts). */
  listening: Promise<void>
  stop(): Promise<void>
}

/**
 * The stores the API serves, and the lead delivery behind them: which notifications every
 * inquiry queues, and the worker that sends them.
 */
export async function createRuntime(
  db: Database,
  env: Env,
  log: Logger,
  options: {
    soleWorker?: boolean
    signInPolicy?: SignInPolicy
    /** Internal addresses an import may fetch photos from anyway: tests' photo servers only. */
    trustedPhotoAddresses?: readonly string[]
    /** Tests' local push service, with its own certificate. */
    pushAgent?: Agent
    /** Longer database deadlines for tests' servers on a busy machine (api/db/unavailable.ts). */
    deadlines?: Deadlines
    /** Tests' clock for texting hours and what the outbox finds due (they stand at 22:30). */
    clock?: () => Date
  } = {},
): Promise<Runtime> {
  const { mail } = env
  // Every Message-ID carries it (api/leads/messages.ts, `messageId`).
  const [{ mark }] = await db.sql<[{ mark: string }]>`select mark from installation`
  const notifications: NotificationKind[] = [
    'dealer-email',
    ...(mail.adfTo.length > 0 ? (['crm-adf'] as const) : []),
    ...(mail.confirmToVisitor ? (['visitor-confirmation'] as const) : []),
  ]
  let worker: OutboxWorker | undefined
  const changes = createChanges()
  // Without Stripe's settings there are no payments: no button, no endpoint (PRODUCT.md, "Closing the sale").
  const payments = env.stripe ? createPayments(env.stripe) : undefined
  const watching = watchChanges(db, changes, { soldVisibleDays: env.soldVisibleDays, log })
  const services = createServices(db.sql, { notifications, onQueued: () => worker?.kick() }, env.leadRateLimit, {
    changes,
    keepListedCarts: env.cacheBytes > 0,
    soldVisibleDays: env.soldVisibleDays,
    deadlines: options.deadlines,
    signInPolicy: options.signInPolicy,
    pushServiceHosts: env.pushServiceHosts,
    textFrom: env.twilio?.from,
    clock: options.clock,
    deposits: {
      payments,
      linkSecret: env.stripe?.webhookSecret,
      siteUrl: env.siteUrl,
      amountCents: env.deposits.amountCents,
      holdDays: env.deposits.holdDays,
      rentalAmountCents: env.deposits.rentalAmountCents,
    },
    appointments: env.appointments,
    photoPolicy: { siteUrl: env.siteUrl, allowedHosts: env.importPhotoHosts, trustedAddresses: options.trustedPhotoAddresses },
    // Reset and invitation links go out at once, not through the outbox: the outbox keeps what it
    // sends, and a link's token must not be kept (docs/decisions/0027-staff-accounts.md).
    accountMail: {
      mailer: createMailer(mail),
      from: mail.leadsFrom ?? `staff@${new URL(env.siteUrl).hostname}`,
      siteUrl: env.siteUrl,
      log,
    },
  })
  const mailer = mail.leadsFrom ? createMailer(mail, { connections: outboxConcurrency + outboxAlertConcurrency }) : undefined
  const settings = { from: mail.leadsFrom ?? '', leadsTo: mail.leadsTo, adfTo: mail.adfTo, siteUrl: env.siteUrl, mark }
  // Always running: staff alerts' pushes need no mail server; without one, emails wait queued.
  worker = startOutboxWorker({
    sql: db.sql,
    mailer,
    pusher: createPushSender(db.sql, { agent: options.pushAgent }),
    texts: env.twilio ? createTextSender(env.twilio) : undefined,
    deposits: createDepositDelivery({
      sql: db.sql,
      send: mailer ? (message) => mailer.send(message) : undefined,
      payments,
      linkSecret: env.stripe?.webhookSecret,
      settings,
    }),
    appointments: createAppointmentDelivery({
      send: mailer ? (message) => mailer.send(message) : undefined,
      links: services.appointments.links,
      facts: services.appointments.facts,
      settings,
    }),
    clock: options.clock,
    inquiries: services.inquiries,
    watches: createWatchMessages(db.sql, services.carts, settings),
    settings,
    log,
    pollMs: mail.pollMs,
    retryBaseMs: mail.retryBaseMs,
    leaseMs: mail.leaseMs,
    soleWorker: options.soleWorker ?? db.embedded,
  })
  if (mailer) {
    log.info('lead delivery', { via: mailer.description, notifications: notifications.join(', ') })
  } else {
    log.warn(
      'Lead email is not configured: every inquiry is stored and queued, but nobody is notified. ' +
        'Set SMTP_URL and LEADS_TO (and ADF_TO for the CRM), or MAIL_DIR in development; queued leads go out once it is.',
    )
  }
  const statistics = db.embedded ? refreshStatisticsRegularly(db.sql, log) : undefined
  const escalation = createLeadEscalation(db.sql, { minutes: env.leadEscalateMinutes, onQueued: () => worker?.kick() })
  const holds = createHoldUpkeep(db.sql, { onQueued: () => worker?.kick(), onCartChange: () => changes.notify('golf_carts') })
    const alerts = createAlertDispatch(db.sql, { onQueued: () => worker?.kick() })
  const alertWorker = startAlertDispatch(alerts, { pollMs: env.alertPollMs, log })
  // Any change to the carts, through this process or another (the database's notice): look now.
  changes.onChange((table) => {
    if (table === undefined || table === 'golf_carts') alertWorker.kick()
  })
  const followUps = createFollowUpUpkeep(db.sql, {
    links: services.appointments.links,
    siteUrl: env.siteUrl,
    textFrom: env.twilio?.from,
    onQueued: () => worker?.kick(),
  })
  const upkeep = startLeadUpkeep({
    spam: services.staff.spam,
    escalation,
    holds,
    watches: createAlertUpkeep(db.sql),
    followUps,
    followUpEveryMs: env.followUpPollMs,
    log,
  })
  const backups = env.backups.dir ? startDailyBackups({ db, dir: env.backups.dir, keep: env.backups.keep, firstCheckMs: env.backups.firstCheckMs, log }) : undefined
  return {
    services,
    worker,
    escalation,
    holds,
    followUps,
    alerts,
    listening: watching.listening,
    async stop() {
      watching.stop()
      statistics?.stop()
      upkeep.stop()
      await alertWorker.stop()
      await backups?.stop()
      await worker?.stop()
      mailer?.close()
    },
  }
}
