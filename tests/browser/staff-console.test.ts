import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../support/browser.ts'
import { addLoader, cards, usePartnerPages } from '../support/partner-pages.ts'
import { desktop, phone } from '../support/site-visits.ts'
import { addStaff, keptConsoleTabs, staffPassword } from '../support/staff.ts'
import { startingInventory } from '../../api/carts/starting-inventory.ts'

/** The staff console in Chromium (issue #15): sign-in, the inventory, the cart form, sign-out. */
const partner = usePartnerPages({ site: true })

beforeAll(async () => {
  await addStaff(partner.api)
})

interface Console {
  page: Page
  problems: string[]
}

/** Chromium reports a refused sign-in (401) or form (400) as a console error: the refusal is the point. */
const refusals = /status of 40[01]\b/

/** A fresh browser at the sign-in page, recording errors. */
async function openConsole(viewport = desktop): Promise<Console> {
  const page = await (await partner.newContext({ viewport })).newPage()
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => m.type() === 'error' && !refusals.test(m.text()) && problems.push(`console: ${m.text()}`))
  await page.goto(`${partner.api.url}/staff`)
  return { page, problems }
}

async function signIn(page: Page, username = 'maria', password = staffPassword) {
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForLoadState()
}

const consoleTab = keptConsoleTabs(partner, refusals)
/** The inventory, signed in as maria, at `viewport`, in the file's kept console tab. */
async function signedIn(viewport = desktop): Promise<Console> {
  const tab = await consoleTab('maria', viewport)
  await expect.poll(() => tab.page.locator('h1').textContent()).toBe('Inventory')
  return tab
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
          condition: 'new',
          status: i % 10 === 0 ? 'hold' : 'available',
          location: 'bayville',
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
    // The seed's size comes from the starting inventory, not from memory.
    const total = startingInventory().length + 60
    expect(await page.locator('#inventory-count').textContent()).toBe(`1–50 of ${total} carts`)
    await page.getByRole('link', { name: 'Next' }).click()
    await page.waitForLoadState()
    expect(new URL(page.url()).search).toBe('?page=2')
    expect(await rows.count()).toBe(Math.min(50, total - 50))
    expect(await page.locator('.staff-pager').textContent()).toContain(`Page 2 of ${Math.ceil(total / 50)}`)

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

  it('shows the rental calendar without accessibility violations or sideways scroll on a phone and a desk, and confirms from the keyboard', async () => {
    const start = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)
    const sent = await fetch(`${partner.api.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Cal',
        lastName: 'Endar',
        email: 'cal.endar@example.com',
        rental: { cartType: '4-seater', plan: '3-day', startDate: start, pickup: 'delivery', street: '9 Dune Rd', town: 'Ocean City', zip: '08226' },
      }),
    })
    expect(sent.status).toBe(201)
    for (const viewport of [phone, desktop]) {
      const { page, problems } = await signedIn(viewport)
      await page.goto(`${partner.api.url}/staff/rentals`)
      await expect.poll(() => page.locator('h1').textContent()).toBe('Rental calendar')
      expect(await page.locator('.rental-request', { hasText: 'Cal Endar' }).count()).toBe(1)
      expect(await axeViolations(page)).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
      if (viewport === desktop) {
        await page.locator('.rental-request', { hasText: 'Cal Endar' }).getByRole('button', { name: /^Confirm/ }).focus()
        await page.keyboard.press('Enter')
        await expect.poll(() => page.locator('.staff-alert--done').textContent()).toMatch(/^Confirmed lead \d+/)
        expect(await page.locator('.rental-request', { hasText: 'Cal Endar' }).locator('.staff-badge').textContent()).toBe('Confirmed')
        expect(await axeViolations(page)).toEqual([])
      }
      expect(problems).toEqual([])
    }
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
    // The skip link takes the focus to the main region (a fragment navigation, which can land
    // after a key pressed at once); from there, the next stop is the first thing in the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Add a cart')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('h1').textContent()).toBe('Add a cart')
  })

  it('adds a cart through the form, with a live preview and errors beside the fields; changes its price and marks it sold from the list', async () => {
    const { page, problems } = await signedIn()
    const site = partner.api.url
    await page.getByRole('link', { name: 'Add a cart' }).click()
    await page.waitForLoadState()
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-staff-ready'))

    // The preview follows the form as staff type, from the title's derivation and the stored facts.
    const previewRow = (name: string) => page.locator('#spec-preview .staff-preview__row', { hasText: name }).locator('dd')
    await page.getByLabel('Title').fill('2024 Evolution D6 Max XT6 Lot Special')
    await expect.poll(() => previewRow('Seating').textContent()).toBe('6 Passengers')
    await page.getByLabel('Seats').fill('4')
    await expect.poll(() => previewRow('Seating').textContent()).toBe('4 Passengers')
    await page.getByLabel('Battery').selectOption('lead-acid')
    await expect.poll(() => previewRow('Battery Type').textContent()).toBe('Lead Acid')
    await page.getByLabel('Condition').selectOption('used')
    await expect.poll(() => previewRow('Category').textContent()).toBe('USED')

    // Refused: each problem beside its field, nothing typed lost.
    await page.getByLabel('Description').fill('Traded in this week: new tires, lights, and a fresh lead-acid pack.')
    await page.getByLabel('Price', { exact: true }).fill('12,9x5')
    await page.getByLabel('VIN').fill('1HGCM82633A00435')
    await page.getByLabel('Stock number').fill('LOT-0042')
    await page.getByLabel('Featured on the home page').check()
    await page.getByRole('button', { name: 'Publish' }).click()
    await page.waitForLoadState()
    expect(await page.locator('#field-price-error').textContent()).toBe('Price must be a number of dollars, like 12995')
    expect(await page.locator('#field-vin-error').textContent()).toMatch(/17/)
    expect(await page.getByLabel('Price', { exact: true }).getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByLabel('Title').inputValue()).toBe('2024 Evolution D6 Max XT6 Lot Special')
    expect(await page.getByLabel('Seats').inputValue()).toBe('4')
    expect(await page.getByLabel('Stock number').inputValue()).toBe('LOT-0042')
    expect(await page.getByLabel('Featured on the home page').isChecked()).toBe(true)
    expect(await previewRow('Seating').textContent()).toBe('4 Passengers')
    expect(await page.getByRole('alert').textContent()).toContain('2 fields need a change')
    expect(await axeViolations(page)).toEqual([])

    await page.getByLabel('Price', { exact: true }).fill('13,250')
    await page.getByLabel('VIN').fill('')
    await page.getByRole('button', { name: 'Publish' }).click()
    await page.waitForLoadState()
    expect(new URL(page.url()).searchParams.get('saved')).toBe('published')
    expect(await page.getByRole('status').textContent()).toContain('Published')
    expect(await page.locator('.staff-history').textContent()).toContain('maria added the cart')
    const slug = '2024-evolution-d6-max-xt6-lot-special'

    // On the site at once: the inventory, its page, a partner's <gc-inventory> and the featured set.
    const visitor = await (await partner.newContext({ viewport: desktop })).newPage()
    await visitor.goto(`${site}/inventory?category=used`)
    expect(await visitor.locator('.gc-inventory .gc-card img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual([
      '2024 Evolution D6 Max XT6 Lot Special',
    ])
    await visitor.goto(`${site}/vehicle/${slug}`)
    expect(await visitor.locator('main h1').textContent()).toBe('2024 Evolution D6 Max XT6 Lot Special')
    expect(await visitor.locator('main').textContent()).toContain('$13,250')
    expect(await visitor.locator('.gc-spec-row', { hasText: 'Seating' }).textContent()).toBe('Seating4 Passengers')
    const embed = await partner.openHtml(`<gc-inventory api-base="${site}" category="used"></gc-inventory>`)
    await addLoader(embed.page, site)
    await expect.poll(() => cards(embed.page, 'gc-inventory').allTextContents()).toEqual([expect.stringContaining('Lot Special')])
    const featured = async () => ((await (await fetch(`${site}/api/golf-carts/featured`)).json()) as { slug: string }[]).map((c) => c.slug)
    expect(await featured()).toContain(slug)

    // The price, in one step from the list.
    await page.goto(`${site}/staff?q=lot+special`)
    await page.getByLabel('Price of 2024 Evolution D6 Max XT6 Lot Special').fill('12750')
    await page.getByRole('button', { name: 'Save 2024 Evolution D6 Max XT6 Lot Special' }).click()
    await page.waitForLoadState()
    expect(await page.getByRole('status').textContent()).toBe('Saved 2024 Evolution D6 Max XT6 Lot Special: $12,750, In Stock, featured.')
    expect(new URL(page.url()).searchParams.get('q')).toBe('lot special')
    await visitor.goto(`${site}/vehicle/${slug}`)
    expect(await visitor.locator('main').textContent()).toContain('$12,750')

    // Sold, in one step once confirmed: it leaves every list and the featured set; its page says Sold.
    await page.getByLabel('Status of 2024 Evolution D6 Max XT6 Lot Special').selectOption('sold')
    const asked: string[] = []
    page.once('dialog', (dialog) => void dialog.dismiss().then(() => asked.push(dialog.message())))
    await page.getByRole('button', { name: 'Save 2024 Evolution D6 Max XT6 Lot Special' }).click()
    await expect.poll(() => asked).toEqual([expect.stringMatching(/^Mark 2024 Evolution D6 Max XT6 Lot Special as sold\?/)])
    expect(new URL(page.url()).pathname).toBe('/staff')
    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: 'Save 2024 Evolution D6 Max XT6 Lot Special' }).click()
    await page.waitForLoadState()
    expect(await page.getByRole('status').textContent()).toContain('Sold')
    await visitor.goto(`${site}/inventory?category=used`)
    expect(await visitor.locator('.gc-inventory .gc-card').count()).toBe(0)
    expect(await featured()).not.toContain(slug)
    await embed.page.reload()
    await addLoader(embed.page, site)
    await expect.poll(() => embed.page.locator('gc-inventory').evaluate((el) => el.shadowRoot?.textContent ?? '')).not.toContain('Lot Special')
    await visitor.goto(`${site}/vehicle/${slug}`)
    expect(await visitor.locator('.gc-spec-row', { hasText: 'Availability' }).textContent()).toBe('AvailabilitySold')

    // Its history in the console names each change.
    await page.getByRole('link', { name: '2024 Evolution D6 Max XT6 Lot Special' }).click()
    await page.waitForLoadState()
    const history = await page.locator('.staff-history li').allTextContents()
    expect(history[0]).toMatch(/maria changed Status from In Stock to Sold$/)
    expect(history[1]).toMatch(/maria changed Price from \$13,250 to \$12,750$/)
    expect(await axeViolations(page)).toEqual([])
    expect(problems).toEqual([])
  }, 120_000)

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
