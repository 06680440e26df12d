import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Secret, TOTP } from 'otpauth'
import PostalMime from 'postal-mime'
import { staffPassword } from '../support/staff.ts'
import { type AxeViolation, desktop, expect, onPhone, phone, test as base } from './fixtures.ts'
import type { Page } from '@playwright/test'

/**
 * Your account, the accounts, the password reset and the second step in Chromium (issue #29), at
 * 390 px on a touch screen and 1280 px at a desk: each page without accessibility violations or
 * sideways scrolling, and a screenshot of each in /tmp/gc-account-*.png.
 */
const test = base.extend<object, { mailDir: string }>({
  mailDir: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dir = mkdtempSync(join(tmpdir(), 'gc-account-mail-'))
      await use(dir)
      rmSync(dir, { recursive: true, force: true })
    },
    { scope: 'worker' },
  ],
  serverEnv: [async ({ mailDir }, use) => use({ MAIL_DIR: mailDir, LEADS_TO: 'leads@dealer.example' }), { scope: 'worker' }],
})

test.use({
  // An array is given as [value, its scope], or Playwright would read it as that pair.
  staffAccounts: [
    [
      { username: 'olga', role: 'owner', email: 'olga@dealer.example' },
      { username: 'sam', role: 'sales', email: 'sam@dealer.example' },
      { username: 'tess', role: 'sales' },
      { username: 'rory', role: 'sales' },
    ],
    { scope: 'worker' },
  ],
  // A wrong step answers 4xx, and Chromium logs it: not a problem of the page.
  expectedProblems: /status of 4\d\d\b|^4\d\d: /,
})

/** Signs in through the form, and waits until it has led on: to the console, or to the second step. */
async function signIn(page: Page, username: string, password = staffPassword) {
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.pathname !== '/staff/login' || url.searchParams.get('step') === 'code')
}

/** No violations, no sideways scroll, and the screenshot to look at. */
async function checked(page: Page, axe: (page: Page) => Promise<AxeViolation[]>, name: string, width: number) {
  expect(await axe(page)).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
  await page.screenshot({ path: `/tmp/gc-account-${name}.png`, fullPage: true })
}

