import { describe, expect, it } from 'vitest'
import { ConfigError, loadEnv } from './env.ts'

describe('environment', () => {
  it('has the documented defaults', () => {
    expect(loadEnv({})).toEqual({
      nodeEnv: 'production',
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      dataDir: './.data',
      siteUrl: 'http://localhost:3000',
      allowedOrigins: ['http://localhost:3000'],
      logLevel: 'info',
      cacheBytes: 32 * 1024 * 1024,
      cacheMaxAgeMs: 300_000,
      soldVisibleDays: 14,
      importPhotoHosts: [],
      leadRateLimit: { limit: 10, windowSeconds: 600 },
      leadEscalateMinutes: 15,
      trustProxy: 0,
      backups: { dir: undefined, keep: 14 },
      mail: {
        smtpUrl: undefined,
        mailDir: undefined,
        leadsTo: [],
        leadsFrom: undefined,
        adfTo: [],
        confirmToVisitor: false,
        pollMs: 5000,
        retryBaseMs: 30000,
        leaseMs: 60000,
      },
    })
  })

  it('reads the lead delivery settings', () => {
    const env = loadEnv({
      SMTP_URL: 'smtp://user:pass@mail.example:587',
      LEADS_TO: 'a@dealer.example, b@dealer.example',
      ADF_TO: 'crm@dealer.example',
      CONFIRM_TO_VISITOR: 'true',
    })
    expect(env.mail).toMatchObject({
      smtpUrl: 'smtp://user:pass@mail.example:587',
      leadsTo: ['a@dealer.example', 'b@dealer.example'],
      leadsFrom: 'a@dealer.example',
      adfTo: ['crm@dealer.example'],
      confirmToVisitor: true,
    })
  })

  it('derives the site URL from the port and always allows the site origin', () => {
    const env = loadEnv({ PORT: '4000', ALLOWED_ORIGINS: ' https://partner.example , https://lp.example/path ' })
    expect(env.siteUrl).toBe('http://localhost:4000')
    expect(env.allowedOrigins).toEqual(['http://localhost:4000', 'https://partner.example', 'https://lp.example'])
  })

  it('takes SITE_URL without a trailing slash', () => {
    expect(loadEnv({ SITE_URL: 'https://carts.example/' }).siteUrl).toBe('https://carts.example')
  })

  it('reads how long a sold cart\'s page stays', () => {
    expect(loadEnv({ SOLD_VISIBLE_DAYS: '30' }).soldVisibleDays).toBe(30)
    expect(loadEnv({ SOLD_VISIBLE_DAYS: '0' }).soldVisibleDays).toBe(0)
    expect(loadEnv({ LEAD_ESCALATE_MINUTES: '30' }).leadEscalateMinutes).toBe(30)
    expect(() => loadEnv({ LEAD_ESCALATE_MINUTES: '0' })).toThrow(ConfigError)
    expect(loadEnv({ IMPORT_PHOTO_HOSTS: ' Photos.Example.com , cdn.example:8443 ' }).importPhotoHosts).toEqual(['photos.example.com', 'cdn.example:8443'])
    expect(() => loadEnv({ IMPORT_PHOTO_HOSTS: 'https://photos.example.com/' })).toThrow(/IMPORT_PHOTO_HOSTS/)
  })

  it('reads the cache\'s bound in megabytes, 0 keeping nothing', () => {
    expect(loadEnv({ CACHE_MB: '0.5' }).cacheBytes).toBe(524_288)
    expect(loadEnv({ CACHE_MB: '0' }).cacheBytes).toBe(0)
    expect(() => loadEnv({ CACHE_MB: '-1' })).toThrow(/CACHE_MB/)
    expect(loadEnv({}).cacheMaxAgeMs).toBe(300_000)
    expect(loadEnv({ CART_CACHE_MS: '0' }).cacheMaxAgeMs).toBe(0)
    expect(() => loadEnv({ CART_CACHE_MS: 'soon' })).toThrow(/CART_CACHE_MS/)
  })

  it('treats an empty DATABASE_URL as unset', () => {
    expect(loadEnv({ DATABASE_URL: '' }).databaseUrl).toBeUndefined()
  })

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must start with postgres:// or postgresql://'],
    [{ SITE_URL: 'carts.example' }, 'SITE_URL'],
    [{ ALLOWED_ORIGINS: 'https://ok.example,not a url' }, '"not a url" is not an origin'],
    [{ SMTP_URL: 'smtp://mail.example' }, 'LEADS_TO: is required when SMTP_URL or MAIL_DIR is set'],
    [{ SMTP_URL: 'http://mail.example', LEADS_TO: 'a@b.example' }, 'SMTP_URL: must start with smtp://'],
    [{ LEADS_TO: 'not-an-address' }, 'LEADS_TO: must be email addresses'],
    [{ CONFIRM_TO_VISITOR: 'yes' }, 'CONFIRM_TO_VISITOR'],
    [{ SOLD_VISIBLE_DAYS: 'two weeks' }, 'SOLD_VISIBLE_DAYS'],
    [{ SOLD_VISIBLE_DAYS: '-1' }, 'SOLD_VISIBLE_DAYS'],
  ])('fails fast on %j with a message naming the variable', (env, expected) => {
    expect(() => loadEnv(env)).toThrow(ConfigError)
    expect(() => loadEnv(env)).toThrow(expected)
  })
})
