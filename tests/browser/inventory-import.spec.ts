import { HtmlValidate } from 'html-validate'
import type { Page } from '@playwright/test'
import { staffPaths } from '../../domain/staff-paths.ts'
import { withCheckDigit } from '../../domain/vin.ts'
import type { TestServer } from '../support/test-server.ts'
import { desktop, expect, phone, test } from './fixtures.ts'

/**
 * The console's inventory import in Chromium (issue #17): choose a file, see every problem with
 * nothing changed, or every change, confirm, and the cart is on the site; a refused confirm (409),
 * a too-large file (413) and a dropped connection each say what happened and keep the file chosen.
 * Screenshots of the preview at a phone's and a desk's width go to /tmp for a person to look at.
 */
test.use({
  staffAccounts: [[{ username: 'maria' }], { scope: 'worker' }],
  signedInAs: 'maria',
  // Chromium reports a refused request (409, 413) as a console error: the refusal is the point.
  expectedProblems: /status of 4(09|13)\b|net::ERR_INTERNET_DISCONNECTED|^4(09|13): /,
})

const header = 'stockNumber,title,description,price,status,vin,imageUrl'
const image = '/images/carts/2025-evolution-d5-ranger-4-plus.svg'
const vin = withCheckDigit('5ZEVD5R40S0000777')
const newRow = `IMP-1,2025 Evolution D5 Ranger 4 Plus Lakeside,"Four seats, lead-acid, a lake-blue body.",11995,available,${vin},${image}`

/** Signed in (`signedInAs`), on the import page with its script running. */
async function openImport(page: Page, server: TestServer): Promise<void> {
  await page.goto(`${server.url}/staff`)
  await expect(page.locator('h1')).toHaveText('Inventory')
  await page.getByRole('link', { name: 'Import or export a spreadsheet' }).click()
  await expect(page.locator('h1')).toHaveText('Import and export')
  await expect(page.locator('html')).toHaveAttribute('data-staff-ready')
}

const csv = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) })
const choose = (page: Page, file: ReturnType<typeof csv>) => page.getByLabel('Choose a CSV file').setInputFiles(file)
const resultHeading = (page: Page) => page.locator('#import-result')
const cartCount = async (server: TestServer) => (await server.db.sql<{ n: number }[]>`select count(*)::int as n from golf_carts`)[0]!.n

/** A cart of the seed, by its first id, as the file must name it to change it. */
async function firstCart(server: TestServer) {
  const [cart] = await server.db.sql<{ id: number; stockNumber: string; title: string; price: number; imageUrl: string }[]>`
    select id, stock_number, title, price::float8 as price, image_url from golf_carts order by id limit 1
  `
  return cart!
}

