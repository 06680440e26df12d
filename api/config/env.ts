import { z } from 'zod'

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
  /** Days a sold cart's page keeps saying Sold (with similar carts) before it answers 410. */
  SOLD_VISIBLE_DAYS: z.coerce.number().int().min(0).max(3650).default(14),
  /** Hosts an inventory import may fetch photos from, beside the site itself (PRODUCT.md, "Import"). */
  IMPORT_PHOTO_HOSTS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+(:\d+)?$/, 'must be host names separated by commas, like photos.example.com'))),
  /** Where the server writes a backup a day (docs/DEPLOY.md, "Backups"); unset: no daily backup. */
  BACKUP_DIR: z.string().trim().optional().or(z.literal('').transform(() => undefined)),
  /** How many daily backups BACKUP_DIR keeps; older ones are removed. */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(3650).default(14),
  OUTBOX_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(5000),
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  /** How long a dead process's claim on a message holds before another process sends it. */
  OUTBOX_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
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
    soldVisibleDays: parsed.SOLD_VISIBLE_DAYS,
    importPhotoHosts: parsed.IMPORT_PHOTO_HOSTS,
    leadRateLimit: { limit: parsed.LEAD_RATE_LIMIT, windowSeconds: parsed.LEAD_RATE_WINDOW_SECONDS },
    leadEscalateMinutes: parsed.LEAD_ESCALATE_MINUTES,
    trustProxy: parsed.TRUST_PROXY,
    backups: { dir: parsed.BACKUP_DIR, keep: parsed.BACKUP_KEEP },
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
    .safeParse(source)
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${String(i.path[0] ?? '(env)')}: ${i.message}`)
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`)
  }
  return finish(result.data)
}
