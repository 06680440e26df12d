import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lastOwnerMessage } from '../../api/users/user-store.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { parsePage } from '../../tests/support/html.ts'
import { addStaff, signIn, staffClient, staffPassword, followWithNotice } from '../../tests/support/staff.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * `/staff/account` and `/staff/accounts` (issue #29) as staff use them without a script: each
 * person's email, password and sessions; the owner's roles, disabling and removing, with the
 * last owner kept. On both databases, since the last-owner rule locks rows.
 */
describe.each(backends)('your account and the accounts, on %s', (backend) => {
  let server: TestServer
  let owner: string
  let sales: string

  beforeAll(async () => {
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' }, { site: true })
    await addStaff(server, 'olga', undefined, 'owner')
    await addStaff(server, 'sam', undefined, 'sales')
    owner = (await signIn(server, 'olga')).cookie!
    sales = (await signIn(server, 'sam', staffPassword, { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile Safari/537.36' })).cookie!
  })
  afterAll(() => server?.close())

  const post = (cookie: string, path: string, fields: Record<string, string>) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, cookie },
      body: new URLSearchParams(fields),
    })
  const open = async (cookie: string, path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { cookie } })
    return parsePage(res.status, await res.text())
  }

  it('lets everyone open their own account from the navigation, and only owners the accounts', async () => {
    const mine = await open(sales, staffPaths.account)
    expect(mine.status).toBe(200)
    expect(mine.document.querySelector(`nav a[href="${staffPaths.account}"]`)?.textContent).toBe('Your account')
    expect(mine.document.querySelector(`nav a[href="${staffPaths.accounts}"]`)).toBeNull()
    expect(mine.text('.staff-sessions tbody tr')).toContain('Chrome on Android')
    expect(mine.text('.staff-sessions tbody tr')).toContain('this browser')
    expect((await open(sales, staffPaths.accounts)).status).toBe(403)
    const all = await open(owner, staffPaths.accounts)
    expect(all.status).toBe(200)
    expect(all.all('.staff-accounts__table tbody th')).toEqual(['olga you', 'sam'])
  })

  it('saves an email address, refusing a malformed one beside its field and one another account has', async () => {
    const bad = await post(sales, staffPaths.account, { action: 'email', email: 'not an address', current: staffPassword })
    expect(bad.status).toBe(400)
    const page = parsePage(bad.status, await bad.text())
    expect(page.text('#email-error')).toBe('Enter a valid email address, like name@example.com')
    expect(page.document.querySelector<HTMLInputElement>('#email')?.getAttribute('value')).toBe('not an address')

    expect((await post(owner, staffPaths.account, { action: 'email', email: 'olga@dealer.example', current: staffPassword })).status).toBe(303)
    const taken = await post(sales, staffPaths.account, { action: 'email', email: 'OLGA@dealer.example', current: staffPassword })
    expect(taken.status).toBe(409)
    expect(parsePage(409, await taken.text()).text('.staff-alert--error')).toBe('Another account already has the address olga@dealer.example.')

    const saved = await post(sales, staffPaths.account, { action: 'email', email: 'Sam@Dealer.example', current: staffPassword })
    expect(saved.headers.get('location')).toBe(`${staffPaths.account}#section-email`)
    expect(parsePage(200, (await followWithNotice(server, sales, saved)).html).text('[role="status"]')).toBe('Your email address is saved.')
    expect((await server.runtime.services.staff.accounts.get((await server.db.sql<{ id: number }[]>`select id from users where username = 'sam'`)[0]!.id))?.email).toBe('sam@dealer.example')
  })

  it('shows each account\'s second step, and every value with its label for a phone\'s stacked rows', async () => {
    const [{ id }] = await server.db.sql<[{ id: number }]>`select id from users where username = 'olga'`
    await server.runtime.services.staff.secondStep.startAuthenticator(id)
    await server.db.sql`update users set totp_enabled_at = now() where id = ${id}`
    const page = await open(owner, staffPaths.accounts)
    expect(page.all('.staff-accounts__table thead th')).toContain('Second step')
    const cell = (username: string, label: string) => page.text(`tr[data-username="${username}"] td[data-label="${label}"]`)
    expect(cell('olga', 'Second step')).toBe('Authenticator app')
    expect(cell('sam', 'Second step')).toBe('None')
    for (const label of ['Role', 'Email', 'Last sign-in', 'Second step']) expect(cell('sam', label), label).toBeDefined()
    await server.db.sql`update users set totp_secret = null, totp_enabled_at = null where id = ${id}`
  })

  it('limits wrong current passwords on Your account: after 5 in 15 minutes, even the right one waits', async () => {
    await addStaff(server, 'tara', undefined, 'sales')
    const tara = (await signIn(server, 'tara')).cookie!
    for (let i = 0; i < 5; i++) {
      const wrong = await post(tara, staffPaths.account, { action: 'password', current: `wrong password ${i}!`, password: 'a brand new passphrase' })
      expect(wrong.status).toBe(400)
    }
    const limited = await post(tara, staffPaths.account, { action: 'password', current: staffPassword, password: 'a brand new passphrase' })
    expect(limited.status).toBe(429)
    expect(parsePage(429, await limited.text()).text('.staff-alert--error')).toBe('Too many wrong passwords. Try again in 15 minutes.')
    // The same count guards every form that asks for it.
    expect((await post(tara, staffPaths.account, { action: 'codes', current: staffPassword })).status).toBe(429)
    expect((await signIn(server, 'tara', 'a brand new passphrase')).status).toBe(401)
    // Another account is not affected.
    const [{ n }] = await server.db.sql<[{ n: number }]>`select count(*)::int as n from staff_password_checks c join users u on u.id = c.user_id where u.username <> 'tara'`
    expect(n).toBe(0)
    // Once the window has moved on, the right password is taken again (here: it gets past the password to what is missing).
    await server.db.sql`delete from staff_password_checks`
    const after = await staffClient(server, tara).staff.account.newRecoveryCodes.mutate({ current: staffPassword }).catch((e: unknown) => e)
    expect((after as Error).message).toBe('Add a passkey or an authenticator app first.')
    await server.runtime.services.staff.accounts.remove('tara')
  }, 90_000)

  it('changes the password only with the current one, and signs every other browser out', async () => {
    const other = (await signIn(server, 'sam')).cookie!
    const wrong = await post(sales, staffPaths.account, { action: 'password', current: 'not my password at all', password: 'a brand new passphrase' })
    expect(wrong.status).toBe(400)
    const refused = parsePage(400, await wrong.text())
    expect(refused.text('#current-error')).toBe('That is not your current password.')
    // Nothing typed into a password field comes back in the page.
    expect(refused.document.querySelector('#current')?.getAttribute('value')).toBeNull()
    const short = await post(sales, staffPaths.account, { action: 'password', current: staffPassword, password: 'short' })
    expect(parsePage(400, await short.text()).text('#password-error')).toBe('A password needs at least 12 characters')

    const changed = await post(sales, staffPaths.account, { action: 'password', current: staffPassword, password: 'a brand new passphrase' })
    expect(changed.status).toBe(303)
    expect((await open(sales, staffPaths.account)).status).toBe(200)
    expect((await fetch(`${server.url}${staffPaths.account}`, { redirect: 'manual', headers: { cookie: other } })).headers.get('location')).toBe(`${staffPaths.login}?next=%2Fstaff%2Faccount`)
    expect((await signIn(server, 'sam', staffPassword)).status).toBe(401)
    expect((await signIn(server, 'sam', 'a brand new passphrase')).status).toBe(303)
    const [log] = await server.db.sql`select actor, field from audit_log where entity = 'account' and field = 'password'`
    expect(log).toEqual({ actor: 'sam', field: 'password' })
  })

  it('signs out one other browser, or all of them, but never this one that way', async () => {
    const elsewhere = (await signIn(server, 'sam', 'a brand new passphrase')).cookie!
    const page = await open(sales, staffPaths.account)
    const ids = [...page.document.querySelectorAll<HTMLInputElement>('.staff-sessions input[name="id"]')].map((input) => input.value)
    expect(ids.length).toBeGreaterThanOrEqual(1)
    for (const id of ids) expect((await post(sales, staffPaths.account, { action: 'end-session', id })).status).toBe(303)
    expect((await fetch(`${server.url}${staffPaths.account}`, { redirect: 'manual', headers: { cookie: elsewhere } })).status).toBe(303)
    expect((await open(sales, staffPaths.account)).document.querySelectorAll('.staff-sessions tbody tr')).toHaveLength(1)
    const { id } = (await server.db.sql<{ id: number }[]>`select s.id::int as id from staff_sessions s join users u on u.id = s.user_id where u.username = 'sam'`)[0]!
    const self = await post(sales, staffPaths.account, { action: 'end-session', id: String(id) })
    expect(parsePage(400, await self.text()).text('.staff-alert--error')).toBe('To end this browser’s session, sign out.')
  })

  it('changes roles, disables and removes, never the last owner, each in the audit log', async () => {
    const demoteSelf = await post(owner, staffPaths.accounts, { action: 'role', username: 'olga', role: 'manager' })
    expect(demoteSelf.status).toBe(409)
    expect(parsePage(409, await demoteSelf.text()).text('.staff-alert--error')).toBe(lastOwnerMessage)
    for (const action of ['disable', 'remove']) {
      const refused = await post(owner, staffPaths.accounts, { action, username: 'olga', confirm: 'yes' })
      expect([action, refused.status]).toEqual([action, 409])
    }
    const role = await post(owner, staffPaths.accounts, { action: 'role', username: 'sam', role: 'manager' })
    // Said once, on the page the post leads to (a one-time cookie), never in the address.
    expect(role.headers.get('location')).toBe(staffPaths.accounts)
    const shown = await followWithNotice(server, owner, role)
    expect(parsePage(shown.res.status, shown.html).text('.staff-alert--done')).toBe('sam’s role is changed.')
    expect(shown.cleared).toBe(true)
    expect((await open(owner, staffPaths.accounts)).document.querySelector('.staff-alert--done')).toBeNull()

    const sam = (await signIn(server, 'sam', 'a brand new passphrase')).cookie!
    expect((await post(owner, staffPaths.accounts, { action: 'disable', username: 'sam' })).status).toBe(303)
    expect((await fetch(`${server.url}${staffPaths.account}`, { redirect: 'manual', headers: { cookie: sam } })).status).toBe(303)
    expect((await signIn(server, 'sam', 'a brand new passphrase')).status).toBe(401)
    expect((await open(owner, staffPaths.accounts)).all('.staff-accounts__table tbody th')).toEqual(['olga you', 'sam disabled'])
    expect((await post(owner, staffPaths.accounts, { action: 'enable', username: 'sam' })).status).toBe(303)
    expect((await signIn(server, 'sam', 'a brand new passphrase')).status).toBe(303)

    // With a second owner, the first may step down.
    expect((await post(owner, staffPaths.accounts, { action: 'role', username: 'sam', role: 'owner' })).status).toBe(303)
    // Remove asks first, as a step of the page: the row's Remove is a link to it, and a post without the confirmation is sent there.
    const table = await open(owner, staffPaths.accounts)
    const link = table.document.querySelector('tr[data-username="sam"] a.staff-button--danger')?.getAttribute('href')
    expect(link).toBe(`${staffPaths.accounts}?remove=sam#confirm-remove`)
    const unconfirmed = await post(owner, staffPaths.accounts, { action: 'remove', username: 'sam' })
    expect([unconfirmed.status, unconfirmed.headers.get('location')]).toEqual([303, link])
    const confirm = await open(owner, link!)
    expect(confirm.text('#confirm-remove-title')).toBe('Remove the account “sam”?')
    expect(confirm.document.querySelector('#confirm-remove input[name="confirm"]')?.getAttribute('value')).toBe('yes')
    expect(confirm.all('.staff-accounts__table tbody th')).toEqual(['olga you', 'sam'])
    expect((await post(owner, staffPaths.accounts, { action: 'remove', username: 'sam', confirm: 'yes' })).status).toBe(303)
    expect((await open(owner, staffPaths.accounts)).all('.staff-accounts__table tbody th')).toEqual(['olga you'])
    const log = await server.db.sql<{ actor: string; field: string | null; action: string }[]>`
      select actor, field, action from audit_log where entity = 'account' and actor = 'olga' order by id
    `
    expect(log.map((row) => `${row.action} ${row.field ?? ''}`.trim())).toEqual([
      'update email',
      'update role',
      'update disabled',
      'update disabled',
      'update role',
      'delete',
    ])
  })
})
