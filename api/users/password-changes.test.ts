import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SoftPasskey } from '../../tests/support/passkey.ts'
import { startSmtpSink, type SmtpSink } from '../../tests/support/smtp-sink.ts'
import { staffPassword } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { createContextInner } from '../trpc/context.ts'
import { createCaller } from '../trpc/router.ts'
import { wrongCurrentPassword } from './user-store.ts'

/**
 * Changes that need the password (issue #47; PRODUCT.md "changes that need the password"): a
 * signed-in browser someone else picked up cannot move the account's email, add an app or a
 * passkey of theirs without the password; the old address hears of a new one; a password or
 * address change cancels the links sent before it. Through the procedures, with a real mail
 * server stand-in behind the outbox. On both databases.
 */
describe.each(backends)('changes that need the password on %s', (backend) => {
  let server: TestServer
  let smtp: SmtpSink
  let userId: number
  let caller: ReturnType<typeof createCaller>

  beforeAll(async () => {
    smtp = await startSmtpSink()
    server = await startTestServer(backend, { SMTP_URL: smtp.url, LEADS_TO: 'leads@dealer.example', OUTBOX_POLL_MS: '100', LOG_LEVEL: 'silent' })
    const { accounts, sessions } = server.runtime.services.staff
    await accounts.add('owen', staffPassword, { role: 'owner', email: 'owen@dealer.example' })
    const ella = await accounts.add('ella', staffPassword, { role: 'sales', email: 'ella@dealer.example' })
    userId = ella.id
    const { token } = await sessions.start(ella, {})
    caller = createCaller(createContextInner(server.runtime.services, { staffToken: token, sameOrigin: true }))
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
  })

  const wrong = { code: 'BAD_REQUEST', message: wrongCurrentPassword, cause: { issues: [{ path: 'current', message: wrongCurrentPassword }] } }
  const emailOf = async () => (await caller.staff.account.get()).email
  const mailTo = (address: string) => smtp.messages.filter((m) => m.to?.some((to) => to.address === address))
  /** A reset link for the account, as its email carries it: the token. */
  const resetToken = async () => {
    const before = smtp.messages.length
    const { email } = await server.runtime.services.staff.links.sendReset('ella', { id: userId, name: 'ella' })
    await smtp.waitFor(before + 1)
    const sent = smtp.messages.slice(before).find((m) => m.to?.some((to) => to.address === email))
    return /\/staff\/password-reset\/([\w-]{43})/.exec(sent?.text ?? '')![1]!
  }

  it('changes the email address only with the current password, and tells the old address', async () => {
    await expect(caller.staff.account.setEmail({ email: 'mallory@evil.example', current: 'not her password at all' })).rejects.toMatchObject(wrong)
    await expect(caller.staff.account.setEmail({ email: 'mallory@evil.example' } as never)).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    expect(await emailOf()).toBe('ella@dealer.example')

    expect(await caller.staff.account.setEmail({ email: 'Ella.M@Dealer.example', current: staffPassword })).toMatchObject({ email: 'ella.m@dealer.example' })
    expect(await emailOf()).toBe('ella.m@dealer.example')
    await expect.poll(() => mailTo('ella@dealer.example').length, { timeout: 10_000 }).toBe(1)
    const [notice] = mailTo('ella@dealer.example')
    expect(notice!.subject).toBe('The email address of your Jersey Cart Co. staff account was changed')
    expect(notice!.text).toContain('"ella" was changed on ')
    expect(notice!.text).toContain('from ella@dealer.example to ella.m@dealer.example.')
    expect(notice!.text).toContain('/staff/login')
    // The new address is not where the warning goes.
    expect(mailTo('ella.m@dealer.example')).toEqual([])
    const sent = async () =>
      (await server.db.sql<{ sent: boolean }[]>`select sent_at is not null as sent from outbox_messages where kind = 'account-notice' and user_id = ${userId}`).map((row) => row.sent)
    await expect.poll(sent, { timeout: 10_000 }).toEqual([true])
  })

  it('refuses an address another account has with a sentence that names no account', async () => {
    const taken = await caller.staff.account.setEmail({ email: 'OWEN@dealer.example', current: staffPassword }).catch((error: unknown) => error)
    expect(taken).toMatchObject({ code: 'CONFLICT', message: 'Another account already has the address owen@dealer.example.' })
    expect(await emailOf()).toBe('ella.m@dealer.example')
  })

  it('adds an authenticator app only with the current password', async () => {
    await caller.staff.account.startAuthenticator()
    const { pending } = (await caller.staff.account.get()).secondStep
    const code = new TOTP({ secret: Secret.fromBase32(pending!.secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate()
    await expect(caller.staff.account.confirmAuthenticator({ code, current: 'a guess at her password' })).rejects.toMatchObject(wrong)
    expect((await caller.staff.account.get()).secondStep.authenticator).toBe(false)
    expect((await caller.staff.account.confirmAuthenticator({ code, current: staffPassword })).recoveryCodes).toHaveLength(10)
    expect((await caller.staff.account.get()).secondStep.authenticator).toBe(true)
    // Removing it (turning the second step off) asked for the password already.
    await expect(caller.staff.account.removeAuthenticator({ current: 'a guess at her password' })).rejects.toMatchObject(wrong)
    await caller.staff.account.removeAuthenticator({ current: staffPassword })
  })

  it('adds a passkey only with the current password', async () => {
    // SITE_URL unset: the site is http://localhost:3000, the relying party "localhost".
    const passkey = new SoftPasskey('http://localhost:3000')
    const response = JSON.stringify(passkey.register(await caller.staff.account.passkeyOptions()))
    await expect(caller.staff.account.addPasskey({ name: 'Not mine', response, current: 'a guess at her password' })).rejects.toMatchObject(wrong)
    expect((await caller.staff.account.get()).secondStep.passkeys).toEqual([])
    // The refusal spent nothing: the same passkey, with the password, is added.
    expect(await caller.staff.account.addPasskey({ name: 'Work laptop', response, current: staffPassword })).toMatchObject({ name: 'Work laptop' })
    const [added] = (await caller.staff.account.get()).secondStep.passkeys
    expect(added).toMatchObject({ name: 'Work laptop' })
    await expect(caller.staff.account.removePasskey({ id: added!.id, current: 'a guess at her password' })).rejects.toMatchObject(wrong)
    await caller.staff.account.removePasskey({ id: added!.id, current: staffPassword })
  })

  it('cancels every unused reset link when the password changes', async () => {
    const { links } = server.runtime.services.staff
    const tokens = [await resetToken(), await resetToken()]
    expect(await links.check(tokens[0]!)).toMatchObject({ purpose: 'reset', username: 'ella' })
    await caller.staff.account.setPassword({ current: staffPassword, password: 'a brand new password' })
    for (const token of tokens) {
      expect(await links.check(token)).toBeUndefined()
      expect(await links.use(token, 'the thief’s new password')).toBeUndefined()
    }
    expect(await server.runtime.services.staff.accounts.verify('ella', 'a brand new password')).toMatchObject({ username: 'ella' })
    await caller.staff.account.setPassword({ current: 'a brand new password', password: staffPassword })
  })

  it('cancels every unused reset link when the address changes', async () => {
    const { links } = server.runtime.services.staff
    const token = await resetToken()
    await caller.staff.account.setEmail({ email: 'ella@dealer.example', current: staffPassword })
    expect(await links.check(token)).toBeUndefined()
    expect(await links.use(token, 'the thief’s new password')).toBeUndefined()
  })
})
