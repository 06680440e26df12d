import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../support/browser.ts'
import { addLoader, cards, usePartnerPages } from '../support/partner-pages.ts'
import { startingInventory } from '../../api/carts/starting-inventory.ts'
/** The seeded inventory's pages of 24, computed from the starting inventory, not remembered. */
const seededCarts = startingInventory().length
const seededPages = Math.ceil(seededCarts / 24)


/** The built, minified widget bundle on partner pages from another origin (see usePartnerPages). */
const partner = usePartnerPages()
/** `look` for a page in the file's kept tab; `open` where a test counts what a first load asks for. */
const { open, look } = partner

async function fillQuoteForm(page: Page, form = 'gc-contact-form') {
  await page.locator(`${form} input[name="firstName"]`).fill('Dana')
  await page.locator(`${form} input[name="lastName"]`).fill('Whitaker')
  await page.locator(`${form} input[name="email"]`).fill('dana.whitaker@example.com')
  await page.locator(`${form} input[name="phone"]`).fill('(609) 555-0188')
  await page.locator(`${form} textarea[name="message"]`).fill('Interested in a D6 Max for our shore house.')
}

describe('widgets on a partner page', () => {
  it('render real data in every element, with the API on another origin', async () => {
    const { page, problems } = await look('/all-elements.html')
    await expect.poll(() => cards(page, 'gc-featured-carts').count(), { timeout: 15_000 }).toBe(3)
    await expect.poll(() => cards(page, 'gc-inventory').count(), { timeout: 15_000 }).toBe(24)
    await expect(page.locator('gc-inventory .gc-pager').textContent()).resolves.toContain(`Page 1 of ${seededPages}`)
    await expect.poll(() => page.locator('gc-vehicle-detail h2.gc-vehicle__title').textContent(), { timeout: 15_000 }).toBe('2025 Evolution D6 Max GT4')
    // The cart's own facts (issue #30, point 5), then SPEC's 14 figures in their three groups.
    await expect(page.locator('gc-vehicle-detail .gc-spec-group__title').allTextContents()).resolves.toEqual(['This Cart', 'Performance', 'Dimensions', 'Capacity'])
    await expect(page.locator('gc-vehicle-detail .gc-spec-group:first-child dt').first().textContent()).resolves.toBe('Stock Number')
    await expect(page.locator('gc-vehicle-detail .gc-spec-group:not(:first-child) .gc-spec-row').count()).resolves.toBe(14)
    await expect.poll(() => page.locator('gc-rental-plans .gc-plan').count(), { timeout: 15_000 }).toBe(12)
    await expect.poll(() => page.locator('gc-contact-form form').count(), { timeout: 15_000 }).toBe(1)

    await page.locator('gc-payment-calculator input').first().fill('12000')
    await page.locator('gc-payment-calculator button[type="submit"]').click()
    await expect(page.locator('gc-payment-calculator .gc-calculator__amount').textContent()).resolves.toBe('$333.33')

    // Images and links point back to the dealer, not to the partner.
    const src = await cards(page, 'gc-featured-carts').first().locator('img').getAttribute('src')
    expect(src).toBe(`${partner.api.url}/images/carts/2025-denago-ev-nomad-xl.svg`)
    const href = await cards(page, 'gc-featured-carts').first().locator('a').getAttribute('href')
    expect(href).toBe(`${partner.api.url}/vehicle/2025-denago-ev-nomad-xl`)
    expect(await page.locator('gc-featured-carts img').first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800)
    expect(problems).toEqual([])
  })

  it('load only the code of the elements on the page', async () => {
    const { page, requests } = await open('/rentals-landing.html')
    await expect.poll(() => page.locator('gc-rental-plans .gc-plan').count()).toBe(12)
    await expect.poll(() => page.locator('gc-contact-form form').count()).toBe(1)
    const chunks = requests.filter((r) => r.includes('/widgets/chunks/')).map((r) => r.split('/').pop()!.replace(/-[\w-]{8}\.js$/, ''))
    expect(chunks).toContain('rental-plans')
    expect(chunks).toContain('contact-form')
    for (const other of ['inventory', 'featured-carts', 'vehicle-detail', 'payment-calculator']) expect(chunks).not.toContain(other)
  })

  it('store a lead from the contact form and fire gc-lead-submitted', async () => {
    const { page, problems } = await look('/quote-landing.html')
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
    await expect(page.locator('gc-contact-form .gc-toast__title').textContent()).resolves.toBe('Message sent successfully!')
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
    await expect(page.locator('#events').textContent()).resolves.toContain('gc-lead-submitted')
    expect(await page.locator('gc-contact-form input[name="firstName"]').inputValue()).toBe('')
    expect(problems).toEqual([])
  })

  it('send no cookies to the API from a partner page', async () => {
    const context = await partner.newContext()
    await context.addCookies([{ name: 'session', value: 'secret', url: partner.api.url }])
    const page = await context.newPage()
    const cookieHeaders: (string | undefined)[] = []
    page.on('request', (r) => {
      if (r.url().startsWith(partner.api.url)) cookieHeaders.push(r.headers().cookie)
    })
    await page.goto(`${partner.allowedOrigin}/dealer-network.html`)
    await expect.poll(() => cards(page, 'gc-featured-carts').count()).toBe(3)
    expect(cookieHeaders.length).toBeGreaterThan(2)
    expect(cookieHeaders.filter(Boolean)).toEqual([])
  })

  it('are untouched by a hostile page stylesheet', async () => {
    const { page } = await look('/all-elements.html')
    await expect.poll(() => cards(page, 'gc-featured-carts').count()).toBe(3)
    await expect.poll(() => cards(page, 'gc-inventory').count()).toBe(24)
    await page.locator('gc-contact-form form').waitFor()
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

  it('take the partner theme through custom properties and parts only', async () => {
    const { page } = await look('/themed.html')
    await expect.poll(() => cards(page, 'gc-featured-carts').count()).toBe(3)
    const themed = await page.evaluate(() => {
      const root = document.querySelector('gc-featured-carts')!.shadowRoot!
      const card = getComputedStyle(root.querySelector('.gc-card')!)
      return { radius: card.borderTopLeftRadius, border: card.borderTopWidth, font: card.fontFamily }
    })
    expect(themed).toEqual({ radius: '2px', border: '2px', font: expect.stringContaining('Trebuchet MS') })
  })

  it('share one query cache: two featured lists make one request', async () => {
    const { page, requests } = await open('/index.html')
    await page.evaluate(() => {
      document.body.insertAdjacentHTML('beforeend', '<gc-featured-carts></gc-featured-carts><gc-featured-carts></gc-featured-carts>')
    })
    // Elements added after load are found too; the loader script is added last, as a CMS might.
    await addLoader(page, partner.api.url)
    await expect.poll(() => cards(page, 'gc-featured-carts').count()).toBe(6)
    expect(requests.filter((r) => r.includes('/trpc/cart.featured'))).toHaveLength(1)
  })

  it('survive the bundle being loaded twice', async () => {
    const { page, problems } = await look('/dealer-network.html')
    await expect.poll(() => cards(page, 'gc-featured-carts').count()).toBe(3)
    await addLoader(page, partner.api.url, '?copy=2')
    await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<gc-rental-plans></gc-rental-plans>'))
    await expect.poll(() => page.locator('gc-rental-plans .gc-plan').count()).toBe(12)
    await page.waitForTimeout(300)
    expect(problems).toEqual([])
  })

  it('reset a prop when its attribute is removed, and follow property changes', async () => {
    const { page } = await look('/dealer-network.html')
    await expect.poll(() => cards(page, 'gc-inventory').count()).toBe(24)
    await page.evaluate(() => document.querySelector('gc-inventory')!.setAttribute('category', 'used'))
    await expect.poll(() => page.locator('gc-inventory .gc-empty').textContent()).toBe('No golf carts found in this category.')
    await page.evaluate(() => document.querySelector('gc-inventory')!.removeAttribute('category'))
    await expect.poll(() => cards(page, 'gc-inventory').count()).toBe(24)
    expect(await page.locator('gc-inventory').getByRole('button', { name: /^All Categories/ }).getAttribute('aria-pressed')).toBe('true')
    await page.evaluate(() => (document.querySelector<HTMLElement & { limit: number }>('gc-featured-carts')!.limit = 5))
    await expect.poll(() => cards(page, 'gc-featured-carts').count()).toBe(5)
  })

  it('keep what a visitor typed when the page moves the element', async () => {
    const { page } = await look('/quote-landing.html')
    await page.locator('gc-contact-form input[name="firstName"]').fill('Moved')
    await page.evaluate(() => {
      const form = document.querySelector('gc-contact-form')!
      const dialog = document.createElement('section')
      document.body.append(dialog)
      dialog.append(form)
    })
    await page.waitForTimeout(200)
    expect(await page.locator('gc-contact-form input[name="firstName"]').inputValue()).toBe('Moved')
  })

  it('are usable with the keyboard alone', async () => {
    const { page } = await look('/dealer-network.html')
    await expect.poll(() => cards(page, 'gc-inventory').count()).toBe(24)
    const inventory = page.locator('gc-inventory')
    // In a narrow column the filters are behind their Filters button: open it from the keyboard.
    const toggle = inventory.locator('summary')
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
    await expect.poll(() => inventory.getByRole('button', { name: /^Lithium Ion/ }).getAttribute('aria-pressed')).toBe('true')
    const { page: quote } = await look('/quote-landing.html')
    await quote.locator('gc-payment-calculator input').nth(1).focus()
    await quote.keyboard.type('4995')
    await quote.keyboard.press('Enter')
    await expect(quote.locator('gc-payment-calculator .gc-calculator__amount').textContent()).resolves.toBe('$277.78')
  })

  it.each(['/all-elements.html', '/themed.html', '/quote-landing.html'])('pass axe on %s', async (path) => {
    const { page } = await look(path)
    await page.locator('gc-contact-form form').waitFor()
    if (path !== '/quote-landing.html') await expect.poll(() => cards(page, 'gc-featured-carts').count()).toBe(3)
    expect(await axeViolations(page)).toEqual([])
  })

  it('pass axe with field errors and a toast showing, at phone width', async () => {
    const { page } = await look('/quote-landing.html', partner.allowedOrigin, { width: 390, height: 844 })
    await page.locator('gc-contact-form button[type="submit"]').click()
    await page.locator('gc-contact-form .gc-field__error').first().waitFor()
    await fillQuoteForm(page)
    await page.locator('gc-contact-form button[type="submit"]').click()
    await page.locator('gc-contact-form .gc-toast').waitFor()
    expect(await axeViolations(page)).toEqual([])
  })
})
