import { describe, expect, it } from 'vitest'
import { ConfigError, loadEnv } from './env.ts'

const twilio = { TWILIO_ACCOUNT_SID: `AC${'ab12'.repeat(8)}`, TWILIO_AUTH_TOKEN: 'f'.repeat(32), TWILIO_FROM: '+16095550100' }

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
      stopLimitMs: 10_000,
      soldVisibleDays: 14,
      importPhotoHosts: [],
      pushServiceHosts: ['fcm.googleapis.com', '*.push.apple.com', 'updates.push.services.mozilla.com', '*.notify.windows.com'],
      leadRateLimit: { limit: 10, windowSeconds: 600 },
      leadEscalateMinutes: 15,
      trustProxy: 0,
      backups: { dir: undefined, keep: 14, firstCheckMs: 60_000 },
      twilio: undefined,
      stripe: undefined,
      deposits: { amountCents: 50_000, holdDays: 7, rentalAmountCents: 10_000 },
      alertPollMs: 10000,
      appointments: { minutes: 30, capacity: 2 },
      followUpPollMs: 5000,
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

  it('reads the deposit settings: Stripe’s two secrets together, the amounts in dollars', () => {
    const env = loadEnv({
      STRIPE_SECRET_KEY: 'sk_test_51AbcdEFGhij',
      STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef',
      STRIPE_API_URL: 'http://127.0.0.1:4242/',
      DEPOSIT_AMOUNT: '750',
      DEPOSIT_HOLD_DAYS: '10',
      RENTAL_DEPOSIT: '150',
    })
    expect(env.stripe).toEqual({ secretKey: 'sk_test_51AbcdEFGhij', webhookSecret: 'whsec_0123456789abcdef', apiUrl: 'http://127.0.0.1:4242' })
    expect(env.deposits).toEqual({ amountCents: 75_000, holdDays: 10, rentalAmountCents: 15_000 })
    expect(loadEnv({ STRIPE_SECRET_KEY: 'sk_live_51AbcdEFGhij', STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef' }).stripe?.apiUrl).toBe('https://api.stripe.com')
    expect(() => loadEnv({ STRIPE_SECRET_KEY: 'sk_test_51AbcdEFGhij' })).toThrow(/STRIPE_SECRET_KEY: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together/)
    expect(() => loadEnv({ STRIPE_SECRET_KEY: 'pk_test_51AbcdEFGhij', STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef' })).toThrow(/STRIPE_SECRET_KEY: must be a Stripe secret key/)
    expect(() => loadEnv({ DEPOSIT_AMOUNT: '499.50' })).toThrow(/DEPOSIT_AMOUNT: must be whole dollars/)
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

  it('texts through Twilio only with its three settings, at its own API unless told otherwise', () => {
    expect(loadEnv({}).twilio).toBeUndefined()
    expect(loadEnv(twilio).twilio).toEqual({
      accountSid: twilio.TWILIO_ACCOUNT_SID,
      authToken: twilio.TWILIO_AUTH_TOKEN,
      from: '+16095550100',
      apiUrl: 'https://api.twilio.com',
    })
    expect(loadEnv({ ...twilio, TWILIO_API_URL: 'http://127.0.0.1:4010/' }).twilio?.apiUrl).toBe('http://127.0.0.1:4010')
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

  it('reads how long a stop waits for the requests received, 10 s when unset', () => {
    expect(loadEnv({}).stopLimitMs).toBe(10_000)
    expect(loadEnv({ STOP_LIMIT_MS: '1000' }).stopLimitMs).toBe(1000)
    expect(() => loadEnv({ STOP_LIMIT_MS: '0' })).toThrow(/STOP_LIMIT_MS/)
    expect(() => loadEnv({ STOP_LIMIT_MS: '120000' })).toThrow(/STOP_LIMIT_MS/)
  })

  it('reads the push services alerts may go to, the browsers\' own when unset or empty', () => {
    expect(loadEnv({ PUSH_SERVICE_HOSTS: ' Push.Example , *.push.example ' }).pushServiceHosts).toEqual(['push.example', '*.push.example'])
    expect(loadEnv({ PUSH_SERVICE_HOSTS: '' }).pushServiceHosts).toEqual(loadEnv({}).pushServiceHosts)
    expect(() => loadEnv({ PUSH_SERVICE_HOSTS: 'https://push.example/' })).toThrow(/PUSH_SERVICE_HOSTS: must be host names/)
    expect(() => loadEnv({ PUSH_SERVICE_HOSTS: '*' })).toThrow(/PUSH_SERVICE_HOSTS/)
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
    [{ TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}` }, 'TWILIO_ACCOUNT_SID: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are set together'],
    [{ ...twilio, TWILIO_ACCOUNT_SID: 'SK123' }, 'TWILIO_ACCOUNT_SID: must be a Twilio account SID'],
    [{ ...twilio, TWILIO_FROM: '(609) 555-0100' }, 'TWILIO_FROM: must be the Twilio number in E.164'],
    [{ ...twilio, TWILIO_API_URL: 'api.twilio.com' }, 'TWILIO_API_URL'],
  ])('fails fast on %j with a message naming the variable', (env, expected) => {
    expect(() => loadEnv(env)).toThrow(ConfigError)
    expect(() => loadEnv(env)).toThrow(expected)
  })
})
