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

  it('lists one showroom\'s carts with location="pleasantville", names it on every card, and keeps it through the visitor\'s choices', async () => {
    const { page, problems } = await partner.openHtml(
      `<main><h1>Our Pleasantville showroom</h1><gc-inventory api-base="${partner.api.url}" location="pleasantville"></gc-inventory></main>`,
    )
    await addLoader(page, partner.api.url)
    const expected = await titlesFromApi('location=pleasantville')
    expect(expected.length).toBeGreaterThan(0)
    await expect.poll(() => titles(page), { timeout: 15_000 }).toEqual(expected)
    const places = () => cards(page, 'gc-inventory').locator('.gc-card__location').allTextContents()
    expect(new Set(await places())).toEqual(new Set(['Pleasantville showroom']))
    // The partner's showroom is fixed: not offered, and not something clear-all takes away.
    const filters = page.locator('gc-inventory .gc-filters')
    expect(await filters.getByRole('group', { name: 'Location' }).count()).toBe(0)
    await filters.getByRole('button', { name: /^Lithium Ion/ }).click()
    const lithium = await titlesFromApi('location=pleasantville&battery=lithium')
    await expect.poll(() => titles(page)).toEqual(lithium)
    await page.locator('gc-inventory').getByRole('button', { name: 'Clear all filters' }).click()
    await expect.poll(() => titles(page)).toEqual(expected)
    const [here, everywhere] = await Promise.all(['location=pleasantville', ''].map(async (q) => Number((await fetch(`${partner.api.url}/api/golf-carts?${q}&limit=1`)).headers.get('x-total-count'))))
    expect(here).toBeGreaterThan(0)
    expect(here).toBeLessThan(everywhere!)

    expect(await axeViolations(page, 'gc-inventory')).toEqual([])
    await page.screenshot({ path: '/tmp/gc-location-embed-1280.png', fullPage: false })
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await axeViolations(page, 'gc-inventory')).toEqual([])
    await cards(page, 'gc-inventory').first().scrollIntoViewIfNeeded()
    await page.screenshot({ path: '/tmp/gc-location-embed-390.png' })
    expect(problems).toEqual([])
  })

  it('offers each showroom with its count when the partner fixes none, and lists the one a visitor picks', async () => {
    const { page, problems } = await partner.openHtml(`<gc-inventory api-base="${partner.api.url}"></gc-inventory>`)
    await addLoader(page, partner.api.url)
    const group = page.locator('gc-inventory .gc-filters').getByRole('group', { name: 'Location' })
    await expect.poll(() => group.getByRole('button').allTextContents(), { timeout: 15_000 }).toHaveLength(5)
    const choices = await group.getByRole('button').allTextContents()
    expect(choices[0]).toMatch(/^Any showroom/)
    const bayville = await fetch(`${partner.api.url}/api/golf-carts?location=bayville&limit=1`)
    expect(choices.find((c) => c.startsWith('Bayville'))).toBe(`Bayville${bayville.headers.get('x-total-count')}`)
    await group.getByRole('button', { name: /^Bayville/ }).click()
    await expect.poll(() => titles(page)).toEqual(await titlesFromApi('location=bayville'))
    expect(await group.getByRole('button', { name: /^Bayville/ }).getAttribute('aria-pressed')).toBe('true')
    expect(new Set(await cards(page, 'gc-inventory').locator('.gc-card__location').allTextContents())).toEqual(new Set(['Bayville showroom']))
    expect(await axeViolations(page, 'gc-inventory')).toEqual([])
    expect(problems).toEqual([])
  })

  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    it(`brings the list's top into view after Next at ${viewport.width} px, and leaves a page alone whose list top is in view`, async () => {
      const { page, problems } = await partner.openHtml(
        `<header style="height:1500px">The partner's own story</header><gc-inventory api-base="${partner.api.url}"></gc-inventory><footer style="height:600px">More of the partner's page</footer>`,
      )
      await page.setViewportSize(viewport)
      await addLoader(page, partner.api.url)
      const list = page.locator('gc-inventory .gc-inventory')
      await expect.poll(() => cards(page, 'gc-inventory').count(), { timeout: 20_000 }).toBe(24)
      const listTop = () => list.evaluate((el) => el.getBoundingClientRect().top)

      await page.locator('gc-inventory').getByRole('button', { name: 'Next' }).click()
      await expect.poll(() => page.locator('gc-inventory .gc-pager span').textContent(), { timeout: 20_000 }).toMatch(/^Page 2 of /)
      const top = await listTop()
      expect(top).toBeGreaterThanOrEqual(0)
      expect(top).toBeLessThan(viewport.height / 2)
      // The next Tab starts from the new page's top, not from the pager far below.
      expect(await page.evaluate(() => document.querySelector('gc-inventory')?.shadowRoot?.activeElement?.tagName)).toBe('H2')

      // The list's top already in view: Previous (pressed without scrolling to it) moves nothing.
      await page.evaluate(() => window.scrollTo(0, window.scrollY - 100))
      const before = await page.evaluate(() => window.scrollY)
      expect(await listTop()).toBeGreaterThan(0)
      await page.locator('gc-inventory').getByRole('button', { name: 'Previous' }).evaluate((button: HTMLButtonElement) => button.click())
      await expect.poll(() => page.locator('gc-inventory .gc-pager span').textContent(), { timeout: 20_000 }).toMatch(/^Page 1 of /)
      expect(await page.evaluate(() => window.scrollY)).toBe(before)
      expect(problems).toEqual([])
    })
  }
})
