import type { Page } from '@playwright/test'
import { startingInventory } from '../../api/carts/starting-inventory.ts'
import { addLoader, cards, expect, phone, settled, test } from './fixtures.ts'

/** The seeded inventory's pages of 24, computed from the starting inventory, not remembered. */
const seededCarts = startingInventory().length
const seededPages = Math.ceil(seededCarts / 24)

async function fillQuoteForm(page: Page, form = 'gc-contact-form') {
  await page.locator(`${form} input[name="firstName"]`).fill('Dana')
  await page.locator(`${form} input[name="lastName"]`).fill('Whitaker')
  await page.locator(`${form} input[name="email"]`).fill('dana.whitaker@example.com')
  await page.locator(`${form} input[name="phone"]`).fill('(609) 555-0188')
  await page.locator(`${form} textarea[name="message"]`).fill('Interested in a D6 Max for our shore house.')
}

/** The built, minified widget bundle on partner pages from another origin (the `partner` fixture). */
test.describe('widgets on a partner page', () => {
  test('render real data in every element, with the API on another origin', async ({ page, partner, problems }) => {
    await page.goto(`${partner.allowedOrigin}/all-elements.html`)
    await expect(cards(page, 'gc-featured-carts')).toHaveCount(3, { timeout: 15_000 })
    await expect(cards(page, 'gc-inventory')).toHaveCount(24, { timeout: 15_000 })
    await expect(page.locator('gc-inventory .gc-pager')).toContainText(`Page 1 of ${seededPages}`)
    await expect(page.locator('gc-vehicle-detail h2.gc-vehicle__title')).toHaveText('2025 Evolution D6 Max GT4', { timeout: 15_000 })
    // The cart's own facts (issue #30, point 5), then SPEC's 14 figures in their three groups.
    await expect(page.locator('gc-vehicle-detail .gc-spec-group__title')).toHaveText(['This Cart', 'Performance', 'Dimensions', 'Capacity'])
    await expect(page.locator('gc-vehicle-detail .gc-spec-group:first-child dt').first()).toHaveText('Stock Number')
    await expect(page.locator('gc-vehicle-detail .gc-spec-group:not(:first-child) .gc-spec-row')).toHaveCount(14)
    await expect(page.locator('gc-rental-plans .gc-plan')).toHaveCount(12, { timeout: 15_000 })
    await expect(page.locator('gc-contact-form form')).toHaveCount(1, { timeout: 15_000 })

    await page.locator('gc-payment-calculator input').first().fill('12000')
    await page.locator('gc-payment-calculator button[type="submit"]').click()
    await expect(page.locator('gc-payment-calculator .gc-calculator__amount')).toHaveText('$333.33')

    // Images and links point back to the dealer, not to the partner.
    await expect(cards(page, 'gc-featured-carts').first().locator('img')).toHaveAttribute('src', `${partner.api.url}/images/carts/2025-denago-ev-nomad-xl.svg`)
    await expect(cards(page, 'gc-featured-carts').first().locator('a')).toHaveAttribute('href', `${partner.api.url}/vehicle/2025-denago-ev-nomad-xl`)
    await expect.poll(() => page.locator('gc-featured-carts img').first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800)
    expect(problems).toEqual([])
  })

  test('load only the code of the elements on the page', async ({ page, partner, requests }) => {
    await page.goto(`${partner.allowedOrigin}/rentals-landing.html`)
    await expect(page.locator('gc-rental-plans .gc-plan')).toHaveCount(12)
    await expect(page.locator('gc-contact-form form')).toHaveCount(1)
    const chunks = requests.filter((r) => r.includes('/widgets/chunks/')).map((r) => r.split('/').pop()!.replace(/-[\w-]{8}\.js$/, ''))
    expect(chunks).toContain('rental-plans')
    expect(chunks).toContain('contact-form')
    for (const other of ['inventory', 'featured-carts', 'vehicle-detail', 'payment-calculator']) expect(chunks).not.toContain(other)
  })

  test('store a lead from the contact form and fire gc-lead-submitted', async ({ page, partner, problems }) => {
    await page.goto(`${partner.allowedOrigin}/quote-landing.html`)
    await page.evaluate(() => {
      ;(window as typeof window & { events: unknown[] }).events = []
      document.addEventListener('gc-lead-submitted', (e) =>
        (window as typeof window & { events: unknown[] }).events.push({
          detail: (e as CustomEvent).detail,
          bubbles: e.bubbles,
          composed: e.composed,
          target: (e.target as Element).localName,
        }),
      )
    })
    await fillQuoteForm(page)
    await page.locator('gc-contact-form button[type="submit"]').click()
    await expect(page.locator('gc-contact-form .gc-toast__title')).toHaveText('Message sent successfully!')
    const events = (await page.evaluate(() => (window as typeof window & { events: unknown[] }).events)) as {
      detail: { id: number; interest: string }
    }[]
    expect(events).toEqual([
      { detail: { id: expect.any(Number), interest: 'evolution' }, bubbles: true, composed: true, target: 'gc-contact-form' },
    ])
    const [lead] = await partner.api.db.sql`
      select first_name, email, interest, source_url, source_label, spam_reason from contact_inquiries where id = ${events[0]!.detail.id}
    `
    expect(lead).toEqual({
      spamReason: null,
      firstName: 'Dana',
      email: 'dana.whitaker@example.com',
      interest: 'evolution',
      sourceUrl: `${partner.allowedOrigin}/quote-landing.html`,
      sourceLabel: 'spring-sale-quote',
    })
    await expect(page.locator('#events')).toContainText('gc-lead-submitted')
    await expect(page.locator('gc-contact-form input[name="firstName"]')).toHaveValue('')
    expect(problems).toEqual([])
  })

  test('send no cookies to the API from a partner page', async ({ page, context, partner }) => {
    await context.addCookies([{ name: 'session', value: 'secret', url: partner.api.url }])
    const cookieHeaders: (string | undefined)[] = []
    page.on('request', (r) => {
      if (r.url().startsWith(partner.api.url)) cookieHeaders.push(r.headers().cookie)
    })
    await page.goto(`${partner.allowedOrigin}/dealer-network.html`)
    await expect(cards(page, 'gc-featured-carts')).toHaveCount(3)
    expect(cookieHeaders.length).toBeGreaterThan(2)
    expect(cookieHeaders.filter(Boolean)).toEqual([])
  })

  test('are untouched by a hostile page stylesheet', async ({ page, partner }) => {
    await page.goto(`${partner.allowedOrigin}/all-elements.html`)
    await expect(cards(page, 'gc-featured-carts')).toHaveCount(3)
    await expect(cards(page, 'gc-inventory')).toHaveCount(24)
    await expect(page.locator('gc-contact-form form')).toBeVisible()
    // Every element inside every widget: its box relative to the widget, and the styles a page
    // could try to change. Screenshots are no good here: the page around moves by subpixels.
    const fingerprint = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('gc-featured-carts, gc-inventory, gc-contact-form, gc-rental-plans')).map((host) => {
          const origin = host.getBoundingClientRect()
          // Options have no box of their own; the toast region is fixed to the viewport.
          // Nor does an element that is not displayed (the filters' toggle beside a wide grid).
          const laidOut = Array.from(host.shadowRoot!.querySelectorAll('*')).filter(
            (el) => el.localName !== 'option' && !el.closest('.gc-toasts') && getComputedStyle(el).display !== 'none',
          )
          return laidOut.map((el) => {
            const box = el.getBoundingClientRect()
            const s = getComputedStyle(el)
            return [
              el.localName,
              Math.round(box.left - origin.left),
              Math.round(box.top - origin.top),
              Math.round(box.width),
              Math.round(box.height),
              s.display,
              s.fontFamily,
              s.fontSize,
              s.lineHeight,
              s.letterSpacing,
              s.color,
              s.backgroundColor,
              s.padding,
            ].join('|')
          })
        }),
      )
    const before = await fingerprint()
    await page.addStyleTag({
      content: `
        * { font-family: "Comic Sans MS", cursive !important; line-height: 3 !important; letter-spacing: 4px !important; color: red !important; }
        button { all: unset; }
        img { width: 13px !important; }
        .card, .gc-card, article { display: none !important; }
        h1, h2, h3 { font-size: 60px !important; }
        input, select, textarea { border: 5px solid lime !important; }
      `,
    })
    const after = await fingerprint()
    expect(after).toEqual(before)
    const flat = before.flat()
    expect(flat.length).toBeGreaterThan(500)
    expect(flat.find((row) => row.startsWith('img|'))?.split('|')[3]).not.toBe('13')
  })

  test('take the partner theme through custom properties and parts only', async ({ page, partner }) => {
    await page.goto(`${partner.allowedOrigin}/themed.html`)
    await expect(cards(page, 'gc-featured-carts')).toHaveCount(3)
    const themed = await page.evaluate(() => {
      const root = document.querySelector('gc-featured-carts')!.shadowRoot!
      const card = getComputedStyle(root.querySelector('.gc-card')!)
      return { radius: card.borderTopLeftRadius, border: card.borderTopWidth, font: card.fontFamily }
    })
    expect(themed).toEqual({ radius: '2px', border: '2px', font: expect.stringContaining('Trebuchet MS') })
  })

  test('share one query cache: two featured lists make one request', async ({ page, partner, requests }) => {
    await page.goto(`${partner.allowedOrigin}/index.html`)
    await page.evaluate(() => {
      document.body.insertAdjacentHTML('beforeend', '<gc-featured-carts></gc-featured-carts><gc-featured-carts></gc-featured-carts>')
    })
    // Elements added after load are found too; the loader script is added last, as a CMS might.
    await addLoader(page, partner.api.url)
    await expect(cards(page, 'gc-featured-carts')).toHaveCount(6)
    expect(requests.filter((r) => r.includes('/trpc/cart.featured'))).toHaveLength(1)
  })

  test('survive the bundle being loaded twice', async ({ page, partner, problems }) => {
    await page.goto(`${partner.allowedOrigin}/dealer-network.html`)
    await expect(cards(page, 'gc-featured-carts')).toHaveCount(3)
    await addLoader(page, partner.api.url, '?copy=2')
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<gc-rental-plans></gc-rental-plans>'))
    await expect(page.locator('gc-rental-plans .gc-plan')).toHaveCount(12)
    // That nothing went wrong: the page has had its chance to (tests/support/browser.ts, `settled`).
    await settled(page)
    expect(problems).toEqual([])
  })

  test('reset a prop when its attribute is removed, and follow property changes', async ({ page, partner }) => {
    await page.goto(`${partner.allowedOrigin}/dealer-network.html`)
    await expect(cards(page, 'gc-inventory')).toHaveCount(24)
    await page.evaluate(() => document.querySelector('gc-inventory')!.setAttribute('category', 'used'))
    await expect(page.locator('gc-inventory .gc-empty')).toHaveText('No golf carts found in this category.')
    await page.evaluate(() => document.querySelector('gc-inventory')!.removeAttribute('category'))
    await expect(cards(page, 'gc-inventory')).toHaveCount(24)
    await expect(page.locator('gc-inventory').getByRole('button', { name: /^All Categories/ })).toHaveAttribute('aria-pressed', 'true')
    await page.evaluate(() => (document.querySelector<HTMLElement & { limit: number }>('gc-featured-carts')!.limit = 5))
    await expect(cards(page, 'gc-featured-carts')).toHaveCount(5)
  })

  test('keep what a visitor typed when the page moves the element', async ({ page, partner }) => {
    await page.goto(`${partner.allowedOrigin}/quote-landing.html`)
    await page.locator('gc-contact-form input[name="firstName"]').fill('Moved')
    await page.evaluate(() => {
      const form = document.querySelector('gc-contact-form')!
      const dialog = document.createElement('section')
      document.body.append(dialog)
      dialog.append(form)
    })
    // That the value is NOT lost: the page has had its chance to lose it.
    await settled(page)
    await expect(page.locator('gc-contact-form input[name="firstName"]')).toHaveValue('Moved')
  })

  test('are usable with the keyboard alone', async ({ page, partner }) => {
    await page.goto(`${partner.allowedOrigin}/dealer-network.html`)
    await expect(cards(page, 'gc-inventory')).toHaveCount(24)
    const inventory = page.locator('gc-inventory')
    // In a narrow column the filters are behind their Filters button: open it from the keyboard.
    const toggle = inventory.locator('summary.gc-filters__toggle')
    if (await toggle.isVisible()) {
      await toggle.focus()
      await page.keyboard.press('Enter')
    }
    await inventory.getByLabel('Search').focus()
    await page.keyboard.type('nomad')
    await page.keyboard.press('Enter')
    await expect.poll(() => cards(page, 'gc-inventory').count()).toBeLessThan(24)
    await inventory.getByRole('button', { name: /^Lithium Ion/ }).focus()
    await page.keyboard.press('Enter')
    await expect(inventory.getByRole('button', { name: /^Lithium Ion/ })).toHaveAttribute('aria-pressed', 'true')
    await page.goto(`${partner.allowedOrigin}/quote-landing.html`)
    await page.locator('gc-payment-calculator input').nth(1).focus()
    await page.keyboard.type('4995')
    await page.keyboard.press('Enter')
    await expect(page.locator('gc-payment-calculator .gc-calculator__amount')).toHaveText('$277.78')
  })

  for (const path of ['/all-elements.html', '/themed.html', '/quote-landing.html']) {
    test(`pass axe on ${path}`, async ({ page, partner, axe }) => {
      await page.goto(`${partner.allowedOrigin}${path}`)
      await expect(page.locator('gc-contact-form form')).toBeVisible()
      if (path !== '/quote-landing.html') await expect(cards(page, 'gc-featured-carts')).toHaveCount(3)
      expect(await axe()).toEqual([])
    })
  }

  test.describe('at phone width', () => {
    test.use({ viewport: phone })

    test('pass axe with field errors and a toast showing', async ({ page, partner, axe }) => {
      await page.goto(`${partner.allowedOrigin}/quote-landing.html`)
      await page.locator('gc-contact-form button[type="submit"]').click()
      await expect(page.locator('gc-contact-form .gc-field__error').first()).toBeVisible()
      await fillQuoteForm(page)
      await page.locator('gc-contact-form button[type="submit"]').click()
      await expect(page.locator('gc-contact-form .gc-toast')).toBeVisible()
      expect(await axe()).toEqual([])
    })
  })
})