test.describe('the console inventory import', () => {
  test('lists every problem of a bad file and changes nothing; previews a good one, confirms it, and the cart is on /inventory', async ({ page, server, problems, axe, newPage }) => {
    await openImport(page, server)
    await expect(page.locator('nav[aria-label="Console"] a[aria-current="page"]')).toHaveText('Import and export')
    await expect(page.getByRole('link', { name: 'Download the inventory (CSV)' })).toHaveAttribute('href', staffPaths.inventoryExport)
    expect(await axe()).toEqual([])
    // The page as the server sends it (what works before and without the script) is valid HTML.
    const html = await (await page.request.get(`${server.url}${staffPaths.inventoryImport}`)).text()
    expect(html).toContain('<h1>Import and export</h1>')
    const report = await new HtmlValidate({ extends: ['html-validate:standard'] }).validateString(html, staffPaths.inventoryImport)
    expect(report.results.flatMap((r) => r.messages.map((m) => `${m.line} ${m.ruleId}: ${m.message}`))).toEqual([])

    // One bad row among good ones: every problem with its line, column and reason; nothing written.
    const before = await cartCount(server)
    await choose(page, csv('bad.csv', `${header}\n${newRow}\nIMP-2,A second cart,Two seats.,ask,gone,,${image}\n`))
    await expect(resultHeading(page)).toHaveText('2 problems in bad.csv: nothing was changed')
    const rows = page.locator('.staff-import__result tbody tr')
    await expect(rows).toHaveText([/^3\s+price\s+Price must be a number/, /^3\s+status\s+Status must be draft, available, hold or sold/], { useInnerText: true })
    await expect(resultHeading(page)).toBeFocused()
    expect(await cartCount(server)).toBe(before)
    expect(await axe(page, { include: '.staff-import' })).toEqual([])

    // A good file: the added cart with its line and main fields, the changed one field by field.
    const cart = await firstCart(server)
    const good = `${header}\n${newRow}\n${cart.stockNumber},${cart.title},Four seats.,${cart.price + 500},available,,${cart.imageUrl}\n`
    await choose(page, csv('good.csv', good))
    await expect(resultHeading(page)).toHaveText('Preview of good.csv')
    await expect(page.locator('.staff-import__summary')).toHaveText(
      'The file adds 1 cart, changes 1 cart and leaves 0 carts as they are. Nothing is written until you confirm.',
    )
    const added = page.locator('table', { hasText: 'Carts the file adds' }).locator('tbody tr')
    await expect(added).toHaveText(/^2\s+2025 Evolution D5 Ranger 4 Plus Lakeside\s+New · VIN \w{17}\s+IMP-1\s+\$11,995\s+available$/, { useInnerText: true })
    const changed = page.locator('table', { hasText: 'Carts the file changes' }).locator('tbody tr')
    await expect(changed.locator('td').first()).toHaveText('3')
    await expect(changed.locator('li', { hasText: 'price' })).toHaveText(
      `price: $${cart.price.toLocaleString('en-US')} → becomes $${(cart.price + 500).toLocaleString('en-US')}`,
    )
    expect(await changed.locator('li').count()).toBeGreaterThanOrEqual(2) // the description too
    expect(await cartCount(server)).toBe(before)
    expect(await axe(page, { include: '.staff-import' })).toEqual([])
    await page.screenshot({ path: '/tmp/gc-import-preview-desk.png', fullPage: true })

    await page.getByRole('button', { name: 'Confirm the import' }).click()
    await expect(resultHeading(page)).toHaveText('good.csv is imported')
    await expect(page.locator('.staff-import__result .staff-alert--done')).toHaveText(/^1 cart added, 1 cart changed, 0 carts unchanged\./)
    expect(await cartCount(server)).toBe(before + 1)
    await expect(page.getByText('No file chosen.')).toHaveCount(1)

    const { page: site } = await newPage({ viewport: desktop })
    await site.goto(`${server.url}/inventory?q=Lakeside`)
    await expect(site.locator('.gc-card', { hasText: '2025 Evolution D5 Ranger 4 Plus Lakeside' })).toHaveCount(1)
    expect(problems).toEqual([])
  })

  test('says when the inventory changed since the preview (409), when a file is too large (413) or the connection dropped, keeping the file chosen', async ({ page, server, problems, axe }) => {
    await openImport(page, server)
    const cart = await firstCart(server)
    const file = csv('prices.csv', `${header}\n${cart.stockNumber},${cart.title},Four seats.,${cart.price + 1},available,,${cart.imageUrl}\n`)

    // Someone changes the cart between the preview and the confirm: refused, nothing written.
    await choose(page, file)
    await expect(resultHeading(page)).toHaveText('Preview of prices.csv')
    await server.db.sql`update golf_carts set featured = not featured where id = ${cart.id}`
    await page.getByRole('button', { name: 'Confirm the import' }).click()
    const alert = page.getByRole('alert')
    await expect(alert).toHaveText(/changed since the preview.*Nothing was imported\. Check the file again/)
    expect((await firstCart(server)).price).toBe(cart.price)
    await expect(page.locator('#import-chosen')).toHaveText(/^Chosen: prices\.csv/)
    await page.getByRole('button', { name: 'Check the file again' }).click()
    await expect(resultHeading(page)).toHaveText('Preview of prices.csv')
    await expect(page.getByRole('alert')).toHaveCount(0)

    // The connection drops while checking: said so, the file still chosen, one button to retry.
    await page.route(`**${staffPaths.inventoryCheckApi}`, (route) => route.abort('internetdisconnected'))
    await page.getByRole('button', { name: 'Cancel' }).click()
    await choose(page, file)
    await expect(alert).toHaveText(/connection dropped.*file is still chosen/)
    await expect(page.locator('#import-chosen')).toHaveText(/^Chosen: prices\.csv/)
    await page.unroute(`**${staffPaths.inventoryCheckApi}`)
    await page.getByRole('button', { name: 'Check the file again' }).click()
    await expect(resultHeading(page)).toHaveText('Preview of prices.csv')

    // The server refuses a file over the limit before reading it (413): its reason, and what to do.
    await page.route(`**${staffPaths.inventoryCheckApi}`, (route) =>
      route.fulfill({ status: 413, contentType: 'application/json', body: JSON.stringify({ message: 'The file is larger than 50 MB.', issues: [] }) }),
    )
    await choose(page, file)
    await expect(alert).toHaveText('The file is larger than 50 MB. Split it into smaller files and import them one at a time.')
    expect(await axe(page, { include: '.staff-import' })).toEqual([])
    expect(problems).toEqual([])
  })

  test.describe('on a phone', () => {
    test.use({ viewport: phone })

    test('works on a phone: the preview and the problems fit 390 px, every control reachable', async ({ page, server, problems, axe }) => {
      await openImport(page, server)
      const cart = await firstCart(server)
      await choose(
        page,
        csv('phone.csv', `${header}\n${cart.stockNumber},${cart.title},A description written on the lot.,${cart.price + 2},hold,,${cart.imageUrl}\nIMP-3,2025 Denago EV Rover XL Lot Special,Six seats.,15995,available,,${image}\n`),
      )
      await expect(resultHeading(page)).toHaveText('Preview of phone.csv')
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width)
      const confirm = await page.getByRole('button', { name: 'Confirm the import' }).boundingBox()
      expect(confirm!.height).toBeGreaterThanOrEqual(44)
      expect(await axe()).toEqual([])
      await page.screenshot({ path: '/tmp/gc-import-preview-phone.png', fullPage: true })

      await choose(page, csv('phone-bad.csv', `${header}\nIMP-4,,No title.,5,available,,${image}\n`))
      await expect(resultHeading(page)).toHaveText('1 problem in phone-bad.csv: nothing was changed')
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phone.width)
      await page.screenshot({ path: '/tmp/gc-import-problems-phone.png', fullPage: true })
      expect(problems).toEqual([])
    })
  })
})
