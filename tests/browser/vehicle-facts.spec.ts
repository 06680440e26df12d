import { withCheckDigit } from '../../domain/vin.ts'
import { desktop, expect, phone, sidewaysScroll, test, visitHydrated } from './fixtures.ts'

/**
 * A cart's own facts, its showroom and its MSRP on its vehicle page in Chromium (issue #30,
 * point 5; issue #32, point 1): axe finds nothing at phone and desktop width and nothing scrolls
 * sideways, with the longest facts a cart can have (a VIN, a colour, a saving).
 */
const slug = '2025-denago-ev-rover-xl6'
const vin = withCheckDigit('5ZEVD6M40S0000099')

for (const [name, viewport] of [
  ['phone', phone],
  ['desktop', desktop],
] as const) {
  test.describe(`a vehicle page with every fact of its cart at ${name} width`, () => {
    test.use({ viewport })

    test('shows the facts, the showroom and the saving, axe clean', async ({ page, server, problems, axe }) => {
      await server.db.sql`
        update golf_carts set msrp = price + 2000, vin = ${vin}, color = 'Champagne Metallic', lifted = true, location = 'pleasantville'
        where slug = ${slug}
      `
      await visitHydrated(page, `${server.url}/vehicle/${slug}`)
      await expect(page.locator('.gc-vehicle__saving')).toHaveText('You save $2,000')
      const facts = page.locator('.gc-spec-group', { has: page.getByRole('heading', { name: 'This Cart' }) })
      expect(await facts.locator('dd').allTextContents()).toEqual(expect.arrayContaining([vin, 'Champagne Metallic', 'Pleasantville']))
      await expect(page.locator('.gc-vehicle__location strong')).toHaveText('Pleasantville showroom')
      expect(await sidewaysScroll(page)).toBe(0)
      expect(await axe()).toEqual([])
      await page.locator('.gc-vehicle__price').scrollIntoViewIfNeeded()
      await page.screenshot({ path: `/tmp/gc-vehicle-facts-${name}-summary.png` })
      await facts.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `/tmp/gc-vehicle-facts-${name}-facts.png` })
      expect(problems).toEqual([])
    })
  })
}
