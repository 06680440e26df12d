import type { Page } from '@playwright/test'
import type { GolfCart } from '../../domain/golf-cart.ts'
import type { TestServer } from '../support/test-server.ts'
import { desktop, expect, onPhone, phone, test, visitHydrated } from './fixtures.ts'

/**
 * Compare and Save in Chromium (PRODUCT.md, "compare and save"): the cards' toggles, the
 * header's links, /compare and /saved, kept in this browser's local storage across reloads, with
 * no account and no cookie.
 */
const firstCarts = async (server: TestServer, n: number) => (await (await fetch(`${server.url}/api/golf-carts?limit=${n}`)).json()) as GolfCart[]
const card = (page: Page, title: string) => page.locator('.gc-card').filter({ has: page.getByRole('heading', { name: title, exact: true }) })

test.describe('compare and save', () => {
  test.describe('on a phone', () => {
    test.use(onPhone)

    test('saves carts at 390 px, keeps them across reloads, lists them at /saved and takes one out there', async ({ page, context, server, axe }) => {
      const [a, b] = await firstCarts(server, 2)
      await page.goto(`${server.url}/inventory`)
      const save = (title: string) => card(page, title).getByRole('button', { name: `Save ${title}` })
      await save(a!.title).click()
      await save(b!.title).click()
      await expect(save(a!.title)).toHaveAttribute('aria-pressed', 'true')
      const savedLink = page.locator('.site-header').getByRole('link', { name: 'Saved carts (2)' })
      await expect(savedLink).toBeVisible()

      await page.reload()
      await expect(save(b!.title)).toHaveAttribute('aria-pressed', 'true')
      expect(await context.cookies()).toEqual([])

      const titles = page.locator('main .gc-card h2')
      await savedLink.click()
      await page.waitForURL(`**/saved?carts=${a!.slug},${b!.slug}`)
      await expect(titles).toHaveText([a!.title, b!.title])
      // The bare address shows this browser's list too: the script opens it with the slugs.
      await page.goto(`${server.url}/saved`)
      await page.waitForURL(`**/saved?carts=${a!.slug},${b!.slug}`)
      await expect(titles).toHaveText([a!.title, b!.title])
      await page.screenshot({ path: '/tmp/gc-saved-390.png', fullPage: true })
      await save(a!.title).click()
      await page.waitForURL(`**/saved?carts=${b!.slug}`)
      await expect(titles).toHaveText([b!.title])
      expect(await axe(page, { include: 'main' })).toEqual([])
    })
  })

  test.describe('at a desk', () => {
    test.use({ viewport: desktop })

    test('compares three carts chosen on their cards, a fourth taking the first one\'s place, and removes one', async ({ page, server, problems, axe }) => {
      const [a, b, c, d] = await firstCarts(server, 4)
      // A fresh context: nothing chosen before.
      await visitHydrated(page, `${server.url}/inventory`)
      const compare = (title: string) => card(page, title).getByRole('button', { name: `Compare ${title}` })
      for (const cart of [a!, b!, c!, d!]) await compare(cart.title).click()
      await expect(compare(a!.title)).toHaveAttribute('aria-pressed', 'false')
      await page.locator('.site-header').getByRole('link', { name: 'Compare 3 carts' }).click()
      await page.waitForURL(`**/compare?carts=${b!.slug},${c!.slug},${d!.slug}`)
      const table = page.getByRole('table')
      await expect(table.getByRole('columnheader')).toHaveText([b!, c!, d!].map((cart) => `${cart.title}Remove ${cart.title}`))
      await expect(table.getByRole('rowheader').first()).toHaveText('Price')
      expect(await axe(page, { include: 'main' })).toEqual([])
      await page.screenshot({ path: '/tmp/gc-compare-1280.png', fullPage: true })

      await table.getByRole('link', { name: `Remove ${c!.title}` }).click()
      await page.waitForURL(`**/compare?carts=${b!.slug},${d!.slug}`)
      await expect(page.getByRole('table').getByRole('columnheader')).toHaveCount(2)
      // The list the cards show follows the page: the removed cart is no longer chosen.
      await expect(page.locator('.site-header').getByRole('link', { name: 'Compare 2 carts' })).toBeVisible()
      expect(problems).toEqual([])
    })
  })

  for (const [name, viewport] of [
    ['320', { width: 320, height: 700 }],
    ['390', phone],
  ] as const) {
    test.describe(`at ${name} px`, () => {
      test.use({ viewport })

      test('reads three carts side by side without scrolling sideways', async ({ page, server, axe }) => {
        const [a, b, c] = await firstCarts(server, 3)
        await visitHydrated(page, `${server.url}/compare?carts=${a!.slug},${b!.slug},${c!.slug}`)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
        const cells = await page
          .locator('.compare-table tbody tr')
          .first()
          .locator('td')
          .evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().width))
        expect(cells).toHaveLength(3)
        for (const width of cells) expect(width).toBeGreaterThan(70)
        expect(await axe(page, { include: 'main' })).toEqual([])
        await page.screenshot({ path: `/tmp/gc-compare-${name}.png`, fullPage: true })
      })
    })
  }
})
