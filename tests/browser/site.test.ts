import { describe, expect, it } from 'vitest'
import { axeViolations } from '../support/browser.ts'
import { pageTypes } from '../support/page-types.ts'
import { phone, useSite } from '../support/site-visits.ts'
import { startingInventory } from '../../api/carts/starting-inventory.ts'
/** The seeded inventory's pages of 24, computed from the starting inventory, not remembered. */
const seededCarts = startingInventory().length
const seededPages = Math.ceil(seededCarts / 24)


/** The dealer's own site in Chromium: islands, navigation, forms, and axe on every page type. */
const site = useSite()
const visit = site.visit
const look = site.look

describe('the site in a browser', () => {
  it.each(['/', '/inventory', '/vehicle/2025-evolution-d6-max-gt4', '/ocean-county-golf-carts', '/contact'])(
    'hydrates %s without refetching its data or any mismatch',
    async (path) => {
      const { page, problems, apiCalls } = await visit(path)
      await page.waitForTimeout(300)
      expect(apiCalls).toEqual([])
      expect(problems).toEqual([])
    },
  )

  it('navigates between pages as ordinary page loads, the title and the current link from the server', async () => {
    const { page, problems } = await look('/')
    await page.locator('nav[aria-label="Main"] a', { hasText: 'Inventory' }).click()
    await page.waitForURL(/\/inventory$/)
    expect(await page.locator('main h1').textContent()).toBe('Golf Cart Inventory')
    expect(await page.title()).toBe('Golf Cart Inventory | Jersey Cart Co.')
    expect(await page.locator('nav[aria-label="Main"] a[aria-current="page"]').textContent()).toBe('Inventory')
    await page.goBack()
    await expect.poll(() => page.locator('main h1').textContent()).toBe("New Jersey's Electric Golf Cart Dealer")
    expect(problems).toEqual([])
  })

  it('scrolls to the top when the location changes', async () => {
    const { page } = await look('/')
    await page.locator('footer a', { hasText: 'Ocean County' }).scrollIntoViewIfNeeded()
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000)
    await page.locator('footer a', { hasText: 'Ocean County' }).click()
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Ocean County Golf Carts')
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
  })

  it('opens the mobile menu, shows the links and phone, and closes it on a link', async () => {
    const { page } = await look('/', phone)
    const toggle = page.getByRole('button', { name: 'Open menu' })
    expect(await page.locator('nav[aria-label="Main"]').isVisible()).toBe(false)
    await toggle.click()
    const menu = page.locator('#mobile-menu')
    expect(await menu.isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true')
    expect(await menu.locator('a[href^="tel:"]').textContent()).toContain('(888) 555-0100')
    await menu.locator('a', { hasText: 'Rentals' }).click()
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Golf Cart Rentals')
    expect(await menu.isVisible()).toBe(false)
  })

  it('closes the mobile menu on Escape and on a tap outside it, and the page behind never shows through', async () => {
    const context = await site.newContext({ viewport: phone, hasTouch: true, isMobile: true })
    const page = await context.newPage()
    await page.goto(`${site.server.url}/`)
    await page.waitForFunction(() => document.querySelector('#root')?.hasAttribute('data-hydrated'))
    await page.evaluate(() => window.scrollTo(0, 1500))
    const toggle = page.locator('.site-header__toggle')
    const menu = page.locator('#mobile-menu')
    await toggle.tap()
    expect(await menu.isVisible()).toBe(true)
    // Opaque behind every link: nothing of the scrolled page paints through the open menu.
    const backgrounds = await page.evaluate(() => {
      const header = document.querySelector('.site-header')!
      return [getComputedStyle(header).backgroundColor, getComputedStyle(document.querySelector('#mobile-menu')!).backgroundColor]
    })
    expect(backgrounds[0]).toBe('rgb(255, 255, 255)')
    for (const link of await menu.locator('a').all()) {
      const box = (await link.boundingBox())!
      const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('#mobile-menu') !== null, [box.x + box.width / 2, box.y + box.height / 2])
      expect(hit).toBe(true)
    }

    await page.keyboard.press('Escape')
    expect(await menu.isVisible()).toBe(false)
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('site-header__toggle')

    await toggle.tap()
    expect(await menu.isVisible()).toBe(true)
    // A tap outside, right on a link of the page behind: the menu closes and the page stays.
    const behind = page.locator('main a').filter({ visible: true }).last()
    await behind.evaluate((link) => window.scrollBy(0, link.getBoundingClientRect().top - 700))
    const box = (await behind.boundingBox())!
    expect(await menu.isVisible()).toBe(true)
    const url = page.url()
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2)
    expect(await menu.isVisible()).toBe(false)
    await page.waitForTimeout(300)
    expect(page.url()).toBe(url)
  })

  it('shows the featured carts and opens a vehicle with its derived specifications', async () => {
    const { page, problems } = await look('/')
    expect(await page.locator('.gc-featured .gc-card').count()).toBe(3)
    await page.getByRole('link', { name: 'View Details for 2025 Denago EV Rover XL6' }).click()
    await expect.poll(() => page.locator('main h1').textContent()).toBe('2025 Denago EV Rover XL6')
    const rows = await page.locator('.gc-spec-row').evaluateAll((els) => els.map((e) => e.textContent))
    expect(rows).toEqual(
      expect.arrayContaining(['Top Speed25 mph', 'Battery TypeLithium Ion', 'Seating6 Passengers', 'Payload1,200 lbs', 'AvailabilityIn Stock']),
    )
    expect(await page.title()).toBe('2025 Denago EV Rover XL6 | Jersey Cart Co.')
    expect(problems).toEqual([])
  })

  it('filters the inventory by category and pages through it', async () => {
    const { page, apiCalls } = await visit('/inventory')
    expect(await page.locator('.gc-inventory .gc-card').count()).toBe(24)
    await page.locator('.gc-filters').getByRole('link', { name: /^New Golf Carts/ }).click()
    await expect.poll(() => new URL(page.url()).search).toBe('?category=new')
    // The new search's region is in place once its pager carries the filter.
    await expect.poll(() => page.getByRole('link', { name: 'Next' }).getAttribute('href')).toContain('category=new')
    expect(await page.locator('.gc-inventory .gc-card').count()).toBe(24)
    await page.getByRole('link', { name: 'Next' }).click()
    await expect.poll(() => new URL(page.url()).search).toBe('?category=new&page=2')
    await expect.poll(() => page.locator('.gc-pager').textContent()).toContain(`Page 2 of ${seededPages}`)
    expect(await page.locator('.gc-inventory .gc-card').count()).toBe(Math.min(24, seededCarts - 24))
    expect(await page.title()).toBe('Golf Cart Inventory, Page 2 | Jersey Cart Co.')
    // The search swaps the server's own HTML in: no API call, no tRPC client on the page.
    expect(apiCalls).toEqual([])
  })

  it('scrolls smoothly to the rental plans', async () => {
    const { page } = await look('/rentals/cape-may-county-golf-cart-rentals', phone)
    await page.getByRole('link', { name: 'View Rental Plans' }).click()
    await expect
      .poll(() => page.locator('#rental-plans').evaluate((el) => Math.round(el.getBoundingClientRect().top)))
      .toBeLessThan(120)
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('rental-plans')
  })

  it('calculates a payment only when asked', async () => {
    const { page } = await look('/financing')
    await page.getByLabel('Cart Price ($)').fill('14,995')
    await page.getByLabel('Down Payment ($)').fill('2995')
    await page.getByLabel('Loan Term').selectOption('48')
    expect(await page.locator('.gc-calculator__amount').count()).toBe(0)
    await page.getByRole('button', { name: 'Calculate Payment' }).click()
    expect(await page.locator('.gc-calculator__amount').textContent()).toBe('$250.00')
  })

  it('sends the contact form, thanks the visitor and clears it', async () => {
    const { page } = await look('/contact?interest=rentals')
    expect(await page.getByLabel("I'm interested in").inputValue()).toBe('rentals')
    await page.getByLabel('First Name').fill('Lena')
    await page.getByLabel('Last Name').fill('Ortiz')
    await page.getByLabel('Email').fill('lena.ortiz@example.com')
    await page.getByLabel('Message', { exact: true }).fill('Weekly 6 seater in Avalon, July 4th week.')
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect.poll(() => page.locator('.gc-toast__title').textContent()).toBe('Message sent successfully!')
    expect(await page.locator('.gc-toast__description').textContent()).toBe("We'll get back to you within 24 hours.")
    expect(await page.getByLabel('First Name').inputValue()).toBe('')
    const [lead] = await site.server.db.sql`
      select interest, source_url, source_label, spam_reason from contact_inquiries where email = 'lena.ortiz@example.com'
    `
    expect(lead).toEqual({
      interest: 'rentals',
      sourceUrl: `${site.server.url}/contact?interest=rentals`,
      sourceLabel: 'dealer-site',
      spamReason: null,
    })
  })

  it('turns Get Quote on a vehicle page into a quote that names the cart', async () => {
    const { page } = await look('/vehicle/2025-denago-ev-rover-xl6')
    await page.locator('.gc-vehicle__summary').getByRole('link', { name: 'Get Quote' }).click()
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Contact Us')
    expect(new URL(page.url()).search).toBe('?cart=2025-denago-ev-rover-xl6')
    await expect.poll(() => page.locator('.gc-form__about').textContent()).toBe('Quote for: 2025 Denago EV Rover XL6 ($13,995)')
    expect(await page.getByLabel("I'm interested in").inputValue()).toBe('denago')
    await page.getByLabel('First Name').fill('Quinn')
    await page.getByLabel('Last Name').fill('Rivera')
    await page.getByLabel('Email').fill('quinn.rivera@example.com')
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect.poll(() => page.locator('.gc-toast__title').textContent()).toBe('Message sent successfully!')
    const [lead] = await site.server.db.sql`
      select cart_slug, cart_title, interest from contact_inquiries where email = 'quinn.rivera@example.com'
    `
    expect(lead).toEqual({ cartSlug: '2025-denago-ev-rover-xl6', cartTitle: '2025 Denago EV Rover XL6', interest: 'denago' })
  })

  it('lands Get Quote on a phone on the form, with the cart named and the first field in view', async () => {
    const { page } = await look('/vehicle/2025-denago-ev-rover-xl6', phone)
    await page.locator('.gc-vehicle__summary').getByRole('link', { name: 'Get Quote' }).click()
    await page.waitForURL(/\/contact\?cart=2025-denago-ev-rover-xl6#send-message$/)
    await page.waitForFunction(() => document.querySelector('#root')?.hasAttribute('data-hydrated'))
    await expect.poll(() => page.locator('.gc-form__about').textContent()).toBe('Quote for: 2025 Denago EV Rover XL6 ($13,995)')
    const inView = (selector: string) =>
      page.locator(selector).evaluate((el) => {
        const { top, bottom } = el.getBoundingClientRect()
        // Below the sticky header, above the bottom of the screen.
        return top >= document.querySelector('.site-header')!.getBoundingClientRect().bottom && bottom <= window.innerHeight
      })
    expect(await inView('.gc-form__about')).toBe(true)
    expect(await inView('input[name="firstName"]')).toBe(true)
  })

  it('keeps the form and shows the error toast when sending fails', async () => {
    const { page } = await visit('/contact')
    await page.route('**/trpc/inquiry.submit**', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { message: 'The database is not answering', code: -32603, data: { httpStatus: 503 } } }),
      }),
    )
    await page.getByLabel('First Name').fill('Lena')
    await page.getByLabel('Last Name').fill('Ortiz')
    await page.getByLabel('Email').fill('lena@example.com')
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect.poll(() => page.locator('.gc-toast__title').textContent()).toBe('Error sending message')
    expect(await page.locator('.gc-toast__description').textContent()).toBe('503: The database is not answering')
    expect(await page.getByLabel('First Name').inputValue()).toBe('Lena')
    expect(await page.getByLabel('Email').inputValue()).toBe('lena@example.com')
  })

  it('on a phone, puts the error toast clear of Send and keeps the failure beside the form after the toast has gone', async () => {
    const context = await site.newContext({ viewport: phone, hasTouch: true, isMobile: true })
    const page = await context.newPage()
    await page.clock.install()
    await page.goto(`${site.server.url}/contact#send-message`)
    await page.waitForFunction(() => document.querySelector('#root')?.hasAttribute('data-hydrated'))
    let failing = true
    await page.route('**/trpc/inquiry.submit**', (route) =>
      failing
        ? route.fulfill({
            status: 429,
            contentType: 'application/json',
            body: JSON.stringify({ error: { message: 'Too many messages from this address. Try again in 10 minutes, or call (888) 555-0100.', code: -32029, data: { httpStatus: 429 } } }),
          })
        : route.continue(),
    )
    await page.getByLabel('First Name').fill('Lena')
    await page.getByLabel('Last Name').fill('Ortiz')
    await page.getByLabel('Email').fill('lena.phone@example.com')
    const send = page.getByRole('button', { name: 'Send Message' })
    // Send low on the screen, where a phone's thumb presses it and a bottom toast would cover it.
    await send.evaluate((button) => window.scrollBy(0, button.getBoundingClientRect().bottom - window.innerHeight + 40))
    await send.tap()
    const toast = page.locator('.gc-toast')
    await expect.poll(() => toast.count(), { timeout: 10_000 }).toBe(1)
    const [toastBox, sendBox] = [(await toast.boundingBox())!, (await send.boundingBox())!]
    const overlaps = toastBox.y < sendBox.y + sendBox.height && sendBox.y < toastBox.y + toastBox.height
    expect(overlaps).toBe(false)
    const failure = page.locator('.gc-form__failure')
    expect(await failure.textContent()).toContain('Your message was not sent. 429: Too many messages from this address.')

    await page.clock.runFor(6000)
    await expect.poll(() => toast.count()).toBe(0)
    expect(await failure.textContent()).toContain('Try again in 10 minutes')
    failing = false
    await send.tap()
    await expect.poll(() => page.locator('.gc-toast__title').textContent(), { timeout: 10_000 }).toBe('Message sent successfully!')
    expect(await failure.count()).toBe(0)
  })

  it('sends the contact form with JavaScript turned off', async () => {
    const context = await site.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`${site.server.url}/contact`)
    await page.getByLabel('First Name').fill('Noscript')
    await page.getByLabel('Last Name').fill('Visitor')
    await page.getByLabel('Email').fill('noscript@example.com')
    await page.getByRole('button', { name: 'Send Message' }).click()
    await page.waitForURL(/sent=1#send-message$/)
    const notice = page.locator('.notice--success')
    expect(await notice.textContent()).toContain('Message sent successfully!')
    // The thank-you lands on the notice, not on the hero above it.
    const box = await notice.boundingBox()
    expect(box!.y).toBeGreaterThanOrEqual(0)
    expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height)
    const [lead] = await site.server.db.sql`select spam_reason from contact_inquiries where email = 'noscript@example.com'`
    expect(lead).toEqual({ spamReason: null })
  })

  it.each([
    ['a page on another site', 'http://evil.test/free-cart', 'dana@example.com', /^Your message was not sent\. Requests from http:\/\/evil\.test are not accepted by this site\.$/],
    ['the site itself, with a typo', '/typo-form', 'not-an-email', /^Enter a valid email address/],
  ])('keeps a refused form post from %s, typed values and reason, after the page\'s script loads', async (_, from, email, reason) => {
    const context = await site.newContext({ viewport: phone })
    // A plain form that posts itself at once, as a page would before the site's script loaded.
    const form = `<form method="post" action="${site.server.url}/contact"><input name="firstName" value="Dana"><input name="lastName" value="Whitaker"><input name="email" value="${email}"><input name="message" value="Is the D5 Ranger in stock?"></form><script>document.forms[0].submit()</script>`
    const url = from.startsWith('/') ? `${site.server.url}${from}` : from
    await context.route(url, (route) => route.fulfill({ contentType: 'text/html', body: form }))
    const page = await context.newPage()
    const problems: string[] = []
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
    await page.goto(url)
    await page.waitForURL(`${site.server.url}/contact`)
    await page.waitForFunction(() => document.querySelector('#root')?.hasAttribute('data-hydrated'))
    await page.waitForTimeout(300)
    const shown = (await page.locator('.notice--error, .gc-field__error').first().textContent())?.replace(/\s+/g, ' ').trim()
    expect(shown).toMatch(reason)
    expect(await page.getByLabel('Email').inputValue()).toBe(email)
    expect(await page.locator('textarea[name="message"]').inputValue()).toBe('Is the D5 Ranger in stock?')
    expect(problems).toEqual([])
    const [stored] = await site.server.db.sql`select count(*)::int as n from contact_inquiries where message = 'Is the D5 Ranger in stock?'`
    expect(stored?.n).toBe(0)
  })

  it('shows the 404 page for an unknown path', async () => {
    const { page } = await look('/golf-carts-on-the-moon')
    expect(await page.locator('main h1').textContent()).toBe('404 Page Not Found')
  })
})

describe('accessibility', () => {
  it.each(pageTypes)('axe finds nothing on %s at desktop width', async (path) => {
    const { page } = await site.look(path)
    expect(await axeViolations(page)).toEqual([])
  })

  it.each(['/', '/vehicle/2025-evolution-d6-max-gt4', '/contact', '/rentals/ocean-county-golf-cart-rentals'])(
    'axe finds nothing on %s at phone width, menu open',
    async (path) => {
      const { page } = await site.look(path, phone)
      await page.getByRole('button', { name: 'Open menu' }).click()
      expect(await axeViolations(page)).toEqual([])
    },
  )

  it('has one h1, landmarks and a working skip link', async () => {
    const { page } = await look('/services')
    expect(await page.locator('h1').count()).toBe(1)
    for (const landmark of ['header', 'main', 'footer', 'nav[aria-label="Main"]']) {
      expect(await page.locator(landmark).count()).toBeGreaterThan(0)
    }
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content')
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => location.hash)).toBe('#main')
  })
})
