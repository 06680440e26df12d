import { describe, expect, it } from 'vitest'
import { axeViolations } from '../support/browser.ts'
import { addLoader, cards, usePartnerPages } from '../support/partner-pages.ts'

/**
 * `<gc-inventory>` searched on a partner's page (PRODUCT.md, "search"): attributes fix filters,
 * the visitor narrows the rest, opens a cart and comes back to the same list. Expected lists come
 * from the API with the same search, so the tests follow whatever the seed is.
 */
describe('searching in <gc-inventory> on a partner page', () => {
  const partner = usePartnerPages({ site: true })
  const titlesFromApi = async (query: string) =>
    ((await (await fetch(`${partner.api.url}/api/golf-carts?${query}&limit=24`)).json()) as { title: string }[]).map((c) => c.title)
  const titles = (page: import('playwright-core').Page) => cards(page, 'gc-inventory').locator('h3').allTextContents()

  it('narrows to lithium six-seaters under a price the partner fixed, sorts by price, opens one and comes back to the same list', async () => {
    // The loader in the page itself, as a partner pastes it, so it runs again when the visitor comes back.
    const { page, problems } = await partner.openHtml(`<main><h1>Our dealer's carts</h1><gc-inventory api-base="${partner.api.url}" max-price="15000"></gc-inventory></main>`, {
      head: `<script type="module" src="${partner.api.url}/widgets/gc-widgets.js"></script>`,
    })
    const filters = page.locator('gc-inventory .gc-filters')
    await filters.getByRole('button', { name: /^Lithium Ion/ }).click()
    await filters.getByRole('button', { name: /^6\+ seats/ }).click()
    // The partner's price is fixed: not offered, and not something clear-all takes away.
    expect(await filters.getByRole('group', { name: 'Price' }).count()).toBe(0)
    expect(await filters.getByLabel('Max price ($)').count()).toBe(0)
    await filters.getByLabel('Sort by').selectOption('price-asc')
    const expected = await titlesFromApi('seats=6&battery=lithium&maxPrice=15000&sort=price-asc')
    expect(expected.length).toBeGreaterThan(1)
    await expect.poll(() => titles(page)).toEqual(expected)
    expect(await filters.getByRole('button', { name: /^Lithium Ion/ }).getAttribute('aria-pressed')).toBe('true')

    await cards(page, 'gc-inventory').first().getByRole('link').click()
    await expect.poll(() => page.locator('main h1').textContent()).toBe(expected[0])
    await page.goBack()
    await expect.poll(() => titles(page)).toEqual(expected)
    expect(await page.locator('gc-inventory .gc-filters').getByLabel('Sort by').inputValue()).toBe('price-asc')

    await page.locator('gc-inventory').getByRole('button', { name: 'Clear all filters' }).click()
    await expect.poll(() => titles(page)).toEqual(await titlesFromApi('maxPrice=15000'))
    expect(await axeViolations(page, 'gc-inventory')).toEqual([])
    expect(problems).toEqual([])
  })

  it('shows a partner\'s preset view without the panel when filters="hidden"', async () => {
    const { page, problems } = await partner.openHtml(`<gc-inventory api-base="${partner.api.url}" make="denago" seats="6" sort="price-desc" filters="hidden"></gc-inventory>`)
    await addLoader(page, partner.api.url)
    const expected = await titlesFromApi('make=denago&seats=6&sort=price-desc')
    expect(expected.length).toBeGreaterThan(0)
    await expect.poll(() => titles(page)).toEqual(expected)
    expect(await page.locator('gc-inventory .gc-filters').count()).toBe(0)
    expect(await page.locator('gc-inventory .gc-inventory__count').textContent()).toMatch(new RegExp(`^${expected.length} golf cart`))
    expect(problems).toEqual([])
  })
})