test.describe('staff accounts in Chromium', () => {
  for (const [name, options] of [
    ['phone', onPhone],
    ['desk', { viewport: desktop }],
  ] as const) {
    test.describe(`on a ${name}`, () => {
      test.use({ ...options, signedInAs: 'olga' })

      test('shows Your account and Accounts, and changes a role from the table', async ({ page, server, problems, axe }) => {
        const width = options.viewport!.width
        await page.goto(`${server.url}/staff/account`)
        await expect(page.locator('h1')).toHaveText('Your account')
        await checked(page, axe, `mine-${name}`, width)
        await page.goto(`${server.url}/staff/accounts`)
        await expect(page.locator('h1')).toHaveText('Accounts')
        await checked(page, axe, `all-${name}`, width)
        const role = name === 'phone' ? 'manager' : 'sales'
        await page.getByLabel('Role of sam').selectOption(role)
        await page.getByRole('button', { name: 'Save the role of sam' }).click()
        await expect(page.getByRole('status')).toHaveText('sam’s role is changed.')
        await expect(page.getByLabel('Role of sam')).toHaveValue(role)
        // On a phone each row stacks, every value under its label; at a desk the table's headings say it.
        const label = await page.locator('tr[data-username="sam"] td[data-label="Second step"]').evaluate((td) => getComputedStyle(td, '::before').content)
        expect(label).toBe(name === 'phone' ? '"Second step"' : 'none')
        if (name === 'phone') {
          await page.getByRole('link', { name: 'Remove rory' }).click()
          await expect(page.locator('#confirm-remove-title')).toHaveText('Remove the account “rory”?')
          await checked(page, axe, 'remove-phone', width)
          await page.getByRole('button', { name: 'Remove rory' }).click()
          await expect(page.getByRole('status')).toHaveText('rory is removed.')
        }
        expect(problems).toEqual([])
      })
    })
  }

  test.describe('on a phone', () => {
    test.use(onPhone)

    test('resets a forgotten password from the sign-in page with the emailed link', async ({ page, server, mailDir, problems, axe }) => {
      await page.goto(`${server.url}/staff/login`)
      await page.getByRole('link', { name: 'Forgot your password?' }).click()
      await expect(page.getByLabel('Username or email address')).toBeVisible()
      await checked(page, axe, 'reset-ask-phone', phone.width)
      await page.getByLabel('Username or email address').fill('sam@dealer.example')
      await page.getByRole('button', { name: 'Email me a link' }).click()
      await expect(page.getByRole('status')).toHaveText(/^If an account has that username or email address/)
      await checked(page, axe, 'reset-sent-phone', phone.width)

      let files: string[] = []
      await expect.poll(() => (files = readdirSync(mailDir).filter((f) => f.endsWith('.eml'))).length).toBe(1)
      const mail = await PostalMime.parse(readFileSync(join(mailDir, files[0]!)))
      const link = /https?:\/\/\S+\/staff\/password-reset\/\S+/.exec(mail.text ?? '')![0]
      // The email's link is on SITE_URL; the test's server is at its own port.
      await page.goto(`${server.url}${new URL(link).pathname}`)
      await expect(page.locator('h1')).toHaveText('Choose a new password')
      await checked(page, axe, 'reset-choose-phone', phone.width)
      await page.getByLabel('New password').fill('sam remembers this one')
      await page.getByRole('button', { name: 'Save password' }).click()
      await expect(page.getByRole('status')).toHaveText('Your password is saved. Sign in with it.')
      await signIn(page, 'sam', 'sam remembers this one')
      await expect(page.locator('h1')).toHaveText('Inventory')
      expect(problems).toEqual([])
    })
  })

  test('adds an authenticator app, shows the recovery codes once, and asks for a code at the next sign-in', async ({ page, server, problems, axe, newPage }) => {
    test.setTimeout(90_000)
    await page.goto(`${server.url}/staff/login`)
    await signIn(page, 'tess')
    await page.goto(`${server.url}/staff/account`)
    await page.getByRole('button', { name: 'Add an authenticator app' }).click()
    const key = page.locator('.staff-totp-key code')
    await expect(key).toBeVisible()
    const secret = (await key.textContent())!.replace(/\s/g, '')
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' })
    await checked(page, axe, 'app-add-desk', desktop.width)
    await page.getByLabel('The 6-digit code the app shows').fill(totp.generate())
    await page.locator('#app-current').fill(staffPassword)
    await page.getByRole('button', { name: 'Turn on', exact: true }).click()
    await expect(page.locator('.staff-recovery-codes li')).toHaveCount(10)
    await checked(page, axe, 'app-codes-desk', desktop.width)

    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await expect(page).toHaveURL(/\/staff\/login/)
    await signIn(page, 'tess')
    await expect(page.locator('h1')).toHaveText('Enter your code')
    await checked(page, axe, 'app-code-desk', desktop.width)
    const { page: phonePage } = await newPage(onPhone)
    await phonePage.goto(`${server.url}/staff/login?step=code`)
    await checked(phonePage, axe, 'app-code-phone', phone.width)
    // A code of a later step than the one that turned the app on (each is accepted once): the
    // next step's, within the one step of drift a code is allowed, so the test does not wait for it.
    await page.getByLabel('Code from your authenticator app').fill(totp.generate({ timestamp: Date.now() + 30_000 }))
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.locator('h1')).toHaveText('Inventory')
    expect(problems).toEqual([])
  })

  test('opens a lead alert’s link signed out: sign-in, with or without the second step, lands on that lead', async ({ server, newPage }) => {
    test.setTimeout(90_000)
    const { id } = await server.runtime.services.inquiries.add({ firstName: 'Morning', lastName: 'Alert', email: 'morning.alert@example.com' })
    const link = `/staff/leads/${id}`
    // Accounts of this test's own: nora signs in with a password, ned with an authenticator app
    // whose key the test knows.
    await server.runtime.services.staff.accounts.add('nora', staffPassword, { role: 'sales' })
    await server.runtime.services.staff.accounts.add('ned', staffPassword, { role: 'sales' })
    const secret = new Secret({ size: 20 })
    await server.db.sql`update users set totp_secret = ${secret.base32}, totp_enabled_at = now() where username = 'ned'`
    const totp = new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' })

    for (const [username, options] of [['nora', onPhone], ['ned', { viewport: desktop }]] as const) {
      // The alert's link, opened in a browser with no session (every morning).
      const { page, problems } = await newPage(options)
      await page.goto(`${server.url}${link}`)
      expect(new URL(page.url()).pathname).toBe('/staff/login')
      expect(new URL(page.url()).searchParams.get('next')).toBe(link)
      await signIn(page, username)
      if (username === 'ned') {
        await expect(page.locator('h1')).toHaveText('Enter your code')
        expect(new URL(page.url()).searchParams.get('next')).toBe(link)
        await page.getByLabel('Code from your authenticator app').fill(totp.generate())
        await page.getByRole('button', { name: 'Sign in' }).click()
      }
      await expect(page.locator('h1')).toHaveText('Morning Alert')
      expect(new URL(page.url()).pathname).toBe(link)
      expect(problems).toEqual([])
    }

    // Only a console page: another site, however spelled, is never where sign-in leads.
    for (const next of ['https://evil.example/staff/leads/1', '//evil.example/staff', '/staff/..//evil.example', '/\\evil.example']) {
      const { page } = await newPage({ viewport: desktop })
      await page.goto(`${server.url}/staff/login?next=${encodeURIComponent(next)}`)
      await signIn(page, 'nora')
      await expect(page.locator('h1')).toHaveText('Inventory')
      expect(new URL(page.url()).origin).toBe(server.url)
      expect(new URL(page.url()).pathname).toBe('/staff')
    }
  })
})
