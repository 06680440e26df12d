import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { addStaff, signIn, staffPassword } from '../../tests/support/staff.ts'
import { signInMessages, type SignInPolicy } from './sign-in.ts'

/**
 * Failed sign-ins are slowed and limited per username and per address, counted in the database
 * (issue #15). The limits are small here so the test is quick; TRUST_PROXY lets each test speak
 * from its own address through X-Forwarded-For.
 */
const policy: SignInPolicy = { windowMs: 15 * 60_000, perUsername: 3, perAddress: 5, delayStepMs: 40, maxDelayMs: 120 }

describe.each(backends)('sign-in limits on %s', (backend) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(backend, { TRUST_PROXY: '1' }, { signInPolicy: policy })
    await addStaff(server, 'maria')
    await addStaff(server, 'devon')
  })
  afterAll(() => server?.close())

  const from = (address: string) => ({ 'x-forwarded-for': address })

  it('answers "no such user" and "wrong password" alike: same status, same words, no cookie', async () => {
    const unknown = await signIn(server, 'nobody-here', staffPassword, from('203.0.113.1'))
    const wrong = await signIn(server, 'devon', 'not the right passphrase', from('203.0.113.2'))
    for (const answer of [unknown, wrong]) {
      expect(answer.status).toBe(401)
      expect(JSON.parse(answer.body)).toEqual({ message: signInMessages.invalid, issues: [] })
      expect(answer.setCookie).toBeNull()
    }
  })

  it('locks a username after its limit of failures, even for the right password, from any address', async () => {
    for (let i = 0; i < policy.perUsername; i++) {
      expect((await signIn(server, 'maria', 'guess number one', from(`198.51.100.${i + 1}`))).status).toBe(401)
    }
    const locked = await signIn(server, 'maria', staffPassword, from('198.51.100.99'))
    expect(locked.status).toBe(429)
    expect(JSON.parse(locked.body).message).toBe(signInMessages.limited(15 * 60))
    expect(locked.setCookie).toBeNull()
    // Another account from the same addresses is not affected.
    expect((await signIn(server, 'devon', staffPassword, from('198.51.100.1'))).status).toBe(303)
  })

  it('locks an unknown username exactly like a real one, so the lock reveals nothing', async () => {
    for (let i = 0; i < policy.perUsername; i++) await signIn(server, 'ghost', 'guess number one', from(`192.0.2.${i + 1}`))
    const locked = await signIn(server, 'ghost', staffPassword, from('192.0.2.99'))
    expect(locked.status).toBe(429)
    expect(JSON.parse(locked.body).message).toBe(signInMessages.limited(15 * 60))
  })

  it('locks an address that tries many usernames, with Retry-After, while other addresses go on', async () => {
    const address = from('203.0.113.50')
    for (let i = 0; i < policy.perAddress; i++) {
      expect((await signIn(server, `sprayed-${i}`, 'guess number one', address)).status).toBe(401)
    }
    const res = await fetch(`${server.url}/staff/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...address },
      body: new URLSearchParams({ username: 'devon', password: staffPassword }),
    })
    expect(res.status).toBe(429)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(14 * 60)
    expect((await signIn(server, 'devon', staffPassword, from('203.0.113.51'))).status).toBe(303)
  })

  it('counts attempts sent all at once against each other', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => signIn(server, 'devon', `parallel guess ${i}`, from(`100.64.0.${i + 1}`))),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(policy.perUsername)
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(8 - policy.perUsername)
    const [{ n }] = await server.db.sql<[{ n: number }]>`select count(*)::int as n from staff_sign_in_failures where username = 'devon'`
    // Attempts that saw too many others in flight were refused unheard, and do not count.
    expect(n).toBe(statuses.filter((s) => s === 401).length)
  })

  it('slows each failure more than the last, up to the cap', async () => {
    const address = from('203.0.113.77')
    const first = await signIn(server, 'slow-1', 'guess number one', address)
    const fourth = [await signIn(server, 'slow-2', 'x'.repeat(12), address), await signIn(server, 'slow-3', 'x'.repeat(12), address)]
    const last = await signIn(server, 'slow-4', 'x'.repeat(12), address)
    expect(first.ms).toBeGreaterThanOrEqual(policy.delayStepMs)
    expect(last.ms).toBeGreaterThanOrEqual(policy.maxDelayMs)
    expect(fourth.every((a) => a.status === 401)).toBe(true)
  })

  it('refuses with 400, before the database and the hash, a username no account can have or a password over 256 characters', async () => {
    const address = from('203.0.113.90')
    const before = server.logs.length
    for (const [username, password] of [
      ['maria\u0000', staffPassword],
      ['ma\u001bria', staffPassword],
      ['maria\r\nx', staffPassword],
      ['m'.repeat(41), staffPassword],
      ['maria', 'p'.repeat(257)],
    ]) {
      const answer = await signIn(server, username, password, address)
      expect(answer.status, JSON.stringify(username)).toBe(400)
      expect(JSON.parse(answer.body)).toEqual({ message: signInMessages.invalid, issues: [] })
    }
    const [{ n }] = await server.db.sql<[{ n: number }]>`select count(*)::int as n from staff_sign_in_failures where address = '203.0.113.90'`
    expect(n).toBe(0)
    expect(server.logs.slice(before).filter((line) => line.level === 'error')).toEqual([])
  })

  /** A sign-in from a browser: its device cookie (if any) sent, the one it is given read back. */
  async function browserSignIn(username: string, password: string, address: string, device?: string) {
    const started = performance.now()
    const res = await fetch(`${server.url}/staff/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...from(address), ...(device ? { cookie: `gc_staff_device=${device}` } : {}) },
      body: new URLSearchParams({ username, password }),
    })
    await res.body?.cancel()
    const given = res.headers.getSetCookie().find((c) => c.startsWith('gc_staff_device='))
    return { status: res.status, ms: performance.now() - started, device: given?.split(';')[0]?.slice('gc_staff_device='.length), setCookie: given }
  }

  it('gives a browser that signed in a signed device cookie, which keeps it signing in while strangers at its address are locked out', async () => {
    const showroom = '198.18.0.10'
    await addStaff(server, 'tomas')
    await addStaff(server, 'ines')
    const first = await browserSignIn('tomas', staffPassword, showroom)
    expect(first.status).toBe(303)
    expect(first.setCookie).toMatch(/HttpOnly/)
    expect(first.setCookie).toMatch(/SameSite=Strict/)
    expect(first.setCookie).toMatch(/Max-Age=15552000/)
    const tomasBrowser = first.device!
    // A colleague signs in on the same computer: the cookie keeps both accounts.
    const shared = await browserSignIn('ines', staffPassword, showroom, tomasBrowser)
    expect(shared.status).toBe(303)
    const sharedBrowser = shared.device!
    expect(sharedBrowser.split('~')).toHaveLength(2)

    // Someone at the same address (the showroom's one router) sprays usernames: the address is locked for strangers.
    for (let i = 0; i < policy.perAddress; i++) await browserSignIn(`guess-${i}`, 'guess number one', showroom)
    expect((await browserSignIn('tomas', staffPassword, showroom)).status).toBe(429)
    expect((await browserSignIn('ines', staffPassword, showroom, tomasBrowser)).status).toBe(429)

    // The browsers that signed in before go on: a typo is only a typo, and the right password signs in.
    expect((await browserSignIn('tomas', 'tomas mistyped this', showroom, sharedBrowser)).status).toBe(401)
    expect((await browserSignIn('tomas', staffPassword, showroom, sharedBrowser)).status).toBe(303)
    expect((await browserSignIn('ines', staffPassword, showroom, sharedBrowser)).status).toBe(303)
  })

  it('keeps the account\'s own browser signing in while strangers have locked its username, and a cookie only counts for its own account, unforged', async () => {
    await addStaff(server, 'uma')
    const mine = (await browserSignIn('uma', staffPassword, '198.18.1.1')).device!
    for (let i = 0; i < policy.perUsername; i++) await browserSignIn('uma', 'guess number one', `198.18.1.${i + 20}`)
    expect((await browserSignIn('uma', staffPassword, '198.18.1.99')).status).toBe(429)
    expect((await browserSignIn('uma', staffPassword, '198.18.1.99', mine)).status).toBe(303)

    // Another account's cookie, or one whose signature was changed, makes a stranger.
    const other = (await browserSignIn('devon', staffPassword, '198.18.1.2')).device!
    expect((await browserSignIn('uma', staffPassword, '198.18.1.99', other)).status).toBe(429)
    const [name, nonce, signature] = mine.split('~')[0]!.split('.') as [string, string, string]
    const forged = `${name}.${nonce}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`
    expect((await browserSignIn('uma', staffPassword, '198.18.1.99', forged)).status).toBe(429)
  })

  it('locks a known browser after its own limit of failures, and nobody else', async () => {
    await addStaff(server, 'vera')
    await addStaff(server, 'walt')
    const mine = (await browserSignIn('vera', staffPassword, '198.18.2.1')).device!
    for (let i = 0; i < policy.perUsername; i++) expect((await browserSignIn('vera', 'guess number one', '198.18.2.1', mine)).status).toBe(401)
    expect((await browserSignIn('vera', staffPassword, '198.18.2.1', mine)).status).toBe(429)
    // Not the account for other browsers, nor the address for others.
    expect((await browserSignIn('vera', staffPassword, '198.18.2.2')).status).toBe(303)
    expect((await browserSignIn('walt', staffPassword, '198.18.2.1')).status).toBe(303)
  })

  it('keeps the counts in the database, where every server process shares them', async () => {
    const [{ n }] = await server.db.sql<[{ n: number }]>`
      select count(*)::int as n from staff_sign_in_failures where username = 'maria'
    `
    expect(n).toBe(policy.perUsername)
  })
})

