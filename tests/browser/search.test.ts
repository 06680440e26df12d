import { describe, expect, it } from 'vitest'
import { axeViolations } from '../support/browser.ts'
import { desktop, phone, useSite } from '../support/site-visits.ts'

/**
 * A buyer searches the inventory in Chromium (PRODUCT.md, "search"). What each list should hold
 * comes from the API with the same search, so the tests follow whatever the seed is.
 */
describe('searching the inventory', () => {
  const site = useSite()
  const titlesFromApi = async (query: string) =>
    ((await (await fetch(`${site.server.url}/api/golf-carts?${query}&limit=24`)).json()) as { title: string }[]).map((c) => c.title)
  const cardTitles = (page: import('playwright-core').Page) => page.locator('.gc-inventory .gc-card:not(.gc-card--skeleton) h2').allTextContents()

  it('narrows to lithium six-seaters under $15,000, sorts by price, opens one and comes back to the same list', async () => {
    const { page, problems } = await site.look('/inventory')
    const filters = page.locator('.gc-filters')
    await filters.getByRole('link', { name: /^Lithium Ion/ }).click()
    await expect.poll(() => new URL(page.url()).search).toBe('?battery=lithium')
    await filters.getByRole('link', { name: /^6\+ seats/ }).click()
    // Each filter is a link to a whole search: the next one is taken from the region the last
    // search put in place (a link of the page before it does not know about six seats).
    await expect.poll(() => filters.getByRole('link', { name: /^Under \$15,000/ }).getAttribute('href')).toContain('seats=6')
    await filters.getByRole('link', { name: /^Under \$15,000/ }).click()
    await expect.poll(() => new URL(page.url()).search).toBe('?seats=6&battery=lithium&maxPrice=15000')
    await page.getByLabel('Sort by').selectOption('price-asc')
    const query = 'seats=6&battery=lithium&maxPrice=15000&sort=price-asc'
    await expect.poll(() => new URL(page.url()).search).toBe(`?${query}`)
    const expected = await titlesFromApi(query)
    expect(expected.length).toBeGreaterThan(1)
    await expect.poll(() => cardTitles(page)).toEqual(expected)
    const total = Number((await fetch(`${site.server.url}/api/golf-carts?${query}`)).headers.get('x-total-count') ?? 0)
    expect(await page.locator('.gc-inventory__count').textContent()).toBe(`${total} golf ${total === 1 ? 'cart' : 'carts'}`)
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(/\/inventory$/)

    await page.getByRole('link', { name: `View Details for ${expected[0]}` }).first().click()
    await expect.poll(() => page.locator('main h1').textContent()).toBe(expected[0])
    await page.goBack()
    await expect.poll(() => new URL(page.url()).search).toBe(`?${query}`)
    await expect.poll(() => cardTitles(page)).toEqual(expected)
    expect(await page.getByLabel('Sort by').inputValue()).toBe('price-asc')

    await page.getByRole('link', { name: 'Clear all filters' }).click()
    await expect.poll(() => new URL(page.url()).search).toBe('')
    expect(problems).toEqual([])
  })

  it('works without JavaScript: each filter is a link, the words box a form, each answer server-rendered', async () => {
    const context = await site.newContext({ javaScriptEnabled: false, viewport: desktop })
    const page = await context.newPage()
    await page.goto(`${site.server.url}/inventory`)
    await page.locator('.gc-filters').getByRole('link', { name: /^Denago/ }).click()
    // A click waits for the next page to commit, not for its whole answer: the list is read once
    // the page has loaded (a loaded run once read five cards of twelve still streaming in).
    await page.waitForLoadState('load')
    expect(new URL(page.url()).search).toBe('?make=denago')
    expect(await cardTitles(page)).toEqual(await titlesFromApi('make=denago'))
    await page.getByLabel('Search').fill('xl')
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.waitForLoadState('load')
    const search = new URL(page.url()).searchParams
    expect(search.get('make')).toBe('denago')
    expect(search.get('q')).toBe('xl')
    expect(await cardTitles(page)).toEqual(await titlesFromApi('make=denago&q=xl'))
  })

  it('says which values of the address it ignored and applies the rest', async () => {
    const { page, problems } = await site.look('/inventory?battery=lithium&seats=lots&sort=cheapest')
    expect(await page.locator('.gc-inventory__notice').textContent()).toContain('seats must be a whole number')
    expect(await page.locator('.gc-inventory__notice').textContent()).toContain('sort must be')
    await expect.poll(() => cardTitles(page)).toEqual(await titlesFromApi('battery=lithium'))
    expect(problems).toEqual([])
  })

  it.each([
    ['phone', phone],
    ['desktop', desktop],
  ])('has an accessible filter panel on a %s', async (name, viewport) => {
    const { page } = await site.look('/inventory?make=denago&streetLegal=true', viewport)
    if (name === 'phone') {
      expect(await page.locator('.gc-filters__group').first().isVisible()).toBe(false)
      await page.getByText(/^Filters/).click()
    }
    await expect.poll(() => page.locator('.gc-filters__group').first().isVisible()).toBe(true)
    expect(await axeViolations(page, '.gc-inventory')).toEqual([])
    await page.locator('.gc-filters').screenshot({ path: `/tmp/gc-search-filters-${name}.png` })
  })
})
