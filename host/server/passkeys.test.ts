import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server'
import { Secret, TOTP } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signInMessages, type SignInPolicy } from '../../api/staff/sign-in.ts'
import { passkeyMessages } from '../../api/users/passkeys.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { parsePage } from '../../tests/support/html.ts'
import { SoftPasskey } from '../../tests/support/passkey.ts'
import { addStaff, followWithNotice, signIn, staffClient, staffPassword } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { passkeyNeedsScript } from '../staff/account.tsx'

/**
 * Passkeys as the second step (issue #29, PRODUCT.md "second step"), without a browser: a
 * software authenticator (tests/support/passkey.ts) answers as one would. Added on Your account
 * with a name, used at sign-in, counted by the same limits as codes, removed with the current
 * password after a confirmation. The browser's side is in tests/browser/passkeys.test.ts. On both
 * databases.
 */
const policy: SignInPolicy = { windowMs: 15 * 60_000, perUsername: 3, perAddress: 30, delayStepMs: 10, maxDelayMs: 50 }
// SITE_URL unset: the site is http://localhost:3000, the relying party "localhost".
const siteOrigin = 'http://localhost:3000'

describe.each(backends)('passkeys on %s', (backend) => {
  let server: TestServer
  let cookie: string
  let passkey: SoftPasskey
  let passkeyId: number

  beforeAll(async () => {
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' }, { site: true, signInPolicy: policy })
    await addStaff(server, 'tess', undefined, 'sales')
    cookie = (await signIn(server, 'tess')).cookie!
  })
  afterAll(() => server?.close())

  const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...headers },
      body: new URLSearchParams(fields),
    })
  const accountPage = async (query = '') =>
    parsePage(200, await (await fetch(`${server.url}${staffPaths.account}${query}`, { headers: { cookie } })).text())
  const options = () => staffClient(server, cookie).staff.account.passkeyOptions.mutate()
  /** A password sign-in's step cookie and the passkey options its page carries. */
  const stepPage = async () => {
    const step = await signIn(server, 'tess')
    expect(step.location).toBe(`${staffPaths.login}?step=code`)
    const page = parsePage(200, await (await fetch(`${server.url}${step.location}`, { headers: { cookie: step.cookie! } })).text())
    const form = page.document.querySelector('form[data-passkey-sign-in]')
    return { cookie: step.cookie!, page, options: JSON.parse(form?.getAttribute('data-passkey-sign-in') ?? 'null') as PublicKeyCredentialRequestOptionsJSON }
  }

  it('asks for the script to add one: the form is hidden without it, and a post without a passkey says why', async () => {
    const page = await accountPage()
    expect(page.document.querySelector('form[data-passkey-add]')?.hasAttribute('hidden')).toBe(true)
    expect(page.text('[data-passkey-unavailable]')).toBe('Adding a passkey needs JavaScript and a browser that supports passkeys.')
    const answer = await post(staffPaths.account, { action: 'add-passkey', name: 'Work laptop', response: '', current: staffPassword }, { cookie })
    expect(answer.status).toBe(400)
    expect(parsePage(400, await answer.text()).text('[role="alert"]')).toBe(passkeyNeedsScript)
  })

  it('refuses a passkey made on another site or with a spent challenge, and one without a name', async () => {
    passkey = new SoftPasskey(siteOrigin)
    const given = await options()
    const phished = await post(staffPaths.account, { action: 'add-passkey', name: 'Phished', response: JSON.stringify(passkey.register(given, 'https://jerseycartco.example')), current: staffPassword }, { cookie })
    expect(parsePage(400, await phished.text()).text('[role="alert"]')).toBe(passkeyMessages.refused)
    // The refused answer spent its challenge.
    const after = await post(staffPaths.account, { action: 'add-passkey', name: 'After', response: JSON.stringify(passkey.register(given)), current: staffPassword }, { cookie })
    expect(parsePage(400, await after.text()).text('[role="alert"]')).toBe(passkeyMessages.expired)
    const spent = await options()
    const first = passkey.register(spent)
    // A second request for options replaces the first challenge: its answer is refused.
    await options()
    const stale = await post(staffPaths.account, { action: 'add-passkey', name: 'Stale', response: JSON.stringify(first), current: staffPassword }, { cookie })
    expect(parsePage(400, await stale.text()).text('[role="alert"]')).toBe(passkeyMessages.refused)
    const nameless = await post(staffPaths.account, { action: 'add-passkey', name: '  ', response: JSON.stringify(passkey.register(await options())), current: staffPassword }, { cookie })
    expect(parsePage(400, await nameless.text()).text('#passkey-name-error')).toBe(passkeyMessages.name)
    expect(await server.db.sql`select 1 from staff_passkeys`).toHaveLength(0)
  })

  it('adds a named passkey for this site: the first second step shows the 10 recovery codes once', async () => {
    const made = await options()
    expect(made.rp).toEqual({ id: 'localhost', name: expect.any(String) })
    const added = await post(staffPaths.account, { action: 'add-passkey', name: ' Work  laptop ', response: JSON.stringify(passkey.register(made)), current: staffPassword }, { cookie })
    expect(added.status).toBe(200)
    expect(parsePage(200, await added.text()).all('.staff-recovery-codes li')).toHaveLength(10)
    const [row] = await server.db.sql<{ id: number; name: string; credentialId: string }[]>`select id, name, credential_id from staff_passkeys`
    expect(row).toMatchObject({ name: 'Work laptop', credentialId: passkey.id })
    passkeyId = row!.id
    const page = await accountPage()
    expect(page.all('.staff-passkeys tbody th')).toEqual(['Work laptop'])
    expect(page.text('#section-second-step')).toContain('Recovery codes left: 10 of 10')
    // The same authenticator is not added twice.
    const again = await options()
    expect(again.excludeCredentials?.map((c) => c.id)).toEqual([passkey.id])
    const twice = await post(staffPaths.account, { action: 'add-passkey', name: 'Again', response: JSON.stringify(passkey.register(again)), current: staffPassword }, { cookie })
    expect(parsePage(400, await twice.text()).text('[role="alert"]')).toBe(passkeyMessages.again)
    const log = await server.db.sql`select field, after from audit_log where entity = 'account' and field = 'passkey'`
    expect([...log]).toEqual([{ field: 'passkey', after: 'Work laptop' }])
  })

  it('asks for the passkey after the right password, and signs in with its signature once', async () => {
    const step = await stepPage()
    expect(step.page.text('h1')).toBe('Use your passkey')
    expect(step.page.text('label[for="code"]')).toBe('Recovery code')
    expect(step.options.rpId).toBe('localhost')
    expect(step.options.allowCredentials?.map((c) => c.id)).toEqual([passkey.id])
    const signature = JSON.stringify(passkey.authenticate(step.options))
    const right = await post(staffPaths.login, { passkey: signature }, { cookie: step.cookie })
    expect([right.status, right.headers.get('location')]).toEqual([303, staffPaths.console])
    const session = right.headers.getSetCookie().find((c) => c.startsWith('gc_staff='))!.split(';')[0]!
    expect((await fetch(`${server.url}${staffPaths.account}`, { headers: { cookie: session } })).status).toBe(200)
    expect((await accountPage()).text('.staff-passkeys tbody td[data-label="Last used"]')).not.toBe('not yet')

    // The signature, replayed on another sign-in, is of another challenge.
    const other = await stepPage()
    const replay = await post(staffPaths.login, { passkey: signature }, { cookie: other.cookie })
    expect([replay.status, parsePage(401, await replay.text()).text('[role="alert"]')]).toEqual([401, signInMessages.wrongPasskey])
    // And each page's challenge works once: a right signature after a wrong one needs the page again.
    const late = await post(staffPaths.login, { passkey: JSON.stringify(passkey.authenticate(other.options)) }, { cookie: other.cookie })
    expect(late.status).toBe(401)
  })

  it('refuses a copy of the passkey that signs with an old count, a stranger\'s key, and another site\'s signature', async () => {
    await server.db.sql`delete from staff_sign_in_failures`
    const cloned = await stepPage()
    // A copy made before the last sign-in: its count is behind the one kept.
    const counted = passkey.counter
    passkey.counter = 0
    expect((await post(staffPaths.login, { passkey: JSON.stringify(passkey.authenticate(cloned.options)) }, { cookie: cloned.cookie })).status).toBe(401)
    passkey.counter = counted + 5
    await server.db.sql`delete from staff_sign_in_failures`
    const stranger = await stepPage()
    expect((await post(staffPaths.login, { passkey: JSON.stringify(new SoftPasskey(siteOrigin).authenticate(stranger.options)) }, { cookie: stranger.cookie })).status).toBe(401)
    const phished = await stepPage()
    const elsewhere = passkey.authenticate(phished.options, 'https://jerseycartco.example')
    expect((await post(staffPaths.login, { passkey: JSON.stringify(elsewhere) }, { cookie: phished.cookie })).status).toBe(401)
    expect((await post(staffPaths.login, { passkey: '{"not":"a passkey"}' }, { cookie: phished.cookie })).status).toBe(400)
    await server.db.sql`delete from staff_sign_in_failures`
  })

  it('counts wrong passkeys and wrong codes together under the account\'s limit, as wrong passwords are', async () => {
    await server.db.sql`delete from staff_sign_in_failures`
    const step = await stepPage()
    const stranger = new SoftPasskey(siteOrigin)
    expect((await post(staffPaths.login, { passkey: JSON.stringify(stranger.authenticate(step.options)) }, { cookie: step.cookie })).status).toBe(401)
    expect((await post(staffPaths.login, { code: 'aaaaa-bbbbb' }, { cookie: step.cookie })).status).toBe(401)
    const third = await stepPage()
    expect((await post(staffPaths.login, { passkey: JSON.stringify(stranger.authenticate(third.options)) }, { cookie: third.cookie })).status).toBe(401)
    // Over the limit: even the right passkey waits, and so does the right password.
    const right = await post(staffPaths.login, { passkey: JSON.stringify(passkey.authenticate(third.options)) }, { cookie: third.cookie })
    expect(right.status).toBe(429)
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(14 * 60)
    expect((await signIn(server, 'tess')).status).toBe(429)
    await server.db.sql`delete from staff_sign_in_failures`
  })

  it('satisfies the owner\'s rule of a second step for everyone', async () => {
    const owner = { id: null, name: 'test' }
    await server.runtime.services.staff.settings.save(owner, { requireSecondStep: true })
    expect((await fetch(`${server.url}${staffPaths.console}`, { redirect: 'manual', headers: { cookie } })).status).toBe(200)
    await server.runtime.services.staff.settings.save(owner, { requireSecondStep: false })
  })

  it('keeps the recovery codes when an app is added beside a passkey, and while either is left', async () => {
    expect((await post(staffPaths.account, { action: 'start-app' }, { cookie })).status).toBe(303)
    const [{ totpSecret }] = await server.db.sql<[{ totpSecret: string }]>`select totp_secret from users where username = 'tess'`
    const code = new TOTP({ secret: Secret.fromBase32(totpSecret), digits: 6, period: 30, algorithm: 'SHA1' }).generate()
    const on = await post(staffPaths.account, { action: 'confirm-app', code, current: staffPassword }, { cookie })
    expect([on.status, on.headers.get('location')]).toEqual([303, `${staffPaths.account}#section-second-step`])
    const page = parsePage(200, (await followWithNotice(server, cookie, on)).html)
    expect(page.text('[role="status"]')).toBe('The authenticator app is on. Your recovery codes are the ones you already have.')
    expect(page.text('#section-second-step')).toContain('Recovery codes left: 10 of 10')
    // Both kinds at sign-in: the passkey's form and the app's code.
    const step = await stepPage()
    expect(step.page.text('h1')).toBe('Enter your code')
    expect(step.page.text('label[for="code"]')).toBe('Code from your authenticator app')
    expect(step.options.allowCredentials).toHaveLength(1)
    // The app goes; the passkey keeps the codes.
    expect((await post(staffPaths.account, { action: 'remove-app', current: staffPassword }, { cookie })).status).toBe(303)
    expect(await server.db.sql`select 1 from staff_recovery_codes`).toHaveLength(10)
  })

  it('removes a passkey after a confirmation that asks the current password; the last one takes the recovery codes', async () => {
    const confirm = await accountPage(`?remove-passkey=${passkeyId}`)
    expect(confirm.text('#remove-passkey-title')).toBe('Remove the passkey “Work laptop”?')
    const wrong = await post(staffPaths.account, { action: 'remove-passkey', id: String(passkeyId), current: 'not the password at all' }, { cookie })
    const refused = parsePage(400, await wrong.text())
    expect(refused.text('#passkey-current-error')).toBe('That is not your current password.')
    expect(refused.text('#remove-passkey-title')).toBe('Remove the passkey “Work laptop”?')
    const removed = await post(staffPaths.account, { action: 'remove-passkey', id: String(passkeyId), current: staffPassword }, { cookie })
    expect([removed.status, removed.headers.get('location')]).toEqual([303, `${staffPaths.account}#section-second-step`])
    expect(await server.db.sql`select 1 from staff_passkeys`).toHaveLength(0)
    expect(await server.db.sql`select 1 from staff_recovery_codes`).toHaveLength(0)
    expect((await signIn(server, 'tess')).location).toBe(staffPaths.console)
  })

  it('lets staff pages use passkeys: Permissions-Policy allows them to the site itself', async () => {
    for (const path of [staffPaths.login, staffPaths.account]) {
      const res = await fetch(`${server.url}${path}`, { headers: { cookie } })
      expect(res.headers.get('permissions-policy'), path).toMatch(/publickey-credentials-create=\(self\)/)
      expect(res.headers.get('permissions-policy'), path).toMatch(/publickey-credentials-get=\(self\)/)
      await res.body?.cancel()
    }
  })
})
