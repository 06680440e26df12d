import type { Env } from './config/env.ts'
import { createChanges, watchChanges } from './db/changes.ts'
import type { Database } from './db/database.ts'
import { refreshStatisticsRegularly } from './db/statistics.ts'
import type { NotificationKind } from './inquiries/inquiry-store.ts'
import { createMailer } from './leads/mailer.ts'
import { type OutboxWorker, startOutboxWorker } from './leads/outbox-worker.ts'
import type { Logger } from './log.ts'
import type { SignInPolicy } from './staff/sign-in.ts'
import { createServices, type Services } from './trpc/context.ts'

export interface Runtime {
  services: Services
  /** Undefined when no mail transport is configured: leads are stored and queued only. */
  worker?: OutboxWorker
  /** Resolves once the database's change notices arrive (api/db/changes.ts). */
  listening: Promise<void>
  stop(): Promise<void>
}

/**
 * The stores the API serves, and the lead delivery behind them: which notifications every
 * inquiry queues, and the worker that sends them.
 */
export function createRuntime(
  db: Database,
  env: Env,
  log: Logger,
  options: {
    soleWorker?: boolean
    signInPolicy?: SignInPolicy
    /** Internal addresses an import may fetch photos from anyway: tests' photo servers only. */
    trustedPhotoAddresses?: readonly string[]
  } = {},
): Runtime {
  const { mail } = env
  const notifications: NotificationKind[] = [
    'dealer-email',
    ...(mail.adfTo.length > 0 ? (['crm-adf'] as const) : []),
    ...(mail.confirmToVisitor ? (['visitor-confirmation'] as const) : []),
  ]
  let worker: OutboxWorker | undefined
  const changes = createChanges()
  const watching = watchChanges(db, changes, { soldVisibleDays: env.soldVisibleDays, log })
  const services = createServices(db.sql, { notifications, onQueued: () => worker?.kick() }, env.leadRateLimit, {
    changes,
    soldVisibleDays: env.soldVisibleDays,
    signInPolicy: options.signInPolicy,
    photoPolicy: { siteUrl: env.siteUrl, allowedHosts: env.importPhotoHosts, trustedAddresses: options.trustedPhotoAddresses },
  })
  const mailer = createMailer(mail)
  if (mailer && mail.leadsFrom) {
    worker = startOutboxWorker({
      sql: db.sql,
      mailer,
      inquiries: services.inquiries,
      settings: { from: mail.leadsFrom, leadsTo: mail.leadsTo, adfTo: mail.adfTo, siteUrl: env.siteUrl },
      log,
      pollMs: mail.pollMs,
      retryBaseMs: mail.retryBaseMs,
      soleWorker: options.soleWorker ?? db.embedded,
    })
    log.info('lead delivery', { via: mailer.description, notifications: notifications.join(', ') })
  } else {
    log.warn(
      'Lead email is not configured: every inquiry is stored and queued, but nobody is notified. ' +
        'Set SMTP_URL and LEADS_TO (and ADF_TO for the CRM), or MAIL_DIR in development; queued leads go out once it is.',
    )
  }
  const statistics = db.embedded ? refreshStatisticsRegularly(db.sql, log) : undefined
  return {
    services,
    worker,
    listening: watching.listening,
    async stop() {
      watching.stop()
      statistics?.stop()
      await worker?.stop()
      mailer?.close()
    },
  }
}
