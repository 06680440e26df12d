import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import express from 'express'
import { startingInventory } from '../../api/carts/starting-inventory.ts'
import { staffPassword } from '../support/staff.ts'
import { addLoader, cards, desktop, expect, phone, test as base } from './fixtures.ts'

/**
 * The staff console in Chromium (issue #15): sign-in, the inventory, the cart form, sign-out.
 *
 * A partner's page of the test's own HTML, on another origin than the server's (allowed, as a
 * partner's is), shows the server's `<gc-inventory>`: a page Playwright merely fulfilled could
 * not ask a loopback server for anything.
 */
const test = base.extend<object, { shopPages: { origin: string; write: (body: string) => string } }>({
  shopPages: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const written = new Map<string, string>()
      const app = express().get('/written/:name', (req, res) => void res.type('html').send(written.get(req.params.name)))
      const site: Server = app.listen(0, '127.0.0.1')
      await new Promise((resolve) => site.once('listening', resolve))
      const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
      await use({
        origin,
        write: (body) => {
          const name = `page-${written.size}`
          written.set(name, `<!doctype html><html lang="en"><head><title>A partner page</title></head><body>${body}</body></html>`)
          return `${origin}/written/${name}`
        },
      })
      await new Promise((resolve) => site.close(resolve))
    },
    { scope: 'worker' },
  ],
  serverEnv: [async ({ shopPages }, use) => use({ ALLOWED_ORIGINS: shopPages.origin }), { scope: 'worker' }],
})

test.use({
  // nico is signed in only to sign out: the worker's session of maria stays good for the others.
  staffAccounts: [[{ username: 'maria' }, { username: 'nico' }], { scope: 'worker' }],
  // Chromium reports a refused sign-in (401) or form (400) as a console error: the refusal is the point.
  expectedProblems: /status of 40[01]\b|^40[01]: /,
})

const onSignIn = (url: URL) => url.pathname === '/staff/login'

