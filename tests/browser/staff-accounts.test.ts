import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Secret, TOTP } from 'otpauth'
import type { Browser, Page } from 'playwright-core'
import PostalMime from 'postal-mime'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations, launchBrowser } from '../support/browser.ts'
import { desktop, phone } from '../support/site-visits.ts'
import { staffPassword } from '../support/staff.ts'
import { startTestServer, type TestServer } from '../support/test-server.ts'

/**
 * Your account, the accounts, the password reset and the second step in Chromium (issue #29), at
 * 390 px on a touch screen and 1280 px at a desk: each page without accessibility violations or
 * sideways scrolling, and a screenshot of each in /tmp/gc-account-*.png.
 */
let server: TestServer
let browser: Browser
let mailDir: string
const pages: Page[] = []

const viewports = [
  ['phone', { viewport: phone, hasTouch: true, isMobile: true }],
  ['desk', { viewport: desktop }],
] as const

beforeAll(async () => {
  mailDir = mkdtempSync(join(tmpdir(), 'gc-account-mail-'))
  server = await startTestServer('pglite', { LOG_LEVEL: 'silent', MAIL_DIR: mailDir, LEADS_TO: 'leads@dealer.example' }, { site: true })
  const accounts = server.runtime.services.staff.accounts
  await accounts.add('olga', staffPassword, { role: 'owner', email: 'olga@dealer.example' })
  await accounts.add('sam', staffPassword, { role: 'sales', email: 'sam@dealer.example' })
  await accounts.add('tess', staffPassword, { role: 'sales' })
  await accounts.add('rory', staffPassword, { role: 'sales' })
  browser = await launchBrowser()
})
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.context().close()))
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
  rmSync(mailDir, { recursive: true, force: true })
})

async function open(options: (typeof viewports)[number][1], path = '/staff/login') {
  const page = await (await browser.newContext(options)).newPage()
  pages.push(page)
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => m.type() === 'error' && !/status of 4\d\d\b/.test(m.text()) && problems.push(`console: ${m.text()}`))
  await page.goto(`${server.url}${path}`)
  return { page, problems }
}

async function signIn(page: Page, username: string, password = staffPassword) {
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForLoadState()
}

/** No violations, no sideways scroll, and the screenshot to look at. */
async function checked(page: Page, name: string, width: number) {
  expect(await axeViolations(page)).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
  await page.screenshot({ path: `/tmp/gc-account-${name}.png`, fullPage: true })
}

describe('staff accounts in Chromium', () => {
  it.each(viewports)('shows Your account and Accounts on a %s, and changes a role from the table', async (name, options) => {
    const { page, problems } = await open(options)
    await signIn(page, 'olga')
    await page.goto(`${server.url}/staff/account`)
    expect(await page.locator('h1').textContent()).toBe('Your account')
    await checked(page, `mine-${name}`, options.viewport.width)
    await page.goto(`${server.url}/staff/accounts`)
    expect(await page.locator('h1').textContent()).toBe('Accounts')
    await checked(page, `all-${name}`, options.viewport.width)
    const role = name === 'phone' ? 'manager' : 'sales'
    await page.getByLabel('Role of sam').selectOption(role)
    await page.getByRole('button', { name: 'Save the role of sam' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('sam’s role is changed.')
    expect(await page.getByLabel('Role of sam').inputValue()).toBe(role)
    // On a phone each row stacks, every value under its label; at a desk the table's headings say it.
    const label = await page.locator('tr[data-username="sam"] td[data-label="Second step"]').evaluate((td) => getComputedStyle(td, '::before').content)
    expect(label).toBe(name === 'phone' ? '"Second step"' : 'none')
    if (name === 'phone') {
      await page.getByRole('link', { name: 'Remove rory' }).click()
      await page.waitForLoadState()
      expect(await page.locator('#confirm-remove-title').textContent()).toBe('Remove the account “rory”?')
      await checked(page, 'remove-phone', options.viewport.width)
      await page.getByRole('button', { name: 'Remove rory' }).click()
      await expect.poll(() => page.getByRole('status').textContent()).toBe('rory is removed.')
    }
    expect(problems).toEqual([])
  })

  it('resets a forgotten password from the sign-in page with the emailed link', async () => {
    const [, options] = viewports[0]
    const { page, problems } = await open(options)
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await page.waitForLoadState()
    await checked(page, 'reset-ask-phone', phone.width)
    await page.getByLabel('Username or email address').fill('sam@dealer.example')
    await page.getByRole('button', { name: 'Email me a link' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/^If an account has that username or email address/)
    await checked(page, 'reset-sent-phone', phone.width)

    let files: string[] = []
    await expect.poll(() => (files = readdirSync(mailDir).filter((f) => f.endsWith('.eml'))).length).toBe(1)
    const mail = await PostalMime.parse(readFileSync(join(mailDir, files[0]!)))
    const link = /https?:\/\/\S+\/staff\/password-reset\/\S+/.exec(mail.text ?? '')![0]
    // The email's link is on SITE_URL; the test's server is at its own port.
    await page.goto(`${server.url}${new URL(link).pathname}`)
    expect(await page.locator('h1').textContent()).toBe('Choose a new password')
    await checked(page, 'reset-choose-phone', phone.width)
    await page.getByLabel('New password').fill('sam remembers this one')
    await page.getByRole('button', { name: 'Save password' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Your password is saved. Sign in with it.')
    await signIn(page, 'sam', 'sam remembers this one')
    await expect.poll(() => page.locator('h1').textContent()).toBe('Inventory')
    expect(problems).toEqual([])
  })

  it('adds an authenticator app, shows the recovery codes once, and asks for a code at the next sign-in', async () => {
    const [, options] = viewports[1]
    const { page, problems } = await open(options)
    await signIn(page, 'tess')
    await page.goto(`${server.url}/staff/account`)
    await page.getByRole('button', { name: 'Add an authenticator app' }).click()
    await page.waitForLoadState()
    const secret = (await page.locator('.staff-totp-key code').textContent())!.replace(/\s/g, '')
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' })
    await checked(page, 'app-add-desk', desktop.width)
    await page.getByLabel('The 6-digit code the app shows').fill(totp.generate())
    await page.getByRole('button', { name: 'Turn on', exact: true }).click()
    await expect.poll(() => page.locator('.staff-recovery-codes li').count()).toBe(10)
    await checked(page, 'app-codes-desk', desktop.width)

    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await page.waitForLoadState()
    await signIn(page, 'tess')
    await expect.poll(() => page.locator('h1').textContent()).toBe('Enter your code')
    await checked(page, 'app-code-desk', desktop.width)
    const phonePage = (await open(viewports[0][1], '/staff/login?step=code')).page
    await checked(phonePage, 'app-code-phone', phone.width)
    // A code of a later step than the one that turned the app on (each is accepted once): the
    // next step's, within the one step of drift a code is allowed, so the test does not wait for it.
    await page.getByLabel('Code from your authenticator app').fill(totp.generate({ timestamp: Date.now() + 30_000 }))
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.locator('h1').textContent()).toBe('Inventory')
    expect(problems).toEqual([])
  }, 90_000)
})
