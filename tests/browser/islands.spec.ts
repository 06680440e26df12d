import type { Page } from '@playwright/test'
import { desktop, expect, phone, settled, test, visitHydrated } from './fixtures.ts'

/**
 * Pages are server HTML with islands (docs/decisions/0014-islands.md): the browser runs the
 * code of a page's own islands and nothing else, and each island works once the page has loaded.
 */
test.use({ viewport: phone })

/** Loads `url` in `page`, hydrated, with the scripts it downloaded (file names without their hashes) and their bytes. */
async function visitRecordingScripts(page: Page, url: string) {
  const scripts: { name: string; bytes: number }[] = []
  // Each body is read asynchronously: all of them are awaited before the list is read, or a
  // slow machine reads the list before the last scripts are in it.
  const reading: Promise<void>[] = []
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return
    const name = new URL(response.url()).pathname.split('/').pop()!.replace(/-[\w-]{8}\.js$/, '')
    reading.push(response.body().then((body) => void scripts.push({ name, bytes: body.length })))
  })
  await visitHydrated(page, url)
  // What the page did NOT load is checked: it has had its chance to load it.
  await settled(page)
  await Promise.all(reading)
  const names = () => scripts.map((s) => s.name).sort()
  // Later downloads (a form's, once reached for) are in the list after every body is read.
  return { scripts, names, namesNow: async () => (await Promise.all(reading), names()) }
}

/** Keeps the browser from loading a script until `release` is called. */
async function holdScript(page: Page, pattern: string) {
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(pattern, async (route) => {
    await released
    await route.continue()
  })
  return release
}

test.describe('islands', () => {
  for (const path of ['/about', '/ocean-county-golf-carts', '/rentals', '/']) {
    test(`${path} is HTML with the menu script alone: no React, no data`, async ({ page, server, problems }) => {
      const { names, scripts } = await visitRecordingScripts(page, `${server.url}${path}`)
      expect(names()).toEqual(['entry-client'])
      // The menu, Compare and Save (the cards' toggles and the header's lists) and the loader of islands.
      expect(scripts[0]!.bytes).toBeLessThan(6_500)
      await expect(page.locator('[data-island]')).toHaveCount(0)
      await expect(page.locator('#gc-state')).toHaveCount(0)
      // Everything a visitor and a search engine read is there all the same.
      await expect(page.locator('main h1')).toHaveCount(1)
      await expect(page.locator('footer a[href="/ocean-county-golf-carts"]')).toHaveCount(1)
      // The menu works.
      await page.getByRole('button', { name: 'Open menu' }).click()
      await expect(page.locator('#mobile-menu')).toBeVisible()
      await page.getByRole('button', { name: 'Close menu' }).click()
      await expect(page.locator('#mobile-menu')).toBeHidden()
      expect(problems).toEqual([])
    })
  }

  test('loads the code of the islands on the page and no other', async ({ page, server, problems, newPage }) => {
    const financing = await visitRecordingScripts(page, `${server.url}/financing`)
    expect(financing.names()).toContain('payment-calculator')
    expect(financing.names()).not.toContain('contact-form')
    expect(financing.names()).not.toContain('inventory')
    // The calculator needs no data: no query cache, no API client.
    expect(financing.names()).not.toContain('data')
    const other = await newPage({ viewport: phone })
    const contact = await visitRecordingScripts(other.page, `${server.url}/contact`)
    // The form is the server's until the shopper reaches for it: no React, no form code yet.
    expect(contact.names()).toEqual(['entry-client', 'reach'])
    await other.page.getByLabel('First Name').focus()
    await expect(other.page.locator('[data-island="contact-form"]')).toHaveAttribute('data-hydrated')
    expect(await contact.namesNow()).toEqual(expect.arrayContaining(['contact-form', 'data', 'toast']))
    expect(contact.names()).not.toContain('payment-calculator')
    expect([...problems, ...other.problems]).toEqual([])
  })

  test('makes each island interactive once the page has loaded', async ({ page, server, problems, newPage }) => {
    await visitRecordingScripts(page, `${server.url}/financing`)
    await page.getByLabel('Cart Price ($)').fill('12000')
    await page.getByLabel('Loan Term').selectOption('48')
    await page.getByRole('button', { name: 'Calculate Payment' }).click()
    await expect(page.locator('.gc-calculator__amount')).toHaveText('$250.00')
    expect(new URL(page.url()).search).toBe('')

    const contact = await newPage({ viewport: phone })
    await visitRecordingScripts(contact.page, `${server.url}/contact`)
    await expect(contact.page.locator('[data-island="contact-form"]')).not.toHaveAttribute('data-hydrated')
    await contact.page.getByRole('button', { name: 'Send Message' }).click()
    // Sent before its island hydrated: the send waits for it, then is checked in the browser as
    // ever; the page stays, the first problem is shown and focused.
    await expect(contact.page.locator('.gc-field__error').first()).toHaveText(/required/)
    await expect(contact.page.locator('[name="firstName"]:focus')).toHaveCount(1)
    expect(new URL(contact.page.url()).search).toBe('')

    const inventory = await newPage({ viewport: desktop })
    await visitRecordingScripts(inventory.page, `${server.url}/inventory`)
    await inventory.page.evaluate(() => ((window as typeof window & { marker?: number }).marker = 7))
    await inventory.page.locator('.gc-filters').getByRole('link', { name: /^Denago/ }).click()
    await expect(inventory.page).toHaveURL((url) => url.search === '?make=denago')
    // Changed in place: the same document, the list fetched over the API.
    expect(await inventory.page.evaluate(() => (window as typeof window & { marker?: number }).marker)).toBe(7)
    await inventory.page.goBack()
    await expect(inventory.page).toHaveURL((url) => url.search === '')
    await expect(inventory.page.locator('.gc-inventory__count')).not.toHaveText(/Loading/)
    expect([...problems, ...contact.problems, ...inventory.problems]).toEqual([])
  })

  test.describe('at a desk', () => {
    test.use({ viewport: desktop })

    test('starts a page opened from a link of the site at its main content, and a page opened directly at its top', async ({ page, server }) => {
      await visitRecordingScripts(page, `${server.url}/about`)
      expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true)
      await page.locator('nav[aria-label="Main"] a', { hasText: 'Services' }).click()
      await page.waitForURL(/\/services$/)
      await expect(page.locator('#root')).toHaveAttribute('data-hydrated')
      await expect(page.locator('#main')).toBeFocused()
      expect(await page.evaluate(() => window.scrollY)).toBe(0)
    })
  })

  test('keeps what was typed into the contact form before its script ran', async ({ page, server }) => {
    const release = await holdScript(page, '**/assets/contact-form-*.js')
    await page.goto(`${server.url}/contact`)
    await page.getByLabel('First Name').fill('Early')
    await page.getByLabel('Last Name').fill('Typist')
    await page.getByLabel('Email').fill('early.typist@example.com')
    await page.getByLabel("I'm interested in").selectOption('service')
    // The page is ready at once; the form hydrates when reached for, and its code is held.
    await expect(page.locator('#root')).toHaveAttribute('data-hydrated')
    const form = page.locator('[data-island="contact-form"]')
    await expect(form).not.toHaveAttribute('data-hydrated')
    release()
    await expect(form).toHaveAttribute('data-hydrated')
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect(page.locator('.gc-toast__title')).toHaveText('Message sent successfully!')
    const [lead] = await server.db.sql`select first_name, interest from contact_inquiries where email = 'early.typist@example.com'`
    expect(lead).toEqual({ firstName: 'Early', interest: 'service' })
  })
})
