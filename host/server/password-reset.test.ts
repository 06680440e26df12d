import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import PostalMime from 'postal-mime'
import { afterAll, beforeAll, describe, expect, it, type MockInstance, onTestFinished, vi } from 'vitest'
import type { AccountLinks } from '../../api/users/account-links.ts'
import { resetSentMessage } from '../staff/layout.tsx'
import { staffPaths } from '../../domain/staff-paths.ts'
import { parsePage } from '../../tests/support/html.ts'
import { addStaff, signIn, followWithNotice } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * Password reset and invitations by email link (issue #29, PRODUCT.md "password reset" and
 * "accounts in the browser"), with MAIL_DIR as the mail server: one answer for every name, a
 * single-use link that expires, stored hashed, that ends every session; the limits; an owner's
 * invitation that sets a new account's password.
 */
describe.each(backends)('password reset by email on %s', (backend) => {
  let server: TestServer
  let mailDir: string
  let owner: string
  /** Every "Forgot your password?" the server took: each one's link goes out after its answer. */
  let requested: MockInstance<AccountLinks['requestReset']>

  beforeAll(async () => {
    mailDir = mkdtempSync(join(tmpdir(), 'gc-reset-mail-'))
    server = await startTestServer(backend, { LOG_LEVEL: 'silent', MAIL_DIR: join(mailDir, 'out'), LEADS_TO: 'leads@dealer.example' }, { site: true })
    await addStaff(server, 'olga', undefined, 'owner')
    await server.runtime.services.staff.accounts.add('sam', 'the old password here', { role: 'sales', email: 'sam@dealer.example' })
    await server.runtime.services.staff.accounts.add('noemail', 'the old password here', { role: 'sales' })
    owner = (await signIn(server, 'olga')).cookie!
    requested = vi.spyOn(server.runtime.services.staff.links, 'requestReset')
  })
  afterAll(async () => {
    await server?.close()
    rmSync(mailDir, { recursive: true, force: true })
  })

  const messages = async () => {
    const dir = join(mailDir, 'out')
    let files: string[]
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.eml')).sort()
    } catch {
      return []
    }
    return Promise.all(files.map((f) => PostalMime.parse(readFileSync(join(dir, f)))))
  }
  /** The mail folder once every reset asked for so far is done with (its link sent, or none due). */
  const mailAfterResets = async () => {
    await Promise.all(requested.mock.results.flatMap((result) => (result.type === 'return' ? [result.value.done] : [])))
    return messages()
  }
  const linkIn = (text: string | undefined) => new URL(/https?:\/\/\S+\/staff\/password-reset\/\S+/.exec(text ?? '')![0]).pathname

  const post = (path: string, fields: Record<string, string>, cookie?: string) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields),
    })

  it('links the sign-in page to it, and answers every name the same way', async () => {
    const signInPage = parsePage(200, await (await fetch(`${server.url}${staffPaths.login}`)).text())
    expect(signInPage.document.querySelector(`a[href="${staffPaths.passwordReset}"]`)?.textContent).toBe('Forgot your password?')
    expect(signInPage.html).not.toContain('npm run staff')

    const answers = []
    for (const name of ['sam', 'nobody-at-all', 'noemail', 'SAM@dealer.example']) {
      const res = await post(staffPaths.passwordReset, { name })
      answers.push([res.status, res.headers.get('location')])
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1)
    expect(answers[0]).toEqual([303, `${staffPaths.passwordReset}?sent=1`])
    const page = parsePage(200, await (await fetch(`${server.url}${staffPaths.passwordReset}?sent=1`)).text())
    expect(page.text('[role="status"]')).toBe(resetSentMessage)

    // Sam (by name and by address) gets two links; nobody else gets anything.
    const mail = await mailAfterResets()
    expect(mail).toHaveLength(2)
    expect(mail.map((m) => m.to?.[0]?.address)).toEqual(['sam@dealer.example', 'sam@dealer.example'])
    expect(mail[0]!.subject).toMatch(/^Reset your .+ staff password$/)
  })

  it('answers a known and an unknown name before looking either up, so the time tells nothing', async () => {
    // Not over the limit per address: the test server sees every request from one address, so
    // clear its count first (the limit is tested below).
    await server.db.sql`delete from staff_reset_requests`
    const before = (await mailAfterResets()).length
    // The lookup's first read held: a transaction keeps the requests' table locked (on the
    // embedded database, its one connection) until both answers are in.
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    // Should an answer wait for the lookup, it never comes: the test times out, and lets go then.
    onTestFinished(() => release())
    let locked!: () => void
    const locking = new Promise<void>((resolve) => (locked = resolve))
    const holding = server.db.sql.begin(async (tx) => {
      await tx`lock table staff_reset_requests in access exclusive mode`
      locked()
      await released
    })
    await locking
    const asked = requested.mock.results.length
    const answers = []
    for (const name of ['noemail', 'ghost-1']) {
      const res = await post(staffPaths.passwordReset, { name })
      answers.push([res.status, res.headers.get('location')])
    }
    expect(requested.mock.results.length - asked).toBe(2)
    expect(answers).toEqual([
      [303, `${staffPaths.passwordReset}?sent=1`],
      [303, `${staffPaths.passwordReset}?sent=1`],
    ])
    release()
    await holding
    // Looked up after the answers: each request counted, and no link for either (one account
    // has no email address, the other name is nobody's).
    expect(await mailAfterResets()).toHaveLength(before)
    const [{ n }] = await server.db.sql<[{ n: number }]>`select count(*)::int as n from staff_reset_requests`
    expect(n).toBe(2)
  })

  it('sets the password once, ends every session, and refuses the link after, or when expired or wrong', async () => {
    const mail = await messages()
    const first = linkIn(mail[0]!.text)
    const second = linkIn(mail[1]!.text)
    // Only the token's hash is kept.
    const token = first.split('/').pop()!
    const stored = await server.db.sql<{ tokenHash: Buffer }[]>`select token_hash from staff_account_links`
    expect(stored.every((row) => !row.tokenHash.toString('base64url').includes(token))).toBe(true)

    const sam = (await signIn(server, 'sam', 'the old password here')).cookie!
    const form = parsePage(200, await (await fetch(`${server.url}${first}`)).text())
    expect(form.text('h1')).toBe('Choose a new password')
    const short = await post(first, { password: 'short' })
    expect(short.status).toBe(400)
    expect(parsePage(400, await short.text()).text('#password-error')).toBe('A password needs at least 12 characters')

    const set = await post(first, { password: 'a new password for sam' })
    expect([set.status, set.headers.get('location')]).toEqual([303, `${staffPaths.login}?password=set`])
    expect((await fetch(`${server.url}${staffPaths.console}`, { redirect: 'manual', headers: { cookie: sam } })).headers.get('location')).toBe(staffPaths.login)
    expect((await signIn(server, 'sam', 'the old password here')).status).toBe(401)
    expect((await signIn(server, 'sam', 'a new password for sam')).status).toBe(303)

    // Used: refused, and so is the account's other link, spent with it.
    for (const link of [first, second]) {
      expect((await fetch(`${server.url}${link}`)).status).toBe(410)
      const again = await post(link, { password: 'yet another password' })
      expect(again.status).toBe(410)
      expect(parsePage(410, await again.text()).text('[role="alert"]')).toBe('This link has expired or has already been used. Ask for a new one.')
    }
    expect((await signIn(server, 'sam', 'yet another password')).status).toBe(401)
    expect((await fetch(`${server.url}${staffPaths.passwordReset}/${'x'.repeat(43)}`)).status).toBe(410)
    expect((await fetch(`${server.url}${staffPaths.passwordReset}/not-a-token`)).status).toBe(410)

    // Expired: a link older than 30 minutes.
    await server.db.sql`delete from staff_reset_requests`
    await post(staffPaths.passwordReset, { name: 'sam' })
    const third = linkIn((await mailAfterResets()).at(-1)!.text)
    await server.db.sql`update staff_account_links set expires_at = now() - interval '1 second' where used_at is null`
    expect((await post(third, { password: 'a password too late' })).status).toBe(410)
  })

  it('sends at most 5 links an address and 3 an account in 15 minutes, answering the same', async () => {
    await server.db.sql`delete from staff_reset_requests`
    await server.db.sql`delete from staff_account_links`
    const before = (await messages()).length
    for (let i = 0; i < 6; i++) expect((await post(staffPaths.passwordReset, { name: 'sam' })).status).toBe(303)
    expect((await mailAfterResets()).length - before).toBe(3)
    const [{ n }] = await server.db.sql<[{ n: number }]>`select count(*)::int as n from staff_reset_requests`
    expect(n).toBe(6)
  })

  it('lets an owner invite someone, whose link sets their password, and send a reset', async () => {
    const before = (await messages()).length
    const bad = await post(staffPaths.accounts, { action: 'invite', username: 'Nina!', email: 'nina@dealer.example', role: 'manager' }, owner)
    expect(bad.status).toBe(400)
    expect(parsePage(400, await bad.text()).text('#invite-username-error')).toMatch(/^A username is 2 to 40 characters/)
    const invited = await post(staffPaths.accounts, { action: 'invite', username: 'nina', email: 'nina@dealer.example', role: 'manager' }, owner)
    expect(invited.headers.get('location')).toBe(staffPaths.accounts)
    const notice = await followWithNotice(server, owner, invited)
    expect(parsePage(200, notice.html).text('.staff-alert--done')).toBe('nina is invited: the email’s link works for 72 hours.')
    // Invitations and an owner's resets are sent before the answer.
    const mail = (await messages()).at(-1)!
    expect(await messages()).toHaveLength(before + 1)
    expect(mail.to?.[0]?.address).toBe('nina@dealer.example')
    const link = linkIn(mail.text)
    expect(parsePage(200, await (await fetch(`${server.url}${link}`)).text()).text('h1')).toBe('Choose your password')
    expect((await post(link, { password: 'nina picks her own' })).status).toBe(303)
    const nina = await signIn(server, 'nina', 'nina picks her own')
    expect(nina.status).toBe(303)

    await server.db.sql`delete from staff_account_links`
    const reset = await post(staffPaths.accounts, { action: 'reset', username: 'nina' }, owner)
    expect(parsePage(200, (await followWithNotice(server, owner, reset)).html).text('.staff-alert--done')).toBe('A password reset link is on its way to nina.')
    expect(await messages()).toHaveLength(before + 2)
    expect((await messages()).at(-1)!.subject).toMatch(/^Reset your/)
    const noEmail = await post(staffPaths.accounts, { action: 'reset', username: 'noemail' }, owner)
    expect(parsePage(400, await noEmail.text()).text('.staff-alert--error')).toBe('"noemail" has no email address to send a link to.')
    const log = await server.db.sql<{ field: string; after: unknown }[]>`
      select field, after from audit_log where entity = 'account' and field like 'password%' order by id
    `
    expect(log.map((row) => row.field)).toEqual(['password', 'password', 'password reset sent'])
  })

  it('refuses a reset asked for from another site', async () => {
    const res = await fetch(`${server.url}${staffPaths.passwordReset}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.test' },
      body: new URLSearchParams({ name: 'sam' }),
    })
    expect(res.status).toBe(403)
  })
})
