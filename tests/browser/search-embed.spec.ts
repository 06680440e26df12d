import type { Page } from '@playwright/test'
import type { GolfCart } from '../../domain/golf-cart.ts'
import { formatMonthly, monthlyFrom } from '../../domain/payment.ts'
import { addLoader, cards, desktop, expect, phone, settled, test } from './fixtures.ts'

/**
 * `<gc-inventory>` searched on a partner's page (PRODUCT.md, "search"): attributes fix filters,
 * the visitor narrows the rest, opens a cart and comes back to the same list. Expected lists come
 * from the API with the same search, so the tests follow whatever the seed is.
 */
test.use({ partnerSite: true })

const titlesFromApi = async (apiUrl: string, query: string) =>
  ((await (await fetch(`${apiUrl}/api/golf-carts?${query}&limit=24`)).json()) as { title: string }[]).map((c) => c.title)
const titles = (page: Page) => cards(page, 'gc-inventory').locator('h3')

test.describe('searching in <gc-inventory> on a partner page', () => {
  test('narrows to lithium six-seaters under a price the partner fixed, sorts by price, opens one and comes back to the same list', async ({ page, partner, problems, axe }) => {
    // The loader in the page itself, as a partner pastes it, so it runs again when the visitor comes back.
    await page.goto(
      partner.write(`<main><h1>Our dealer's carts</h1><gc-inventory api-base="${partner.api.url}" max-price="15000"></gc-inventory></main>`, {
        head: `<script type="module" src="${partner.api.url}/widgets/gc-widgets.js"></script>`,
      }),
    )
    const filters = page.locator('gc-inventory .gc-filters')
    await filters.getByRole('button', { name: /^Lithium Ion/ }).click()
    await filters.getByRole('button', { name: /^6\+ seats/ }).click()
    // The partner's price is fixed: not offered, and not something clear-all takes away.
    await expect(filters.getByRole('group', { name: 'Price' })).toHaveCount(0)
    await expect(filters.getByLabel('Max price ($)')).toHaveCount(0)
    await filters.getByLabel('Sort by').selectOption('price-asc')
    const expected = await titlesFromApi(partner.api.url, 'seats=6&battery=lithium&maxPrice=15000&sort=price-asc')
    expect(expected.length).toBeGreaterThan(1)
    await expect(titles(page)).toHaveText(expected)
    await expect(filters.getByRole('button', { name: /^Lithium Ion/ })).toHaveAttribute('aria-pressed', 'true')

    await cards(page, 'gc-inventory').first().getByRole('link').click()
    await expect(page.locator('main h1')).toHaveText(expected[0]!)
    await page.goBack()
    await expect(titles(page)).toHaveText(expected)
    await expect(page.locator('gc-inventory .gc-filters').getByLabel('Sort by')).toHaveValue('price-asc')

    await page.locator('gc-inventory').getByRole('button', { name: 'Clear all filters' }).click()
    await expect(titles(page)).toHaveText(await titlesFromApi(partner.api.url, 'maxPrice=15000'))
    expect(await axe(page, { include: 'gc-inventory' })).toEqual([])
    expect(problems).toEqual([])
  })

  test('shows a partner\'s preset view without the panel when filters="hidden"', async ({ page, partner, problems }) => {
    await page.goto(partner.write(`<gc-inventory api-base="${partner.api.url}" make="denago" seats="6" sort="price-desc" filters="hidden"></gc-inventory>`))
    await addLoader(page, partner.api.url)
    const expected = await titlesFromApi(partner.api.url, 'make=denago&seats=6&sort=price-desc')
    expect(expected.length).toBeGreaterThan(0)
    await expect(titles(page)).toHaveText(expected)
    await expect(page.locator('gc-inventory .gc-filters')).toHaveCount(0)
    await expect(page.locator('gc-inventory .gc-inventory__count')).toHaveText(new RegExp(`^${expected.length} golf cart`))
    // Each card has what shoppers compare: seats, range, battery and the monthly price.
    const [first] = (await (await fetch(`${partner.api.url}/api/golf-carts?make=denago&seats=6&sort=price-desc&limit=1`)).json()) as GolfCart[]
    const card = cards(page, 'gc-inventory').first()
    const range = `${first!.specs.rangeMiles.min}-${first!.specs.rangeMiles.max}`
    await expect(card.locator('.gc-card__specs li')).toHaveText([`${first!.specs.seats.max} seats`, `${range} mi range`, 'Lithium Ion'])
    await expect(card.locator('.gc-card__monthly')).toHaveText(`From ${formatMonthly(monthlyFrom(first!.price))}`)
    await expect(card.locator('.gc-badge')).toHaveCount(0)
    expect(problems).toEqual([])
  })

  test('saves and compares carts in <gc-inventory>, and hands the lists to the dealer\'s /saved and /compare', async ({ page, partner, problems, axe }) => {
    await page.goto(partner.write(`<main><h1>Our dealer's carts</h1><gc-inventory api-base="${partner.api.url}" make="denago" sort="price-asc" filters="hidden"></gc-inventory></main>`))
    await addLoader(page, partner.api.url)
    const [first, second] = (await (await fetch(`${partner.api.url}/api/golf-carts?make=denago&sort=price-asc&limit=2`)).json()) as GolfCart[]
    const widget = page.locator('gc-inventory')
    await widget.getByRole('button', { name: `Save ${first!.title}`, exact: true }).click()
    await widget.getByRole('button', { name: `Compare ${first!.title}`, exact: true }).click()
    await widget.getByRole('button', { name: `Compare ${second!.title}`, exact: true }).click()
    await expect(widget.getByRole('button', { name: `Save ${first!.title}`, exact: true })).toHaveAttribute('aria-pressed', 'true')
    const compare = widget.getByRole('link', { name: 'Compare 2 carts' })
    await expect(compare).toHaveAttribute('href', `${partner.api.url}/compare?carts=${first!.slug},${second!.slug}`)
    expect(await axe(page, { include: 'gc-inventory' })).toEqual([])
    await widget.getByRole('link', { name: 'Saved carts (1)' }).click()
    await page.waitForURL(`${partner.api.url}/saved?carts=${first!.slug}`)
    await expect(page.locator('main .gc-card h2')).toHaveText([first!.title])
    // The dealer's site keeps it in its own storage: its bare /saved shows it after a reload.
    await page.goto(`${partner.api.url}/saved`)
    await page.waitForURL(`${partner.api.url}/saved?carts=${first!.slug}`)
    expect(problems).toEqual([])
  })

  test('lists one showroom\'s carts with location="pleasantville", names it on every card, and keeps it through the visitor\'s choices', async ({ page, partner, problems, axe }) => {
    await page.goto(partner.write(`<main><h1>Our Pleasantville showroom</h1><gc-inventory api-base="${partner.api.url}" location="pleasantville"></gc-inventory></main>`))
    await addLoader(page, partner.api.url)
    const expected = await titlesFromApi(partner.api.url, 'location=pleasantville')
    expect(expected.length).toBeGreaterThan(0)
    await expect(titles(page)).toHaveText(expected, { timeout: 15_000 })
    const places = () => cards(page, 'gc-inventory').locator('.gc-card__location').allTextContents()
    expect(new Set(await places())).toEqual(new Set(['Pleasantville showroom']))
    // The partner's showroom is fixed: not offered, and not something clear-all takes away.
    const filters = page.locator('gc-inventory .gc-filters')
    await expect(filters.getByRole('group', { name: 'Location' })).toHaveCount(0)
    await filters.getByRole('button', { name: /^Lithium Ion/ }).click()
    const lithium = await titlesFromApi(partner.api.url, 'location=pleasantville&battery=lithium')
    await expect(titles(page)).toHaveText(lithium)
    await page.locator('gc-inventory').getByRole('button', { name: 'Clear all filters' }).click()
    await expect(titles(page)).toHaveText(expected)
    const [here, everywhere] = await Promise.all(
      ['location=pleasantville', ''].map(async (q) => Number((await fetch(`${partner.api.url}/api/golf-carts?${q}&limit=1`)).headers.get('x-total-count'))),
    )
    expect(here).toBeGreaterThan(0)
    expect(here).toBeLessThan(everywhere!)

    expect(await axe(page, { include: 'gc-inventory' })).toEqual([])
    await page.screenshot({ path: '/tmp/gc-location-embed-1280.png', fullPage: false })
    await page.setViewportSize(phone)
    expect(await axe(page, { include: 'gc-inventory' })).toEqual([])
    await cards(page, 'gc-inventory').first().scrollIntoViewIfNeeded()
    await page.screenshot({ path: '/tmp/gc-location-embed-390.png' })
    expect(problems).toEqual([])
  })

  test('offers each showroom with its count when the partner fixes none, and lists the one a visitor picks', async ({ page, partner, problems, axe }) => {
    await page.goto(partner.write(`<gc-inventory api-base="${partner.api.url}"></gc-inventory>`))
    await addLoader(page, partner.api.url)
    const group = page.locator('gc-inventory .gc-filters').getByRole('group', { name: 'Location' })
    await expect(group.getByRole('button')).toHaveCount(5, { timeout: 15_000 })
    const choices = await group.getByRole('button').allTextContents()
    expect(choices[0]).toMatch(/^Any showroom/)
    const bayville = await fetch(`${partner.api.url}/api/golf-carts?location=bayville&limit=1`)
    expect(choices.find((c) => c.startsWith('Bayville'))).toBe(`Bayville${bayville.headers.get('x-total-count')}`)
    await group.getByRole('button', { name: /^Bayville/ }).click()
    await expect(titles(page)).toHaveText(await titlesFromApi(partner.api.url, 'location=bayville'))
    await expect(group.getByRole('button', { name: /^Bayville/ })).toHaveAttribute('aria-pressed', 'true')
    expect(new Set(await cards(page, 'gc-inventory').locator('.gc-card__location').allTextContents())).toEqual(new Set(['Bayville showroom']))
    expect(await axe(page, { include: 'gc-inventory' })).toEqual([])
    expect(problems).toEqual([])
  })

  test.describe('at 390 px', () => {
    test.use({ viewport: phone })

    test("builds the filter panel's choices when a shopper opens it, or at once when its container widens", async ({ page, partner, problems }) => {
      await page.goto(partner.write(`<div style="width:380px"><gc-inventory api-base="${partner.api.url}"></gc-inventory></div>`))
      await addLoader(page, partner.api.url)
      await expect(cards(page, 'gc-inventory')).toHaveCount(24, { timeout: 20_000 })
      const filters = page.locator('gc-inventory .gc-filters')
      // Behind the closed Filters button nothing of the panel is built.
      await expect(filters.locator('.gc-filters__body > *')).toHaveCount(0)
      await filters.locator('summary').click()
      await expect(filters.getByRole('group', { name: 'Location' }).getByRole('button')).toHaveCount(5)
      await filters.getByRole('button', { name: /^Lithium Ion/ }).click()
      await expect(titles(page)).toHaveText(await titlesFromApi(partner.api.url, 'battery=lithium'))
      await expect(filters.locator('summary')).toHaveText('Filters (1)')

      // Back on the page (the shopper's choice kept for the tab), in a container that widens: the
      // panel is then shown without its button, so it is built at once.
      await page.reload()
      await addLoader(page, partner.api.url)
      await expect(titles(page)).toHaveText(await titlesFromApi(partner.api.url, 'battery=lithium'), { timeout: 20_000 })
      await expect(filters.locator('.gc-filters__body > *')).toHaveCount(0)
      await page.locator('div:has(> gc-inventory)').evaluate((box: HTMLElement) => (box.style.width = '900px'))
      await expect(filters.getByLabel('Sort by')).toBeVisible()
      await expect(filters.getByRole('button', { name: /^Lithium Ion/ })).toHaveAttribute('aria-pressed', 'true')
      expect(problems).toEqual([])
    })
  })

  for (const viewport of [desktop, phone]) {
    test.describe(`at ${viewport.width} px`, () => {
      test.use({ viewport })

      test(`brings the list's top into view after Next at ${viewport.width} px, and leaves a page alone whose list top is in view`, async ({ page, partner, problems }) => {
        await page.goto(
          partner.write(
            `<header style="height:1500px">The partner's own story</header><gc-inventory api-base="${partner.api.url}"></gc-inventory><footer style="height:600px">More of the partner's page</footer>`,
          ),
        )
        await addLoader(page, partner.api.url)
        const list = page.locator('gc-inventory .gc-inventory')
        await expect(cards(page, 'gc-inventory')).toHaveCount(24, { timeout: 20_000 })
        const listTop = () => list.evaluate((el) => el.getBoundingClientRect().top)
        const pager = page.locator('gc-inventory .gc-pager span')

        await page.locator('gc-inventory').getByRole('button', { name: 'Next' }).click()
        await expect(pager).toHaveText(/^Page 2 of /, { timeout: 20_000 })
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
        await expect(pager).toHaveText(/^Page 1 of /, { timeout: 20_000 })
        // That the page did NOT scroll: it has had its chance to.
        await settled(page)
        expect(await page.evaluate(() => window.scrollY)).toBe(before)
        expect(problems).toEqual([])
      })
    })
  }

  test("fetches the alert form's script only when a shopper opens the box, then sends the watch through the API", async ({ page, partner, problems, axe }) => {
    const scripts: string[] = []
    page.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname)))
    await page.goto(partner.write(`<gc-inventory api-base="${partner.api.url}" make="evolution"></gc-inventory>`))
    await addLoader(page, partner.api.url)
    await expect(cards(page, 'gc-inventory').first()).toBeVisible()
    const widget = page.locator('gc-inventory')
    // The carts are there without the form's code (zod and the alert's request), and without its origin check.
    expect(scripts.some((path) => /\/watch-form-/.test(path))).toBe(false)
    await expect(widget.getByLabel('Email')).toHaveCount(0)
    await widget.getByText('Tell me about new carts like these').click()
    await widget.getByLabel('Email').fill('opened-later@example.com')
    expect(scripts.some((path) => /\/watch-form-/.test(path))).toBe(true)
    await widget.getByRole('button', { name: 'Email me' }).click()
    await expect(widget.getByRole('status').filter({ hasText: 'Check your email' })).toBeVisible()
    const [watch] = await partner.api.db.sql<{ search: unknown; searchKey: string }[]>`select search, search_key from cart_watches where email = ${'opened-later@example.com'}`
    expect(watch).toEqual({ search: { make: ['evolution'] }, searchKey: 'make=evolution' })
    expect(await axe(page, { include: 'gc-inventory' })).toEqual([])
    expect(problems).toEqual([])
  })
})