/** Fills the sign-in form and sends it; the test asserts where it leads. */
async function signIn(page: Page, username = 'maria', password = staffPassword) {
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** The inventory, signed in. */
async function inventory(page: Page, site: string) {
  await page.goto(`${site}/staff`)
  await expect(page.locator('h1')).toHaveText('Inventory')
}

test.describe('the staff console', () => {
  test.describe('signed out', () => {
    test('sends a visitor without a session to the sign-in form, refuses a wrong password beside it and keeps the username', async ({ page, server, problems }) => {
      await page.goto(`${server.url}/staff`)
      await expect(page).toHaveURL(onSignIn)
      await expect(page).toHaveTitle('Sign in | Staff console')
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow')
      await signIn(page, 'maria', 'not the password at all')
      const alert = page.getByRole('alert')
      await expect(alert).toHaveText('That username and password do not match an account.')
      await expect(page).toHaveURL(onSignIn)
      await expect(page.getByLabel('Username')).toHaveValue('maria')
      await expect(page.getByLabel('Password')).toHaveValue('')
      await expect(page.getByLabel('Username')).toHaveAttribute('aria-describedby', (await alert.getAttribute('id'))!)
      await page.getByLabel('Password').fill(staffPassword)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect(page.locator('h1')).toHaveText('Inventory')
      await expect(page).toHaveURL((url) => url.pathname === '/staff')
      expect(problems).toEqual([])
    })

    for (const [name, viewport] of [
      ['phone', phone],
      ['desk', desktop],
    ] as const) {
      test.describe(`on a ${name}`, () => {
        test.use({ viewport })

        test('has no accessibility violations (sign-in, inventory, cart form)', async ({ page, server, axe }) => {
          await page.goto(`${server.url}/staff`)
          await expect(page).toHaveURL(onSignIn)
          expect(await axe()).toEqual([])
          await signIn(page, 'maria', 'wrong password, twice over')
          await expect(page.getByRole('alert')).toHaveText('That username and password do not match an account.')
          expect(await axe()).toEqual([])
          await signIn(page)
          await expect(page.locator('h1')).toHaveText('Inventory')
          expect(await axe()).toEqual([])
          await page.getByRole('link', { name: 'Add a cart' }).click()
          await expect(page.locator('h1')).toHaveText('Add a cart')
          expect(await axe()).toEqual([])
          const width = await page.evaluate(() => document.documentElement.scrollWidth)
          expect(width).toBeLessThanOrEqual(viewport.width)
        })
      })
    }

    test('works from the keyboard alone, with a visible focus', async ({ page, server }) => {
      await page.goto(`${server.url}/staff`)
      // The sign-in page starts in its first field.
      await expect(page.locator('#username')).toBeFocused()
      await page.keyboard.type('maria')
      await page.keyboard.press('Tab')
      await page.keyboard.type(staffPassword)
      await page.keyboard.press('Enter')
      await expect(page.locator('h1')).toHaveText('Inventory')
      await page.keyboard.press('Tab')
      const focused = page.locator(':focus')
      await expect(focused).toHaveText('Skip to main content')
      await expect(focused).toHaveCSS('outline-style', 'solid')
      await page.keyboard.press('Enter')
      // The skip link takes the focus to the main region (a fragment navigation, which can land
      // after a key pressed at once); from there, the next stop is the first thing in the page.
      await expect(page.locator('#main')).toBeFocused()
      await page.keyboard.press('Tab')
      await expect(focused).toHaveText('Add a cart')
      await page.keyboard.press('Enter')
      await expect(page.locator('h1')).toHaveText('Add a cart')
    })
  })

  test.describe('signed in', () => {
    test.use({ signedInAs: 'maria' })

    test('lists the inventory in a table with search, status filter, sort and paging carried by the address', async ({ page, server, problems }) => {
      // 60 more carts than the seed, so the table has a second page.
      const records = server.runtime.services.staff.cartRecords
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
      await inventory(page, server.url)
      const rows = page.locator('table.staff-table tbody tr')
      await expect(rows).toHaveCount(50)
      // The seed's size comes from the starting inventory, not from memory (no test before this
      // one in the file adds a cart).
      const total = startingInventory().length + 60
      await expect(page.locator('#inventory-count')).toHaveText(`1–50 of ${total} carts`)
      await page.getByRole('link', { name: 'Next' }).click()
      await expect(page).toHaveURL((url) => url.search === '?page=2')
      await expect(rows).toHaveCount(Math.min(50, total - 50))
      await expect(page.locator('.staff-pager')).toContainText(`Page 2 of ${Math.ceil(total / 50)}`)

      await page.getByLabel('Search').fill('fleet')
      await page.getByLabel('Status', { exact: true }).selectOption('hold')
      await page.getByLabel('Sort').selectOption('price-desc')
      await page.getByRole('button', { name: 'Show carts' }).click()
      await expect(page).toHaveURL((url) => url.searchParams.get('q') === 'fleet')
      await expect(page.locator('#inventory-count')).toHaveText('1–6 of 6 carts')
      const titles = [60, 50, 40, 30, 20, 10].map((i) => `2024 Evolution Classic 2 Plus Fleet ${i}`)
      await expect(page.locator('.staff-table__cart a')).toHaveText(titles)
      // The address is the state: opened afresh, the same table.
      await page.goto(page.url())
      await expect(page.getByLabel('Search')).toHaveValue('fleet')
      await expect(page.locator('.staff-table__cart a')).toHaveText(titles)
      expect(problems).toEqual([])
    })

    test('shows the rental calendar without accessibility violations or sideways scroll on a phone and a desk, and confirms from the keyboard', async ({ server, staffSession, newPage, axe }) => {
      const start = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)
      const sent = await fetch(`${server.url}/api/contact`, {
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
        const { page, problems } = await newPage({ viewport, storageState: await staffSession('maria') })
        await page.goto(`${server.url}/staff/rentals`)
        await expect(page.locator('h1')).toHaveText('Rental calendar')
        const request = page.locator('.rental-request', { hasText: 'Cal Endar' })
        await expect(request).toHaveCount(1)
        expect(await axe(page)).toEqual([])
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
        if (viewport === desktop) {
          await request.getByRole('button', { name: /^Confirm/ }).focus()
          await page.keyboard.press('Enter')
          await expect(page.locator('.staff-alert--done')).toHaveText(/^Confirmed lead \d+/)
          await expect(request.locator('.staff-badge')).toHaveText('Confirmed')
          expect(await axe(page)).toEqual([])
        }
        expect(problems).toEqual([])
      }
    })

    test('adds a cart through the form, with a live preview and errors beside the fields; changes its price and marks it sold from the list', async ({ page, server, shopPages, newPage, problems, axe }) => {
      test.setTimeout(120_000)
      const site = server.url
      await inventory(page, site)
      await page.getByRole('link', { name: 'Add a cart' }).click()
      await expect(page.locator('h1')).toHaveText('Add a cart')
      await expect(page.locator('html')).toHaveAttribute('data-staff-ready')

      // The preview follows the form as staff type, from the title's derivation and the stored facts.
      const previewRow = (name: string) => page.locator('#spec-preview .staff-preview__row', { hasText: name }).locator('dd')
      await page.getByLabel('Title').fill('2024 Evolution D6 Max XT6 Lot Special')
      await expect(previewRow('Seating')).toHaveText('6 Passengers')
      await page.getByLabel('Seats').fill('4')
      await expect(previewRow('Seating')).toHaveText('4 Passengers')
      await page.getByLabel('Battery').selectOption('lead-acid')
      await expect(previewRow('Battery Type')).toHaveText('Lead Acid')
      await page.getByLabel('Condition').selectOption('used')
      await expect(previewRow('Category')).toHaveText('USED')

      // Refused: each problem beside its field, nothing typed lost.
      await page.getByLabel('Description').fill('Traded in this week: new tires, lights, and a fresh lead-acid pack.')
      await page.getByLabel('Price', { exact: true }).fill('12,9x5')
      await page.getByLabel('VIN').fill('1HGCM82633A00435')
      await page.getByLabel('Stock number').fill('LOT-0042')
      await page.getByLabel('Featured on the home page').check()
      await page.getByRole('button', { name: 'Publish' }).click()
      await expect(page.locator('#field-price-error')).toHaveText('Price must be a number of dollars, like 12995')
      await expect(page.locator('#field-vin-error')).toHaveText(/17/)
      await expect(page.getByLabel('Price', { exact: true })).toHaveAttribute('aria-invalid', 'true')
      await expect(page.getByLabel('Title')).toHaveValue('2024 Evolution D6 Max XT6 Lot Special')
      await expect(page.getByLabel('Seats')).toHaveValue('4')
      await expect(page.getByLabel('Stock number')).toHaveValue('LOT-0042')
      await expect(page.getByLabel('Featured on the home page')).toBeChecked()
      await expect(previewRow('Seating')).toHaveText('4 Passengers')
      await expect(page.getByRole('alert')).toContainText('2 fields need a change')
      expect(await axe()).toEqual([])

      await page.getByLabel('Price', { exact: true }).fill('13,250')
      await page.getByLabel('VIN').fill('')
      await page.getByRole('button', { name: 'Publish' }).click()
      await expect(page.getByRole('status')).toContainText('Published: it is on the site now.')
      await expect(page).toHaveURL(/\/staff\/carts\/\d+$/)
      await expect(page.locator('.staff-history')).toContainText('maria added the cart')
      const slug = '2024-evolution-d6-max-xt6-lot-special'

      // On the site at once: the inventory, its page, a partner's <gc-inventory> and the featured set.
      const { page: visitor } = await newPage({ viewport: desktop })
      await visitor.goto(`${site}/inventory?category=used`)
      const usedCarts = visitor.locator('.gc-inventory .gc-card img')
      await expect(usedCarts).toHaveCount(1)
      await expect(usedCarts).toHaveAttribute('alt', '2024 Evolution D6 Max XT6 Lot Special')
      await visitor.goto(`${site}/vehicle/${slug}`)
      await expect(visitor.locator('main h1')).toHaveText('2024 Evolution D6 Max XT6 Lot Special')
      await expect(visitor.locator('main')).toContainText('$13,250')
      await expect(visitor.locator('.gc-spec-row', { hasText: 'Seating' })).toHaveText('Seating4 Passengers')
      const { page: embed } = await newPage()
      await embed.goto(shopPages.write(`<gc-inventory api-base="${site}" category="used"></gc-inventory>`))
      await addLoader(embed, site)
      await expect(cards(embed, 'gc-inventory')).toHaveText([/Lot Special/])
      const featured = async () => ((await (await fetch(`${site}/api/golf-carts/featured`)).json()) as { slug: string }[]).map((c) => c.slug)
      expect(await featured()).toContain(slug)

      // The price, in one step from the list.
      await page.goto(`${site}/staff?q=lot+special`)
      await page.getByLabel('Price of 2024 Evolution D6 Max XT6 Lot Special').fill('12750')
      await page.getByRole('button', { name: 'Save 2024 Evolution D6 Max XT6 Lot Special' }).click()
      await expect(page.getByRole('status')).toHaveText('Saved 2024 Evolution D6 Max XT6 Lot Special: $12,750, In Stock, featured.')
      await expect(page).toHaveURL((url) => url.searchParams.get('q') === 'lot special')
      await visitor.goto(`${site}/vehicle/${slug}`)
      await expect(visitor.locator('main')).toContainText('$12,750')

      // Sold, in one step once confirmed: it leaves every list and the featured set; its page says Sold.
      await page.getByLabel('Status of 2024 Evolution D6 Max XT6 Lot Special').selectOption('sold')
      const asked: string[] = []
      page.once('dialog', (dialog) => void dialog.dismiss().then(() => asked.push(dialog.message())))
      await page.getByRole('button', { name: 'Save 2024 Evolution D6 Max XT6 Lot Special' }).click()
      await expect.poll(() => asked).toEqual([expect.stringMatching(/^Mark 2024 Evolution D6 Max XT6 Lot Special as sold\?/)])
      await expect(page).toHaveURL((url) => url.pathname === '/staff')
      page.once('dialog', (dialog) => void dialog.accept())
      await page.getByRole('button', { name: 'Save 2024 Evolution D6 Max XT6 Lot Special' }).click()
      await expect(page.getByRole('status')).toContainText('Sold')
      await visitor.goto(`${site}/inventory?category=used`)
      // The list has loaded, and says it is empty.
      await expect(visitor.locator('.gc-inventory .gc-empty')).toBeVisible()
      await expect(visitor.locator('.gc-inventory .gc-card')).toHaveCount(0)
      expect(await featured()).not.toContain(slug)
      await embed.reload()
      await addLoader(embed, site)
      await expect(embed.locator('gc-inventory .gc-empty')).toBeVisible()
      expect(await embed.locator('gc-inventory').evaluate((el) => el.shadowRoot?.textContent ?? '')).not.toContain('Lot Special')
      await visitor.goto(`${site}/vehicle/${slug}`)
      await expect(visitor.locator('.gc-spec-row', { hasText: 'Availability' })).toHaveText('AvailabilitySold')

      // Its history in the console names each change.
      await page.getByRole('link', { name: '2024 Evolution D6 Max XT6 Lot Special' }).click()
      const history = page.locator('.staff-history li')
      await expect(history.nth(0)).toHaveText(/maria changed Status from In Stock to Sold$/)
      await expect(history.nth(1)).toHaveText(/maria changed Price from \$13,250 to \$12,750$/)
      expect(await axe()).toEqual([])
      expect(problems).toEqual([])
    })

    test('orders the featured carts on a phone and a desk, with plain form posts', async ({ server, staffSession, newPage, axe }) => {
      const { sql } = server.db
      const three = await sql<{ id: number }[]>`select id from golf_carts where status = 'available' order by id limit 3`
      await sql`update golf_carts set featured = true where id in ${sql(three.map((cart) => cart.id))}`
      const held = three[2]!.id
      await sql`update golf_carts set status = 'hold' where id = ${held}`
      try {
        for (const viewport of [phone, desktop]) {
          const { page, problems } = await newPage({ viewport, storageState: await staffSession('maria') })
          await inventory(page, server.url)
          await page.getByRole('link', { name: 'Featured order' }).click()
          await expect(page.locator('h1')).toHaveText('Featured carts')
          await expect(page.locator(`#featured-${held}`)).toContainText('On Hold: not shown')
          expect(await axe(page)).toEqual([])
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
          await page.screenshot({ path: `/tmp/gc-featured-${viewport === phone ? 'phone' : 'desk'}.png`, fullPage: true })
          const titles = page.locator('.staff-featured__cart > .staff-featured__facts > a')
          const before = await titles.allTextContents()
          // The second moves up: the page comes back with it first, and says so.
          await page.locator('.staff-featured__cart').nth(1).getByRole('button', { name: /^Up/ }).click()
          await expect(page.locator('[role="status"]')).toHaveText(`${before[1]} is now number 1.`)
          await expect(titles).toHaveText([before[1]!, before[0]!, ...before.slice(2)])
          expect(problems).toEqual([])
        }
      } finally {
        await sql`update golf_carts set status = 'available' where id = ${held}`
      }
    })

    test('applies one change to the ticked carts, with the script and without it, and says so once', async ({ page: withScript, server, staffSession, newPage }) => {
      // Without JavaScript, on a phone: the boxes post `ids` as a list, read by the procedure's schema.
      const { page } = await newPage({ viewport: phone, javaScriptEnabled: false, storageState: await staffSession('maria') })
      for (const [tab, hold, back] of [
        [page, 'Put on hold', 'Mark available'],
        [withScript, 'Feature', 'Stop featuring'],
      ] as const) {
        await tab.goto(`${server.url}/staff?sort=oldest&status=available`)
        const boxes = tab.locator('input[type=checkbox][form="bulk-change"]')
        const names = await tab.locator('.staff-table__cart a').allTextContents()
        await boxes.nth(0).check()
        await boxes.nth(1).check()
        await tab.getByLabel('With the selected carts').selectOption({ label: hold })
        await tab.getByRole('button', { name: 'Apply to selected' }).click()
        await expect(tab.getByRole('status').first()).toHaveText(/^2 carts (put on hold|featured)\.$/)
        await expect(tab).toHaveURL(/\/staff\?sort=oldest&status=available$/)
        await tab.reload()
        await expect(tab.locator('.staff-table__cart a').first()).toBeVisible()
        await expect(tab.locator('.staff-alert--done')).toHaveCount(0)
        // Back as they were, the same way.
        await tab.goto(`${server.url}/staff?sort=oldest`)
        for (const name of names.slice(0, 2)) await tab.getByLabel(`Select ${name}`, { exact: true }).check()
        await tab.getByLabel('With the selected carts').selectOption({ label: back })
        await tab.getByRole('button', { name: 'Apply to selected' }).click()
        await expect(tab.locator('.staff-alert--done')).toHaveText(/^2 carts (marked available|no longer featured)\.$/)
        await expect(tab).toHaveURL(/\/staff\?sort=oldest$/)
      }
    })
  })

  test.describe('signed in to sign out', () => {
    test.use({ signedInAs: 'nico' })

    test('signs out: the console is closed to that browser again', async ({ page, server, problems }) => {
      await inventory(page, server.url)
      await page.getByRole('button', { name: 'Sign out' }).click()
      await expect(page).toHaveURL(onSignIn)
      await page.goto(`${server.url}/staff`)
      await expect(page).toHaveURL(onSignIn)
      expect(problems).toEqual([])
    })
  })
})
