import { z } from 'zod'
import { defaultPushServiceHosts, pushServiceHostShape } from '../leads/push-endpoints.ts'

/**
 * The environment, parsed once at start (the table in docs/CONTRACTS.md, "Environment variables"). Nothing else reads
 * `process.env`; a bad value stops the server with a message that names the variable.
 */
const origin = z
  .string()
  .trim()
  .transform((value, ctx) => {
    try {
      const url = new URL(value)
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== 'null') {
        return url.origin
      }
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: `"${value}" is not an origin like https://partner.example` })
    return z.NEVER
  })

/** One address or a comma-separated list, each checked. */
const optionalEmails = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v.split(',').map((a) => a.trim()).filter(Boolean) : []))
  .pipe(z.array(z.email('must be email addresses separated by commas')))

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATA_DIR: z.string().trim().min(1).default('./.data'),
  SITE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL like https://www.example.com' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(origin)),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://, like smtp://user:pass@host:587')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LEADS_TO: optionalEmails,
  LEADS_FROM: optionalEmails,
  ADF_TO: optionalEmails,
  CONFIRM_TO_VISITOR: z
    .enum(['true', 'false', ''])
    .default('false')
    .transform((v) => v === 'true'),
  /** Development: write each message as an .eml file here instead of sending it. */
  MAIL_DIR: z.string().trim().optional().or(z.literal('').transform(() => undefined)),
  /** Lead submissions allowed per client address in each window; 0 turns the limit off. */
  LEAD_RATE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(10),
  LEAD_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Business-hours minutes a lead may stay New before the managers and owners are alerted. */
  LEAD_ESCALATE_MINUTES: z.coerce.number().int().min(1).max(10_080).default(15),
  /** How many proxies in front of the server to trust for the client address (X-Forwarded-For). */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Megabytes of answers kept for visitors until something they show changes (api/http/answer-cache.ts);
   * 0 keeps nothing, so every request reaches the database (the benchmark measures both).
   */
  CACHE_MB: z.coerce.number().min(0).max(4096).default(32),
  /**
   * The longest a kept answer is served even when no change is heard (PRODUCT.md, "Caches and
   * time"): writes clear answers at once, this only bounds how stale one could get should a
   * notice ever be missed. 0 keeps nothing.
   */
  CART_CACHE_MS: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
  /**
   * How long a stop (SIGTERM, SIGINT) waits for the requests already received before it cuts
   * what is left (PRODUCT.md, "stopping and starting"). Keep it under systemd's TimeoutStopSec
   * (20 s in deploy/systemd/).
   */
  STOP_LIMIT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Days a sold cart's page keeps saying Sold (with similar carts) before it answers 410. */
  SOLD_VISIBLE_DAYS: z.coerce.number().int().min(0).max(3650).default(14),
  /** Hosts an inventory import may fetch photos from, beside the site itself (PRODUCT.md, "Import"). */
  IMPORT_PHOTO_HOSTS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+(:\d+)?$/, 'must be host names separated by commas, like photos.example.com'))),
  /**
   * The push services staff browsers' alerts may be sent to (PRODUCT.md, "push endpoints"): host
   * names, `*.` before one for its subdomains. Unset or empty: the four browsers' services.
   */
  PUSH_SERVICE_HOSTS: z
    .string()
    .optional()
    .transform((list) => (list ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(pushServiceHostShape, 'must be host names separated by commas, like fcm.googleapis.com or *.push.apple.com')))
    .transform((hosts) => (hosts.length > 0 ? hosts : [...defaultPushServiceHosts])),
  /** Where the server writes a backup a day (docs/DEPLOY.md, "Backups"); unset: no daily backup. */
  BACKUP_DIR: z.string().trim().optional().or(z.literal('').transform(() => undefined)),
  /** How many daily backups BACKUP_DIR keeps; older ones are removed. */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(3650).default(14),
  /** How long after a start the server first looks whether the day's backup is due (then hourly). */
  BACKUP_FIRST_CHECK_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /**
   * Texting through Twilio (PRODUCT.md, "texting"): all three, or none (no texting). The account
   * SID and auth token from the Twilio console; the number texts come from, in E.164.
   */
  TWILIO_ACCOUNT_SID: z
    .string()
    .trim()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio account SID: AC and 32 hexadecimal characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  TWILIO_AUTH_TOKEN: z.string().trim().min(16, 'must be the auth token from the Twilio console').optional().or(z.literal('').transform(() => undefined)),
  TWILIO_FROM: z
    .string()
    .trim()
    .regex(/^\+[1-9]\d{7,14}$/, 'must be the Twilio number in E.164, like +16095550100')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Twilio's API; set only to test against a local stand-in. */
  TWILIO_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL like https://api.twilio.com' })
    .default('https://api.twilio.com'),
  /**
   * Deposits through Stripe (PRODUCT.md, "deposits"): both, or neither (no deposits). The secret
   * key (or a restricted key) and the signing secret of the webhook endpoint, from Stripe's Dashboard.
   */
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .regex(/^(sk|rk)_(test|live)_[0-9A-Za-z]{10,}$/, 'must be a Stripe secret key, like sk_test_... or rk_live_...')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .trim()
    .regex(/^whsec_[0-9A-Za-z+/=]{10,}$/, "must be the webhook endpoint's signing secret, like whsec_...")
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Stripe's API; set only to test against a local stand-in. */
  STRIPE_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL like https://api.stripe.com' })
    .default('https://api.stripe.com'),
  /** A cart's deposit, in whole dollars. */
  DEPOSIT_AMOUNT: z.coerce.number().int('must be whole dollars').min(1).max(100_000).default(500),
  /** How many days a paid deposit holds a cart. */
  DEPOSIT_HOLD_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  /** A rental reservation's deposit, in whole dollars. */
  RENTAL_DEPOSIT: z.coerce.number().int('must be whole dollars').min(1).max(100_000).default(100),
  /** How long an appointment slot is, in minutes (PRODUCT.md, "appointments"). */
  APPOINTMENT_MINUTES: z.coerce.number().int().min(10).max(240).default(30),
  /** How many bookings one slot takes per showroom and kind. */
  APPOINTMENT_CAPACITY: z.coerce.number().int().min(1).max(50).default(2),
  /** How often each process looks for follow-ups due and reminders to queue. */
  FOLLOW_UP_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(5000),
  OUTBOX_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(5000),
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /** How long a dead process's claim on a message holds before another process sends it. */
  OUTBOX_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /**
   * How often each process looks for cart changes watchers must hear of, besides at once on the
   * database's notice of a change (PRODUCT.md: alerts within 60 seconds).
   */
  ALERT_POLL_MS: z.coerce.number().int().min(50).max(30_000).default(10_000),
})

