import { describe, expect, it } from 'vitest'
import { withCheckDigit } from '../../domain/vin.ts'
import { axeViolations } from '../support/browser.ts'
import { desktop, phone, useSite } from '../support/site-visits.ts'

/**
 * A cart's own facts, its showroom and its MSRP on its vehicle page in Chromium (issue #30,
 * point 5; issue #32, point 1): axe finds nothing at phone and desktop width and nothing scrolls
 * sideways, with the longest facts a cart can have (a VIN, a colour, a saving).
 */
describe('a vehicle page with every fact of its cart', () => {
  const site = useSite()
  const slug = '2025-denago-ev-rover-xl6'
  const vin = withCheckDigit('5ZEVD6M40S0000099')

  it.each([
    ['phone', phone],
    ['desktop', desktop],
  ] as const)('shows the facts, the showroom and the saving at %s width, axe clean', async (name, viewport) => {
    await site.server.db.sql`
      update golf_carts set msrp = price + 2000, vin = ${vin}, color = 'Champagne Metallic', lifted = true, location = 'pleasantville'
      where slug = ${slug}
    `
    const { page, problems } = await site.look(`/vehicle/${slug}`, viewport)
    await expect.poll(() => page.locator('.gc-vehicle__saving').textContent()).toBe('You save $2,000')
    const facts = page.locator('.gc-spec-group', { has: page.getByRole('heading', { name: 'This Cart' }) })
    expect(await facts.locator('dd').allTextContents()).toEqual(expect.arrayContaining([vin, 'Champagne Metallic', 'Pleasantville']))
    expect(await page.locator('.gc-vehicle__location strong').textContent()).toBe('Pleasantville showroom')
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    await page.locator('.gc-vehicle__price').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `/tmp/gc-vehicle-facts-${name}-summary.png` })
    await facts.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `/tmp/gc-vehicle-facts-${name}-facts.png` })
    expect(problems).toEqual([])
  })
})
