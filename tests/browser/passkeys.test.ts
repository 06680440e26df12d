import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations, launchBrowser } from '../support/browser.ts'
import { desktop, phone } from '../support/site-visits.ts'
import { staffPassword } from '../support/staff.ts'
import { freePort, startTestServer, type TestServer } from '../support/test-server.ts'

/**
 * Passkeys in Chromium (issue #29): added on Your account and used as the sign-in's second step,
 * with a virtual authenticator from the DevTools protocol's WebAuthn domain standing in for the
 * device's screen lock. The site is at http://localhost:PORT, its SITE_URL, since a passkey
 * belongs to a host name (127.0.0.1 is none). At 390 px on a touch screen and 1280 px at a desk,
 * each page without accessibility violations or sideways scrolling; screenshots in
 * /tmp/gc-passkey-*.png.
 */
let server: TestServer
let browser: Browser
let site: string
const pages: Page[] = []

const viewports = [
  ['phone', { viewport: phone, hasTouch: true, isMobile: true }, 'pete'],
  ['desk', { viewport: desktop }, 'dora'],
] as const

beforeAll(async () => {
  const port = await freePort()
  site = `http://localhost:${port}`
  server = await startTestServer('pglite', { LOG_LEVEL: 'silent', SITE_URL: site }, { site: true, port })
  for (const [, , username] of viewports) await server.runtime.services.staff.accounts.add(username, staffPassword, { role: 'sales' })
  browser = await launchBrowser()
})
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.context().close()))
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** A page with a platform authenticator that says yes at once (a screen lock already unlocked). */
async function open(options: (typeof viewports)[number][1]) {
  const page = await (await browser.newContext(options)).newPage()
  pages.push(page)
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => m.type() === 'error' && !/status of 4\d\d\b/.test(m.text()) && problems.push(`console: ${m.text()}`))
  const devtools = await page.context().newCDPSession(page)
  await devtools.send('WebAuthn.enable')
  const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  const credentials = async () => (await devtools.send('WebAuthn.getCredentials', { authenticatorId })).credentials
  await page.goto(`${site}/staff/login`)
  return { page, problems, credentials }
}

async function signIn(page: Page, username: string) {
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(staffPassword)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForLoadState()
}

/** No violations, no sideways scroll, and the screenshot to look at. */
async function checked(page: Page, name: string, width: number) {
  expect(await axeViolations(page)).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
  await page.screenshot({ path: `/tmp/gc-passkey-${name}.png`, fullPage: true })
}

describe('passkeys in Chromium', () => {
  it.each(viewports)('adds a passkey on a %s, signs in with it, and removes it', async (name, options, username) => {
    const { page, problems, credentials } = await open(options)
    const width = options.viewport.width
    await signIn(page, username)
    await page.goto(`${site}/staff/account#section-second-step`)
    // The script shows the form (hidden without it) and hides the note that says it is needed.
    await expect.poll(() => page.getByRole('button', { name: 'Add a passkey' }).isVisible()).toBe(true)
    expect(await page.locator('[data-passkey-unavailable]').isVisible()).toBe(false)
    await checked(page, `add-${name}`, width)

    await page.getByLabel('Name of the new passkey').fill(name === 'phone' ? 'My phone' : 'Work laptop')
    await page.locator('#passkey-add-current').fill(staffPassword)
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await expect.poll(() => page.locator('.staff-recovery-codes li').count(), { timeout: 15_000 }).toBe(10)
    await checked(page, `codes-${name}`, width)
    expect(await credentials()).toHaveLength(1)
    // Shown once: the page again lists the passkey, without the codes.
    await page.goto(`${site}/staff/account`)
    expect(await page.locator('.staff-recovery-codes').count()).toBe(0)
    expect(await page.locator('.staff-passkeys tbody th').allTextContents()).toEqual([name === 'phone' ? 'My phone' : 'Work laptop'])
    await checked(page, `listed-${name}`, width)

    await page.getByRole('button', { name: 'Sign out', exact: true }).click()
    await page.waitForLoadState()
    await signIn(page, username)
    await expect.poll(() => page.locator('h1').textContent()).toBe('Use your passkey')
    await expect.poll(() => page.getByRole('button', { name: 'Use your passkey' }).isVisible()).toBe(true)
    await checked(page, `step-${name}`, width)
    await page.getByRole('button', { name: 'Use your passkey' }).click()
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toBe('Inventory')
    expect((await credentials())[0]?.signCount).toBeGreaterThan(0)

    await page.goto(`${site}/staff/account#section-second-step`)
    expect(await page.locator('.staff-passkeys tbody td[data-label="Last used"]').textContent()).not.toBe('not yet')
    await page.getByRole('link', { name: /^Remove the passkey/ }).click()
    await page.waitForLoadState()
    await checked(page, `remove-${name}`, width)
    await page.locator('#passkey-current').fill(staffPassword)
    await page.getByRole('button', { name: 'Remove the passkey' }).click()
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('The passkey is removed.')
    expect(await page.locator('.staff-passkeys').count()).toBe(0)
    expect(problems).toEqual([])
  }, 90_000)

  it('says so when the person cancels the browser\'s prompt, and the page stays usable', async () => {
    const [, options] = viewports[1]
    const { page, problems } = await open(options)
    await server.runtime.services.staff.accounts.add('cleo', staffPassword, { role: 'sales' })
    await signIn(page, 'cleo')
    await page.goto(`${site}/staff/account#section-second-step`)
    await page.evaluate(() => {
      // Stands in for the person pressing Cancel in the browser's own prompt.
      navigator.credentials.create = () => Promise.reject(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'))
    })
    await page.getByLabel('Name of the new passkey').fill('Cancelled')
    await page.locator('#passkey-add-current').fill(staffPassword)
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await expect.poll(() => page.locator('[data-passkey-status]').first().textContent()).toBe(
      'The passkey was not used (cancelled, or it took too long). Press the button to try again.',
    )
    expect(await page.getByRole('button', { name: 'Add a passkey' }).isEnabled()).toBe(true)
    expect(problems).toEqual([])
  })
})

