import type { Page } from '@playwright/test'
import { business } from '../../domain/business.ts'
import { desktop, expect, phone, test, visitHydrated } from './fixtures.ts'

/**
 * A phone-first shop (PRODUCT.md, "phone first"): at 390 px the header shows the number to call,
 * the home page's first featured cart is within two screens, and the vehicle page has its price
 * above the fold and a bar of Call and Get Quote at the bottom, over the content, that never
 * covers the footer's links.
 */
const vehicle = '/vehicle/2025-evolution-d5-maverick-2-2'
const rect = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect()
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }
    })

test.describe('phone first', () => {
  test.describe('at 390 px', () => {
    test.use({ viewport: phone })

    test('shows the phone number in the header and the first featured cart within two screens', async ({ page, server, problems }) => {
      await visitHydrated(page, `${server.url}/`)
      const call = page.locator('.site-header').getByRole('link', { name: `Call ${business.tollFree.display}` })
      await expect(call).toBeVisible()
      await expect(call).toHaveAttribute('href', `tel:${business.tollFree.tel}`)
      const card = await rect(page, '.gc-featured .gc-card')
      expect(card.top).toBeLessThan(2 * phone.height)
      await page.screenshot({ path: '/tmp/gc-home-390.png', fullPage: true })
      expect(problems).toEqual([])
    })

    test('puts the vehicle\'s price above the fold and a call bar over the content that clears the footer\'s links', async ({ page, server, problems, axe }) => {
      await visitHydrated(page, `${server.url}${vehicle}`)
      const price = await rect(page, '.gc-vehicle__price')
      expect(price.bottom).toBeLessThan(phone.height)
      const bar = page.getByRole('complementary', { name: 'Call or ask about this cart' })
      await expect(bar.getByRole('link', { name: `Call ${business.tollFree.display}` })).toHaveAttribute('href', `tel:${business.tollFree.tel}`)
      await expect(bar.getByRole('link', { name: 'Get Quote' })).toHaveAttribute('href', '/contact?cart=2025-evolution-d5-maverick-2-2#send-message')
      const barBox = await rect(page, '.phone-bar')
      expect(barBox.bottom).toBe(phone.height)
      // Over the content: what is behind it at the first screen is the page's main content.
      const behind = await page.evaluate(({ y }) => document.elementsFromPoint(195, y).some((el) => el.closest('main') && !el.closest('.phone-bar')), { y: barBox.top + 10 })
      expect(behind).toBe(true)
      await page.screenshot({ path: '/tmp/gc-vehicle-390.png' })

      await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight))
      await expect.poll(() => page.evaluate(() => Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight)).toBe(true)
      const covered = await page.locator('.site-footer a').evaluateAll((links, top) => links.filter((a) => a.getBoundingClientRect().bottom > top).map((a) => a.textContent), barBox.top)
      expect(covered).toEqual([])
      // The page ends with the bar's room: nothing of the footer, not even its last line, lies under it.
      expect((await rect(page, '.site-footer')).bottom).toBeLessThanOrEqual(barBox.top + 1)
      expect(await axe()).toEqual([])
      expect(problems).toEqual([])
    })
  })

  test.describe('at 1280 px', () => {
    test.use({ viewport: desktop })

    test('keeps the bar to phones: the same buttons stand beside the price', async ({ page, server }) => {
      await visitHydrated(page, `${server.url}${vehicle}`)
      await expect(page.locator('.phone-bar')).toBeHidden()
      await expect(page.locator('.gc-vehicle__summary .gc-actions').getByRole('link', { name: 'Get Quote' })).toBeVisible()
      await page.screenshot({ path: '/tmp/gc-vehicle-1280.png' })
      // The pages as they look, to look at: the home page and the inventory at a desk, the inventory on a phone.
      for (const [path, viewport, file] of [
        ['/', desktop, 'gc-home-1280'],
        ['/inventory', desktop, 'gc-inventory-1280'],
        ['/inventory', phone, 'gc-inventory-390'],
      ] as const) {
        await page.setViewportSize(viewport)
        await visitHydrated(page, `${server.url}${path}`)
        await page.screenshot({ path: `/tmp/${file}.png` })
      }
    })
  })
})
