import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../support/browser.ts'
import { usePartnerPages } from '../support/partner-pages.ts'
import { desktop, phone } from '../support/site-visits.ts'
import { addStaff, staffPassword } from '../support/staff.ts'

/** The staff console in Chromium (issue #15): sign-in, the inventory, the cart form, sign-out. */
const partner = usePartnerPages({ site: true })

beforeAll(async () => {
  await addStaff(partner.api)
})

interface Console {
  page: Page
  problems: string[]
}

/** A fresh browser at the sign-in page, recording errors. */
async function openConsole(viewport = desktop): Promise<Console> {
  const page = await (await partner.newContext({ viewport })).newPage()
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => {
    // Chromium reports a refused sign-in's 401 answer as a console error: the refusal is the point.
    if (m.type() === 'error' && !m.text().includes('status of 401')) problems.push(`console: ${m.text()}`)
  })
  await page.goto(`${partner.api.url}/staff`)
  return { page, problems }
}

async function signIn(page: Page, username = 'maria', password = staffPassword) {
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForLoadState()
}

async function signedIn(viewport = desktop): Promise<Console> {
  const opened = await openConsole(viewport)
  await signIn(opened.page)
  await expect.poll(() => opened.page.locator('h1').textContent()).toBe('Inventory')
  return opened
}

describe('the staff console', () => {
  it('sends a visitor without a session to the sign-in form, refuses a wrong password beside it and keeps the username', async () => {
    const { page, problems } = await openConsole()
    expect(new URL(page.url()).pathname).toBe('/staff/login')
    expect(await page.title()).toBe('Sign in | Staff console')
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow')
    await signIn(page, 'maria', 'not the password at all')
    expect(new URL(page.url()).pathname).toBe('/staff/login')
    const alert = page.getByRole('alert')
    expect(await alert.textContent()).toBe('That username and password do not match an account.')
    expect(await page.getByLabel('Username').inputValue()).toBe('maria')
    expect(await page.getByLabel('Password').inputValue()).toBe('')
    expect(await page.getByLabel('Username').getAttribute('aria-describedby')).toBe(await alert.getAttribute('id'))
    await page.getByLabel('Password').fill(staffPassword)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.locator('h1').textContent()).toBe('Inventory')
    expect(new URL(page.url()).pathname).toBe('/staff')
    expect(problems).toEqual([])
  })

  it('lists the inventory in a table with search, status filter, sort and paging carried by the address', async () => {
    // 60 more carts than the seed, so the table has a second page.
    const records = partner.api.runtime.services.staff.cartRecords
    const actor = { id: null, name: 'test' }
    for (let i = 1; i <= 60; i++) {
      await records.save(actor, {
        record: {
          title: `2024 Evolution Classic 2 Plus Fleet ${i}`,
          description: 'A fleet cart back from a resort lease.',
          price: 5000 + i,
          imageUrl: '/images/carts/2025-evolution-classic-2-plus.svg',
          condition: 'used',
          status: i % 10 === 0 ? 'hold' : 'available',
          featured: false,
          year: 2024,
          make: null,
          model: null,
          trim: null,
          vin: null,
          serialNumber: null,
          stockNumber: `FLEET-${String(i).padStart(3, '0')}`,
          color: null,
          seats: null,
          battery: null,
          streetLegal: false,
          lifted: false,
          msrp: null,
        },
      })
    }
    const { page, problems } = await signedIn()
    const rows = page.locator('table.staff-table tbody tr')
    expect(await rows.count()).toBe(50)
    expect(await page.locator('#inventory-count').textContent()).toBe('1–50 of 88 carts')
    await page.getByRole('link', { name: 'Next' }).click()
    await page.waitForLoadState()
    expect(new URL(page.url()).search).toBe('?page=2')
    expect(await rows.count()).toBe(38)
    expect(await page.locator('.staff-pager').textContent()).toContain('Page 2 of 2')

    await page.getByLabel('Search').fill('fleet')
    await page.getByLabel('Status', { exact: true }).selectOption('hold')
    await page.getByLabel('Sort').selectOption('price-desc')
    await page.getByRole('button', { name: 'Show carts' }).click()
    await page.waitForLoadState()
    expect(new URL(page.url()).searchParams.get('q')).toBe('fleet')
    expect(await page.locator('#inventory-count').textContent()).toBe('1–6 of 6 carts')
    const titles = await page.locator('.staff-table__cart a').allTextContents()
    expect(titles).toEqual([60, 50, 40, 30, 20, 10].map((i) => `2024 Evolution Classic 2 Plus Fleet ${i}`))
    // The address is the state: opened afresh, the same table.
    await page.goto(page.url())
    expect(await page.getByLabel('Search').inputValue()).toBe('fleet')
    expect(await page.locator('.staff-table__cart a').allTextContents()).toEqual(titles)
    expect(problems).toEqual([])
  })

  it.each([
    ['phone', phone],
    ['desk', desktop],
  ])('has no accessibility violations on a %s (sign-in, inventory, cart form)', async (_name, viewport) => {
    const { page } = await openConsole(viewport)
    expect(await axeViolations(page)).toEqual([])
    await signIn(page, 'maria', 'wrong password, twice over')
    expect(await axeViolations(page)).toEqual([])
    await signIn(page)
    await expect.poll(() => page.locator('h1').textContent()).toBe('Inventory')
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('link', { name: 'Add a cart' }).click()
    await page.waitForLoadState()
    expect(await axeViolations(page)).toEqual([])
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(viewport.width)
  })

  it('works from the keyboard alone, with a visible focus', async () => {
    const { page } = await openConsole()
    // The sign-in page starts in its first field.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('username')
    await page.keyboard.type('maria')
    await page.keyboard.press('Tab')
    await page.keyboard.type(staffPassword)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('h1').textContent()).toBe('Inventory')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content')
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)
    expect(outline).toBe('solid')
    await page.keyboard.press('Enter')
    // From the skip link, the next stop is the first thing in the page: Add a cart.
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Add a cart')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('h1').textContent()).toBe('Add a cart')
  })

  it('signs out: the console is closed to that browser again', async () => {
    const { page, problems } = await signedIn()
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForLoadState()
    expect(new URL(page.url()).pathname).toBe('/staff/login')
    await page.goto(`${partner.api.url}/staff`)
    expect(new URL(page.url()).pathname).toBe('/staff/login')
    expect(problems).toEqual([])
  })
})
