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

  it('keeps the counts in the database, where every server process shares them', async () => {
    const [{ n }] = await server.db.sql<[{ n: number }]>`
      select count(*)::int as n from staff_sign_in_failures where username = 'maria'
    `
    expect(n).toBe(policy.perUsername)
  })
})
