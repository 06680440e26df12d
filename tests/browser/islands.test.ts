import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { desktop, phone, useSite } from '../support/site-visits.ts'

/**
 * Pages are server HTML with islands (docs/decisions/0014-islands.md): the browser runs the
 * code of a page's own islands and nothing else, and each island works once the page has loaded.
 */
const site = useSite()

/** A page of the site, with the scripts it downloaded (file names without their hashes) and their bytes. */
async function visitRecordingScripts(path: string, viewport = phone) {
  const context = await site.newContext({ viewport })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`))
  const scripts: { name: string; bytes: number }[] = []
  // Each body is read asynchronously: all of them are awaited before the list is read, or a
  // slow machine reads the list before the last scripts are in it.
  const reading: Promise<void>[] = []
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return
    const name = new URL(response.url()).pathname.split('/').pop()!.replace(/-[\w-]{8}\.js$/, '')
    reading.push(response.body().then((body) => void scripts.push({ name, bytes: body.length })))
  })
  await page.goto(`${site.server.url}${path}`)
  await page.waitForFunction(() => document.querySelector('#root')?.hasAttribute('data-hydrated'))
  await page.waitForLoadState('networkidle')
  await Promise.all(reading)
  return { page, problems, scripts, names: () => scripts.map((s) => s.name).sort() }
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

describe('islands', () => {
  it.each(['/about', '/ocean-county-golf-carts', '/rentals', '/'])('%s is HTML with the menu script alone: no React, no data', async (path) => {
    const { page, problems, names, scripts } = await visitRecordingScripts(path)
    expect(names()).toEqual(['entry-client'])
    expect(scripts[0]!.bytes).toBeLessThan(4_000)
    expect(await page.locator('[data-island]').count()).toBe(0)
    expect(await page.locator('#gc-state').count()).toBe(0)
    // Everything a visitor and a search engine read is there all the same.
    expect(await page.locator('main h1').count()).toBe(1)
    expect(await page.locator('footer a[href="/ocean-county-golf-carts"]').count()).toBe(1)
    // The menu works.
    await page.getByRole('button', { name: 'Open menu' }).click()
    expect(await page.locator('#mobile-menu').isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Close menu' }).click()
    expect(await page.locator('#mobile-menu').isVisible()).toBe(false)
    expect(problems).toEqual([])
  })

  it('loads the code of the islands on the page and no other', async () => {
    const financing = await visitRecordingScripts('/financing')
    expect(financing.names()).toContain('payment-calculator')
    expect(financing.names()).not.toContain('contact-form')
    expect(financing.names()).not.toContain('inventory')
    // The calculator needs no data: no query cache, no API client.
    expect(financing.names()).not.toContain('data')
    const contact = await visitRecordingScripts('/contact')
    expect(contact.names()).toEqual(expect.arrayContaining(['contact-form', 'data', 'toast']))
    expect(contact.names()).not.toContain('payment-calculator')
    expect([...financing.problems, ...contact.problems]).toEqual([])
  })

  it('makes each island interactive once the page has loaded', async () => {
    const calculator = await visitRecordingScripts('/financing')
    await calculator.page.getByLabel('Cart Price ($)').fill('12000')
    await calculator.page.getByLabel('Loan Term').selectOption('48')
    await calculator.page.getByRole('button', { name: 'Calculate Payment' }).click()
    await expect.poll(() => calculator.page.locator('.gc-calculator__amount').textContent()).toBe('$250.00')
    expect(new URL(calculator.page.url()).search).toBe('')

    const contact = await visitRecordingScripts('/contact')
    await contact.page.getByRole('button', { name: 'Send Message' }).click()
    // Checked in the browser: the page stays, the first problem is shown and focused.
    await expect.poll(() => contact.page.locator('.gc-field__error').first().textContent()).toMatch(/required/)
    expect(await contact.page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('firstName')
    expect(new URL(contact.page.url()).search).toBe('')

    const inventory = await visitRecordingScripts('/inventory', desktop)
    await inventory.page.evaluate(() => ((window as typeof window & { marker?: number }).marker = 7))
    await inventory.page.locator('.gc-filters').getByRole('link', { name: /^Denago/ }).click()
    await expect.poll(() => new URL(inventory.page.url()).search).toBe('?make=denago')
    // Changed in place: the same document, the list fetched over the API.
    expect(await inventory.page.evaluate(() => (window as typeof window & { marker?: number }).marker)).toBe(7)
    await inventory.page.goBack()
    await expect.poll(() => new URL(inventory.page.url()).search).toBe('')
    await expect.poll(() => inventory.page.locator('.gc-inventory__count').textContent()).not.toMatch(/Loading/)
    expect([...calculator.problems, ...contact.problems, ...inventory.problems]).toEqual([])
  })

  it('starts a page opened from a link of the site at its main content, and a page opened directly at its top', async () => {
    const { page } = await visitRecordingScripts('/about', desktop)
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true)
    await page.locator('nav[aria-label="Main"] a', { hasText: 'Services' }).click()
    await page.waitForURL(/\/services$/)
    await page.waitForFunction(() => document.querySelector('#root')?.hasAttribute('data-hydrated'))
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main')
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
  })

  it('keeps what was typed into the contact form before its script ran', async () => {
    const context = await site.newContext({ viewport: phone })
    const page = await context.newPage()
    const release = await holdScript(page, '**/assets/contact-form-*.js')
    await page.goto(`${site.server.url}/contact`)
    await page.getByLabel('First Name').fill('Early')
    await page.getByLabel('Last Name').fill('Typist')
    await page.getByLabel('Email').fill('early.typist@example.com')
    await page.getByLabel("I'm interested in").selectOption('service')
    expect(await page.evaluate(() => document.querySelector('#root')?.hasAttribute('data-hydrated'))).toBe(false)
    release()
    await page.waitForFunction(() => document.querySelector('#root')?.hasAttribute('data-hydrated'))
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect.poll(() => page.locator('.gc-toast__title').textContent()).toBe('Message sent successfully!')
    const [lead] = await site.server.db.sql`select first_name, interest from contact_inquiries where email = 'early.typist@example.com'`
    expect(lead).toEqual({ firstName: 'Early', interest: 'service' })
  })
})
