import type { BrowserContext, Page } from '@playwright/test'
import { staffPassword } from '../support/staff.ts'
import { freePort } from '../support/test-server.ts'
import { type AxeViolation, desktop, expect, onPhone, test as base } from './fixtures.ts'

/**
 * Passkeys in Chromium (issue #29): added on Your account and used as the sign-in's second step,
 * with a virtual authenticator from the DevTools protocol's WebAuthn domain standing in for the
 * device's screen lock. The site is at http://localhost:PORT, its SITE_URL (the worker's `site`),
 * since a passkey belongs to a host name (127.0.0.1 is none). At 390 px on a touch screen and
 * 1280 px at a desk, each page without accessibility violations or sideways scrolling;
 * screenshots in /tmp/gc-passkey-*.png. Signing in is what is tested: each test signs in through
 * the form.
 */
const test = base.extend<object, { sitePort: number; site: string }>({
  // eslint-disable-next-line no-empty-pattern
  sitePort: [async ({}, use) => use(await freePort()), { scope: 'worker' }],
  serverEnv: [async ({ sitePort }, use) => use({ SITE_URL: `http://localhost:${sitePort}` }), { scope: 'worker' }],
  // The worker's `server` (started by the first test that asks), at its SITE_URL.
  site: [async ({ server }, use) => use(server.env.siteUrl), { scope: 'worker' }],
  serverOptions: [async ({ sitePort }, use) => use({ port: sitePort }), { scope: 'worker' }],
})

test.use({
  staffAccounts: [
    [
      { username: 'pete', role: 'sales' },
      { username: 'dora', role: 'sales' },
    ],
    { scope: 'worker' },
  ],
  // A wrong step answers 4xx, and Chromium logs it: not a problem of the page.
  expectedProblems: /status of 4\d\d\b|^4\d\d: /,
})

/** A platform authenticator in `page` that says yes at once (a screen lock already unlocked); its passkeys. */
async function authenticator(context: BrowserContext, page: Page) {
  const devtools = await context.newCDPSession(page)
  await devtools.send('WebAuthn.enable')
  const { authenticatorId } = await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  return async () => (await devtools.send('WebAuthn.getCredentials', { authenticatorId })).credentials
}

/** Signs in through the form, and waits until it has led on: to the console, or to the second step. */
async function signIn(page: Page, username: string) {
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(staffPassword)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.pathname !== '/staff/login' || url.searchParams.get('step') === 'code')
}

/** No violations, no sideways scroll, and the screenshot to look at. */
async function checked(page: Page, axe: (page: Page) => Promise<AxeViolation[]>, name: string, width: number) {
  expect(await axe(page)).toEqual([])
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
  await page.screenshot({ path: `/tmp/gc-passkey-${name}.png`, fullPage: true })
}

test.describe('passkeys in Chromium', () => {
  for (const [name, options, username] of [
    ['phone', onPhone, 'pete'],
    ['desk', { viewport: desktop }, 'dora'],
  ] as const) {
    test.describe(`on a ${name}`, () => {
      test.use(options)

      test(`adds a passkey on a ${name}, signs in with it, and removes it`, async ({ page, context, site, problems, axe }) => {
        const credentials = await authenticator(context, page)
        const width = options.viewport!.width
        await page.goto(`${site}/staff/login`)
        await signIn(page, username)
        await page.goto(`${site}/staff/account#section-second-step`)
        // The script shows the form (hidden without it) and hides the note that says it is needed.
        await expect(page.getByRole('button', { name: 'Add a passkey' })).toBeVisible()
        await expect(page.locator('[data-passkey-unavailable]')).toBeHidden()
        await checked(page, axe, `add-${name}`, width)

        await page.getByLabel('Name of the new passkey').fill(name === 'phone' ? 'My phone' : 'Work laptop')
        await page.locator('#passkey-add-current').fill(staffPassword)
        await page.getByRole('button', { name: 'Add a passkey' }).click()
        await expect(page.locator('.staff-recovery-codes li')).toHaveCount(10)
        await checked(page, axe, `codes-${name}`, width)
        expect(await credentials()).toHaveLength(1)
        // Shown once: the page again lists the passkey, without the codes.
        await page.goto(`${site}/staff/account`)
        await expect(page.locator('.staff-recovery-codes')).toHaveCount(0)
        await expect(page.locator('.staff-passkeys tbody th')).toHaveText([name === 'phone' ? 'My phone' : 'Work laptop'])
        await checked(page, axe, `listed-${name}`, width)

        await page.getByRole('button', { name: 'Sign out', exact: true }).click()
        await expect(page).toHaveURL(/\/staff\/login/)
        await signIn(page, username)
        await expect(page.locator('h1')).toHaveText('Use your passkey')
        await expect(page.getByRole('button', { name: 'Use your passkey' })).toBeVisible()
        await checked(page, axe, `step-${name}`, width)
        await page.getByRole('button', { name: 'Use your passkey' }).click()
        await expect(page.locator('h1')).toHaveText('Inventory')
        expect((await credentials())[0]?.signCount).toBeGreaterThan(0)

        await page.goto(`${site}/staff/account#section-second-step`)
        await expect(page.locator('.staff-passkeys tbody td[data-label="Last used"]')).not.toHaveText('not yet')
        await page.getByRole('link', { name: /^Remove the passkey/ }).click()
        await expect(page.locator('#passkey-current')).toBeVisible()
        await checked(page, axe, `remove-${name}`, width)
        await page.locator('#passkey-current').fill(staffPassword)
        await page.getByRole('button', { name: 'Remove the passkey' }).click()
        await expect(page.getByRole('status').first()).toHaveText('The passkey is removed.')
        await expect(page.locator('.staff-passkeys')).toHaveCount(0)
        expect(problems).toEqual([])
      })
    })
  }

  test.describe('at a desk', () => {
    test.use({ viewport: desktop })

    test("says so when the person cancels the browser's prompt, and the page stays usable", async ({ page, context, site, server, problems }) => {
      await authenticator(context, page)
      await page.goto(`${site}/staff/login`)
      await server.runtime.services.staff.accounts.add('cleo', staffPassword, { role: 'sales' })
      await signIn(page, 'cleo')
      await page.goto(`${site}/staff/account#section-second-step`)
      await expect(page.getByRole('button', { name: 'Add a passkey' })).toBeVisible()
      await page.evaluate(() => {
        // Stands in for the person pressing Cancel in the browser's own prompt.
        navigator.credentials.create = () => Promise.reject(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError'))
      })
      await page.getByLabel('Name of the new passkey').fill('Cancelled')
      await page.locator('#passkey-add-current').fill(staffPassword)
      await page.getByRole('button', { name: 'Add a passkey' }).click()
      await expect(page.locator('[data-passkey-status]').first()).toHaveText(
        'The passkey was not used (cancelled, or it took too long). Press the button to try again.',
      )
      await expect(page.getByRole('button', { name: 'Add a passkey' })).toBeEnabled()
      expect(problems).toEqual([])
    })
  })
})