export type Env = ReturnType<typeof finish>

function finish(parsed: z.output<typeof envSchema>) {
  const siteUrl = (parsed.SITE_URL ?? `http://localhost:${parsed.PORT || 3000}`).replace(/\/+$/, '')
  return {
    nodeEnv: parsed.NODE_ENV,
    port: parsed.PORT,
    host: parsed.HOST,
    databaseUrl: parsed.DATABASE_URL,
    dataDir: parsed.DATA_DIR,
    siteUrl,
    /** The site's own origin is always allowed to submit leads (docs/CONTRACTS.md, "Origins"). */
    allowedOrigins: [...new Set([new URL(siteUrl).origin, ...parsed.ALLOWED_ORIGINS])],
    logLevel: parsed.LOG_LEVEL,
    cacheBytes: Math.round(parsed.CACHE_MB * 1024 * 1024),
    cacheMaxAgeMs: parsed.CART_CACHE_MS,
    stopLimitMs: parsed.STOP_LIMIT_MS,
    soldVisibleDays: parsed.SOLD_VISIBLE_DAYS,
    importPhotoHosts: parsed.IMPORT_PHOTO_HOSTS,
    pushServiceHosts: parsed.PUSH_SERVICE_HOSTS,
    leadRateLimit: { limit: parsed.LEAD_RATE_LIMIT, windowSeconds: parsed.LEAD_RATE_WINDOW_SECONDS },
    leadEscalateMinutes: parsed.LEAD_ESCALATE_MINUTES,
    trustProxy: parsed.TRUST_PROXY,
    backups: { dir: parsed.BACKUP_DIR, keep: parsed.BACKUP_KEEP, firstCheckMs: parsed.BACKUP_FIRST_CHECK_MS },
    /** Undefined without Twilio's settings: no texting, and the console says what to set. */
    twilio:
      parsed.TWILIO_ACCOUNT_SID && parsed.TWILIO_AUTH_TOKEN && parsed.TWILIO_FROM
        ? {
            accountSid: parsed.TWILIO_ACCOUNT_SID,
            authToken: parsed.TWILIO_AUTH_TOKEN,
            from: parsed.TWILIO_FROM,
            apiUrl: parsed.TWILIO_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    /** Undefined without Stripe's settings: no deposits anywhere, and the console says what to set. */
    stripe:
      parsed.STRIPE_SECRET_KEY && parsed.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: parsed.STRIPE_SECRET_KEY,
            webhookSecret: parsed.STRIPE_WEBHOOK_SECRET,
            apiUrl: parsed.STRIPE_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    deposits: {
      amountCents: parsed.DEPOSIT_AMOUNT * 100,
      holdDays: parsed.DEPOSIT_HOLD_DAYS,
      rentalAmountCents: parsed.RENTAL_DEPOSIT * 100,
    },
    alertPollMs: parsed.ALERT_POLL_MS,
    appointments: { minutes: parsed.APPOINTMENT_MINUTES, capacity: parsed.APPOINTMENT_CAPACITY },
    followUpPollMs: parsed.FOLLOW_UP_POLL_MS,
    mail: {
      smtpUrl: parsed.SMTP_URL,
      mailDir: parsed.MAIL_DIR,
      leadsTo: parsed.LEADS_TO,
      /** Defaults to the dealer's own inbox, which SMTP providers accept as a sender. */
      leadsFrom: parsed.LEADS_FROM[0] ?? parsed.LEADS_TO[0],
      adfTo: parsed.ADF_TO,
      confirmToVisitor: parsed.CONFIRM_TO_VISITOR,
      pollMs: parsed.OUTBOX_POLL_MS,
      retryBaseMs: parsed.OUTBOX_RETRY_BASE_MS,
      leaseMs: parsed.OUTBOX_LEASE_MS,
    },
  }
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = envSchema
    .refine((env) => !(env.SMTP_URL || env.MAIL_DIR) || env.LEADS_TO.length > 0, {
      path: ['LEADS_TO'],
      message: 'is required when SMTP_URL or MAIL_DIR is set: the dealer inbox that receives every lead',
    })
    .refine(
      (env) => [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_FROM].every(Boolean) || ![env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_FROM].some(Boolean),
      { path: ['TWILIO_ACCOUNT_SID'], message: 'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are set together, or none of them (no texting)' },
    )
    .refine((env) => Boolean(env.STRIPE_SECRET_KEY) === Boolean(env.STRIPE_WEBHOOK_SECRET), {
      path: ['STRIPE_SECRET_KEY'],
      message: 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together, or neither (no deposits)',
    })
    .safeParse(source)
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${String(i.path[0] ?? '(env)')}: ${i.message}`)
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`)
  }
  return finish(result.data)
}