/**
 * The slowing, measured with delays long enough to tell from a password hash: before device
 * cookies, failures at a showroom's address made every colleague's typo wait (5.2 s).
 *
 * The two databases' copies run side by side (each has its own server): the test is mostly
 * waiting out the delays, about 6.5 s a copy, and the file's worker has nothing else to do then.
 */
const slow: SignInPolicy = { windowMs: 15 * 60_000, perUsername: 10, perAddress: 10, delayStepMs: 400, maxDelayMs: 2000 }

describe.concurrent.each(backends)('a known browser is not slowed by strangers at its address, on %s', (backend) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(backend, { TRUST_PROXY: '1' }, { signInPolicy: slow })
    await addStaff(server, 'xena')
  })
  afterAll(() => server?.close())

  const attempt = async (username: string, password: string, device?: string) => {
    const started = performance.now()
    const res = await fetch(`${server.url}/staff/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, 'x-forwarded-for': '198.18.3.1', ...(device ? { cookie: `gc_staff_device=${device}` } : {}) },
      body: new URLSearchParams({ username, password }),
    })
    await res.body?.cancel()
    const device_ = res.headers.getSetCookie().find((c) => c.startsWith('gc_staff_device='))?.split(';')[0]?.slice('gc_staff_device='.length)
    return { status: res.status, ms: performance.now() - started, device: device_ }
  }

  it('answers a known browser\'s typo after its own first delay, while a stranger\'s waits for the address\'s failures', async () => {
    const mine = (await attempt('xena', staffPassword)).device!
    for (let i = 0; i < 4; i++) await attempt(`someone-${i}`, 'guess number one')
    // The same typo from a stranger and from the known browser, sent together: the known one is
    // answered first. Lower bounds only: a busy machine makes answers later, never sooner.
    const answered: string[] = []
    const [stranger, known] = await Promise.all([
      attempt('xena', 'xena mistyped this').finally(() => answered.push('stranger')),
      attempt('xena', 'xena mistyped this', mine).finally(() => answered.push('known')),
    ])
    expect([stranger.status, known.status]).toEqual([401, 401])
    expect(answered).toEqual(['known', 'stranger'])
    expect(stranger.ms).toBeGreaterThanOrEqual(slow.maxDelayMs)
    expect(known.ms).toBeGreaterThanOrEqual(slow.delayStepMs)
  }, 30_000)
})
