import type { Page } from '@playwright/test'
import type { TestServer } from '../support/test-server.ts'
import { desktop, expect, phone, test, visitHydrated } from './fixtures.ts'

/**
 * A buyer searches the inventory in Chromium (PRODUCT.md, "search"). What each list should hold
 * comes from the API with the same search, so the tests follow whatever the seed is.
 */
const titlesFromApi = async (server: TestServer, query: string) =>
  ((await (await fetch(`${server.url}/api/golf-carts?${query}&limit=24`)).json()) as { title: string }[]).map((c) => c.title)
const cardTitles = (page: Page) => page.locator('.gc-inventory .gc-card:not(.gc-card--skeleton) h2')
/** Waits for the page's address to have this search (`?…`, or '' for none). */
const toHaveSearch = (page: Page, search: string) => expect(page).toHaveURL((url) => url.search === search)

test.describe('searching the inventory', () => {
  test('narrows to lithium six-seaters under $15,000, sorts by price, opens one and comes back to the same list', async ({ page, server, problems }) => {
    await visitHydrated(page, `${server.url}/inventory`)
    const filters = page.locator('.gc-filters')
    await filters.getByRole('link', { name: /^Lithium Ion/ }).click()
    await toHaveSearch(page, '?battery=lithium')
    await filters.getByRole('link', { name: /^6\+ seats/ }).click()
    // Each filter is a link to a whole search: the next one is taken from the region the last
    // search put in place (a link of the page before it does not know about six seats).
    await expect(filters.getByRole('link', { name: /^Under \$15,000/ })).toHaveAttribute('href', /seats=6/)
    await filters.getByRole('link', { name: /^Under \$15,000/ }).click()
    await toHaveSearch(page, '?seats=6&battery=lithium&maxPrice=15000')
    await page.getByLabel('Sort by').selectOption('price-asc')
    const query = 'seats=6&battery=lithium&maxPrice=15000&sort=price-asc'
    await toHaveSearch(page, `?${query}`)
    const expected = await titlesFromApi(server, query)
    expect(expected.length).toBeGreaterThan(1)
    await expect(cardTitles(page)).toHaveText(expected)
    const total = Number((await fetch(`${server.url}/api/golf-carts?${query}`)).headers.get('x-total-count') ?? 0)
    await expect(page.locator('.gc-inventory__count')).toHaveText(`${total} golf ${total === 1 ? 'cart' : 'carts'}`)
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/inventory$/)

    await page.getByRole('link', { name: `View Details for ${expected[0]}` }).first().click()
    await expect(page.locator('main h1')).toHaveText(expected[0]!)
    await page.goBack()
    await toHaveSearch(page, `?${query}`)
    await expect(cardTitles(page)).toHaveText(expected)
    await expect(page.getByLabel('Sort by')).toHaveValue('price-asc')

    await page.getByRole('link', { name: 'Clear all filters' }).click()
    await toHaveSearch(page, '')
    expect(problems).toEqual([])
  })

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false, viewport: desktop })

    test('works: each filter is a link, the words box a form, each answer server-rendered', async ({ page, server }) => {
      await page.goto(`${server.url}/inventory`)
      await page.locator('.gc-filters').getByRole('link', { name: /^Denago/ }).click()
      await toHaveSearch(page, '?make=denago')
      // The whole list, however long the next page's answer takes to stream in.
      await expect(cardTitles(page)).toHaveText(await titlesFromApi(server, 'make=denago'))
      await page.getByLabel('Search').fill('xl')
      await page.getByRole('button', { name: 'Apply' }).click()
      await expect(page).toHaveURL((url) => url.searchParams.get('q') === 'xl')
      const search = new URL(page.url()).searchParams
      expect(search.get('make')).toBe('denago')
      expect(search.get('q')).toBe('xl')
      await expect(cardTitles(page)).toHaveText(await titlesFromApi(server, 'make=denago&q=xl'))
    })
  })

  test('puts the keyboard focus on the list\'s heading after Next and Previous, at the top of the new page', async ({ page, server, problems }) => {
    await visitHydrated(page, `${server.url}/inventory`)
    const pager = page.getByRole('navigation', { name: 'Inventory pages' })
    await pager.getByRole('link', { name: 'Next' }).focus()
    await page.keyboard.press('Enter')
    await toHaveSearch(page, '?page=2')
    await expect(page.locator(':focus')).toHaveText('Golf Cart Inventory')
    expect(await page.evaluate(() => scrollY)).toBe(0)
    // The next Tab starts from the top of the new page, not 4,000 px below at the pager.
    await pager.getByRole('link', { name: 'Previous' }).click()
    await toHaveSearch(page, '')
    await expect(page.locator('h1:focus')).toHaveCount(1)
    expect(problems).toEqual([])
  })

  test('says which values of the address it ignored and applies the rest', async ({ page, server, problems }) => {
    await visitHydrated(page, `${server.url}/inventory?battery=lithium&seats=lots&sort=cheapest`)
    const notice = page.locator('.gc-inventory__notice')
    await expect(notice).toContainText('seats must be a whole number')
    await expect(notice).toContainText('sort must be')
    await expect(cardTitles(page)).toHaveText(await titlesFromApi(server, 'battery=lithium'))
    expect(problems).toEqual([])
  })

  for (const [name, viewport] of [
    ['phone', phone],
    ['desktop', desktop],
  ] as const) {
    test.describe(`on a ${name}`, () => {
      test.use({ viewport })

      test('has an accessible filter panel', async ({ page, server, axe }) => {
        await visitHydrated(page, `${server.url}/inventory?make=denago&streetLegal=true`)
        const group = page.locator('.gc-filters__group').first()
        if (name === 'phone') {
          await expect(group).toBeHidden()
          await page.getByText(/^Filters/).click()
        }
        await expect(group).toBeVisible()
        expect(await axe(page, { include: '.gc-inventory' })).toEqual([])
        await page.locator('.gc-filters').screenshot({ path: `/tmp/gc-search-filters-${name}.png` })
      })
    })
  }
})
