import { startingInventory } from '../../api/carts/starting-inventory.ts'
import { expect, onPhone, phone, settled, test, visitHydrated } from './fixtures.ts'

/** The seeded inventory's pages of 24, computed from the starting inventory, not remembered. */
const seededCarts = startingInventory().length
const seededPages = Math.ceil(seededCarts / 24)

/** What a page asked the API for (tRPC or REST). */
const apiCalls = (requests: string[]) => requests.filter((url) => url.includes('/trpc/') || url.includes('/api/'))

/**
 * The dealer's own site in Chromium: islands, navigation, forms, and axe. (Axe on every page type
 * at 320 px and 1280 px is in site-layout.spec.ts, on the visit that checks the page's layout.)
 */
test.describe('the site in a browser', () => {
  for (const path of ['/', '/inventory', '/vehicle/2025-evolution-d6-max-gt4', '/ocean-county-golf-carts', '/contact', '/rentals/request']) {
    test(`hydrates ${path} without refetching its data or any mismatch`, async ({ page, server, problems, requests }) => {
      await visitHydrated(page, `${server.url}${path}`)
      // A form hydrates when the shopper scrolls to it or reaches for it (host/islands/reach.ts): both, here.
      const waiting = await page.locator('[data-island]:not([data-hydrated])').evaluateAll((els) => els.map((e) => e.getAttribute('data-island')))
      for (const name of waiting) {
        const island = page.locator(`[data-island="${name}"]`)
        await island.scrollIntoViewIfNeeded()
        await island.locator('input:not([type="hidden"]), select, textarea, a, button').first().focus()
        await expect(island).toHaveAttribute('data-hydrated')
      }
      // That nothing was fetched: the page has had its chance to.
      await settled(page)
      expect(apiCalls(requests)).toEqual([])
      expect(problems).toEqual([])
    })
  }

  test('navigates between pages as ordinary page loads, the title and the current link from the server', async ({ page, server, problems }) => {
    await visitHydrated(page, `${server.url}/`)
    await page.locator('nav[aria-label="Main"] a', { hasText: 'Inventory' }).click()
    await page.waitForURL(/\/inventory$/)
    await expect(page.locator('main h1')).toHaveText('Golf Cart Inventory')
    await expect(page).toHaveTitle('Golf Cart Inventory | Jersey Cart Co.')
    await expect(page.locator('nav[aria-label="Main"] a[aria-current="page"]')).toHaveText('Inventory')
    await page.goBack()
    await expect(page.locator('main h1')).toHaveText("New Jersey's Electric Golf Cart Dealer")
    expect(problems).toEqual([])
  })

  test('scrolls to the top when the location changes', async ({ page, server }) => {
    await visitHydrated(page, `${server.url}/`)
    await page.locator('footer a', { hasText: 'Ocean County' }).scrollIntoViewIfNeeded()
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000)
    await page.locator('footer a', { hasText: 'Ocean County' }).click()
    await expect(page.locator('main h1')).toHaveText('Ocean County Golf Carts')
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
  })

  test('shows the featured carts and opens a vehicle with its derived specifications', async ({ page, server, problems }) => {
    await visitHydrated(page, `${server.url}/`)
    await expect(page.locator('.gc-featured .gc-card')).toHaveCount(3)
    await page.getByRole('link', { name: 'View Details for 2025 Denago EV Rover XL6' }).click()
    await expect(page.locator('main h1')).toHaveText('2025 Denago EV Rover XL6')
    const rows = await page.locator('.gc-spec-row').evaluateAll((els) => els.map((e) => e.textContent))
    expect(rows).toEqual(expect.arrayContaining(['Top Speed25 mph', 'Battery TypeLithium Ion', 'Seating6 Passengers', 'Payload1,200 lbs', 'AvailabilityIn Stock']))
    await expect(page).toHaveTitle('2025 Denago EV Rover XL6 | Jersey Cart Co.')
    expect(problems).toEqual([])
  })

  test('filters the inventory by category and pages through it', async ({ page, server, requests }) => {
    await visitHydrated(page, `${server.url}/inventory`)
    const cards = page.locator('.gc-inventory .gc-card')
    await expect(cards).toHaveCount(24)
    await page.locator('.gc-filters').getByRole('link', { name: /^New Golf Carts/ }).click()
    await expect(page).toHaveURL((url) => url.search === '?category=new')
    // The new search's region is in place once its pager carries the filter.
    await expect(page.getByRole('link', { name: 'Next' })).toHaveAttribute('href', /category=new/)
    await expect(cards).toHaveCount(24)
    await page.getByRole('link', { name: 'Next' }).click()
    await expect(page).toHaveURL((url) => url.search === '?category=new&page=2')
    await expect(page.locator('.gc-pager')).toContainText(`Page 2 of ${seededPages}`)
    await expect(cards).toHaveCount(Math.min(24, seededCarts - 24))
    await expect(page).toHaveTitle('Golf Cart Inventory, Page 2 | Jersey Cart Co.')
    // The search swaps the server's own HTML in: no API call, no tRPC client on the page.
    expect(apiCalls(requests)).toEqual([])
  })

  test('calculates a payment only when asked', async ({ page, server }) => {
    await visitHydrated(page, `${server.url}/financing`)
    await page.getByLabel('Cart Price ($)').fill('14,995')
    await page.getByLabel('Down Payment ($)').fill('2995')
    await page.getByLabel('Loan Term').selectOption('48')
    await expect(page.locator('.gc-calculator__amount')).toHaveCount(0)
    await page.getByRole('button', { name: 'Calculate Payment' }).click()
    await expect(page.locator('.gc-calculator__amount')).toHaveText('$250.00')
  })

  test('sends the contact form, thanks the visitor and clears it', async ({ page, server }) => {
    await visitHydrated(page, `${server.url}/contact?interest=rentals`)
    await expect(page.getByLabel("I'm interested in")).toHaveValue('rentals')
    await page.getByLabel('First Name').fill('Lena')
    await page.getByLabel('Last Name').fill('Ortiz')
    await page.getByLabel('Email').fill('lena.ortiz@example.com')
    await page.getByLabel('Message', { exact: true }).fill('Weekly 6 seater in Avalon, July 4th week.')
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect(page.locator('.gc-toast__title')).toHaveText('Message sent successfully!')
    await expect(page.locator('.gc-toast__description')).toHaveText("We'll get back to you within 24 hours.")
    await expect(page.getByLabel('First Name')).toHaveValue('')
    const [lead] = await server.db.sql`
      select interest, source_url, source_label, spam_reason from contact_inquiries where email = 'lena.ortiz@example.com'
    `
    expect(lead).toEqual({
      interest: 'rentals',
      sourceUrl: `${server.url}/contact?interest=rentals`,
      sourceLabel: 'dealer-site',
      spamReason: null,
    })
  })

  test('turns Get Quote on a vehicle page into a quote that names the cart', async ({ page, server }) => {
    await visitHydrated(page, `${server.url}/vehicle/2025-denago-ev-rover-xl6`)
    await page.locator('.gc-vehicle__summary').getByRole('link', { name: 'Get Quote' }).click()
    await expect(page.locator('main h1')).toHaveText('Contact Us')
    expect(new URL(page.url()).search).toBe('?cart=2025-denago-ev-rover-xl6')
    await expect(page.locator('.gc-form__about')).toHaveText('Quote for: 2025 Denago EV Rover XL6 ($13,995)')
    await expect(page.getByLabel("I'm interested in")).toHaveValue('denago')
    await page.getByLabel('First Name').fill('Quinn')
    await page.getByLabel('Last Name').fill('Rivera')
    await page.getByLabel('Email').fill('quinn.rivera@example.com')
    await page.getByRole('button', { name: 'Send Message' }).click()
    await expect(page.locator('.gc-toast__title')).toHaveText('Message sent successfully!')
    const [lead] = await server.db.sql`
      select cart_slug, cart_title, interest from contact_inquiries where email = 'quinn.rivera@example.com'
    `
    expect(lead).toEqual({ cartSlug: '2025-denago-ev-rover-xl6', cartTitle: '2025 Denago EV Rover XL6', interest: 'denago' })
  })

  test('keeps the form and shows the error toast when sending fails', async ({ page, server }) => {
    await visitHydrated(page, `${server.url}/contact`)
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
    await expect(page.locator('.gc-toast__title')).toHaveText('Error sending message')
    await expect(page.locator('.gc-toast__description')).toHaveText('503: The database is not answering')
    await expect(page.getByLabel('First Name')).toHaveValue('Lena')
    await expect(page.getByLabel('Email')).toHaveValue('lena@example.com')
  })

  test.describe('with JavaScript turned off', () => {
    // Playwright's own default window (a context made without one, as the vitest test's was).
    test.use({ javaScriptEnabled: false, viewport: { width: 1280, height: 720 } })

    test('sends the contact form', async ({ page, server }) => {
      await page.goto(`${server.url}/contact`)
      await page.getByLabel('First Name').fill('Noscript')
      await page.getByLabel('Last Name').fill('Visitor')
      await page.getByLabel('Email').fill('noscript@example.com')
      await page.getByRole('button', { name: 'Send Message' }).click()
      await page.waitForURL(/sent=1#send-message$/)
      const notice = page.locator('.notice--success')
      await expect(notice).toContainText('Message sent successfully!')
      // The thank-you lands on the notice, not on the hero above it.
      const box = await notice.boundingBox()
      expect(box!.y).toBeGreaterThanOrEqual(0)
      expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height)
      const [lead] = await server.db.sql`select spam_reason from contact_inquiries where email = 'noscript@example.com'`
      expect(lead).toEqual({ spamReason: null })
    })
  })

  test('shows the 404 page for an unknown path', async ({ page, server }) => {
    await visitHydrated(page, `${server.url}/golf-carts-on-the-moon`)
    await expect(page.locator('main h1')).toHaveText('404 Page Not Found')
  })

  test.describe('at phone width', () => {
    test.use({ viewport: phone })

    test('opens the mobile menu, shows the links and phone, and closes it on a link', async ({ page, server }) => {
      await visitHydrated(page, `${server.url}/`)
      const toggle = page.getByRole('button', { name: 'Open menu' })
      await expect(page.locator('nav[aria-label="Main"]')).toBeHidden()
      await toggle.click()
      const menu = page.locator('#mobile-menu')
      await expect(menu).toBeVisible()
      await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true')
      await expect(menu.locator('a[href^="tel:"]')).toContainText('(888) 555-0100')
      await menu.locator('a', { hasText: 'Rentals' }).click()
      await expect(page.locator('main h1')).toHaveText('Golf Cart Rentals')
      await expect(menu).toBeHidden()
    })

    test('scrolls smoothly to the rental plans', async ({ page, server }) => {
      await visitHydrated(page, `${server.url}/rentals/cape-may-county-golf-cart-rentals`)
      // Asked of the document on the pages with the plans only (site.css): elsewhere a jump is a jump.
      const scrollBehavior = () => page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)
      expect(await scrollBehavior()).toBe('smooth')
      await page.getByRole('link', { name: 'View Rental Plans' }).click()
      await expect.poll(() => page.locator('#rental-plans').evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeLessThan(120)
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500)
      await expect(page.locator('#rental-plans')).toBeFocused()
      await page.goto(`${server.url}/about`)
      expect(await scrollBehavior()).toBe('auto')
    })

    test('lands Get Quote on the form, with the cart named and the first field in view', async ({ page, server }) => {
      await visitHydrated(page, `${server.url}/vehicle/2025-denago-ev-rover-xl6`)
      await page.locator('.gc-vehicle__summary').getByRole('link', { name: 'Get Quote' }).click()
      await page.waitForURL(/\/contact\?cart=2025-denago-ev-rover-xl6#send-message$/)
      await expect(page.locator('#root')).toHaveAttribute('data-hydrated')
      await expect(page.locator('.gc-form__about')).toHaveText('Quote for: 2025 Denago EV Rover XL6 ($13,995)')
      const inView = (selector: string) =>
        page.locator(selector).evaluate((el) => {
          const { top, bottom } = el.getBoundingClientRect()
          // Below the sticky header, above the bottom of the screen.
          return top >= document.querySelector('.site-header')!.getBoundingClientRect().bottom && bottom <= window.innerHeight
        })
      expect(await inView('.gc-form__about')).toBe(true)
      expect(await inView('input[name="firstName"]')).toBe(true)
    })

    for (const [from, address, email, reason] of [
      ['a page on another site', 'http://evil.test/free-cart', 'dana@example.com', /^Your message was not sent\. Requests from http:\/\/evil\.test are not accepted by this site\.$/],
      ['the site itself, with a typo', '/typo-form', 'not-an-email', /^Enter a valid email address/],
    ] as const) {
      test(`keeps a refused form post from ${from}, typed values and reason, after the page's script loads`, async ({ page, context, server }) => {
        const pageErrors: string[] = []
        page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`))
        // A plain form that posts itself at once, as a page would before the site's script loaded.
        const form = `<form method="post" action="${server.url}/contact"><input name="firstName" value="Dana"><input name="lastName" value="Whitaker"><input name="email" value="${email}"><input name="message" value="Is the D5 Ranger in stock?"></form><script>document.forms[0].submit()</script>`
        const url = address.startsWith('/') ? `${server.url}${address}` : address
        await context.route(url, (route) => route.fulfill({ contentType: 'text/html', body: form }))
        await page.goto(url)
        await page.waitForURL(`${server.url}/contact`)
        await expect(page.locator('#root')).toHaveAttribute('data-hydrated')
        const notice = page.locator('.notice--error, .gc-field__error').first()
        await expect.poll(async () => (await notice.textContent())?.replace(/\s+/g, ' ').trim()).toMatch(reason)
        await expect(page.getByLabel('Email')).toHaveValue(email)
        await expect(page.locator('textarea[name="message"]')).toHaveValue('Is the D5 Ranger in stock?')
        // The refused post answers 4xx, as it should: what must not happen is an error in the page.
        expect(pageErrors).toEqual([])
        const [stored] = await server.db.sql`select count(*)::int as n from contact_inquiries where message = 'Is the D5 Ranger in stock?'`
        expect(stored?.n).toBe(0)
      })
    }
  })

  test.describe('on a phone with touch', () => {
    test.use(onPhone)

    test('closes the mobile menu on Escape and on a tap outside it, and the page behind never shows through', async ({ page, server }) => {
      await visitHydrated(page, `${server.url}/`)
      await page.evaluate(() => window.scrollTo(0, 1500))
      const toggle = page.locator('.site-header__toggle')
      const menu = page.locator('#mobile-menu')
      await toggle.tap()
      await expect(menu).toBeVisible()
      // Opaque behind every link: nothing of the scrolled page paints through the open menu.
      await expect(page.locator('.site-header')).toHaveCSS('background-color', 'rgb(255, 255, 255)')
      for (const link of await menu.locator('a').all()) {
        const box = (await link.boundingBox())!
        const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('#mobile-menu') !== null, [box.x + box.width / 2, box.y + box.height / 2])
        expect(hit).toBe(true)
      }

      await page.keyboard.press('Escape')
      await expect(menu).toBeHidden()
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      await expect(toggle).toBeFocused()

      await toggle.tap()
      await expect(menu).toBeVisible()
      // A tap outside, right on a link of the page behind: the menu closes and the page stays.
      const behind = page.locator('main a').filter({ visible: true }).last()
      await behind.evaluate((link) => window.scrollBy(0, link.getBoundingClientRect().top - 700))
      const box = (await behind.boundingBox())!
      await expect(menu).toBeVisible()
      const url = page.url()
      await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2)
      await expect(menu).toBeHidden()
      // That the page did NOT follow the link: it has had its chance to.
      await settled(page)
      expect(page.url()).toBe(url)
    })

    test('puts the error toast clear of Send and keeps the failure beside the form after the toast has gone', async ({ page, server }) => {
      await page.clock.install()
      await visitHydrated(page, `${server.url}/contact#send-message`)
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
      await expect(toast).toHaveCount(1)
      const [toastBox, sendBox] = [(await toast.boundingBox())!, (await send.boundingBox())!]
      const overlaps = toastBox.y < sendBox.y + sendBox.height && sendBox.y < toastBox.y + toastBox.height
      expect(overlaps).toBe(false)
      const failure = page.locator('.gc-form__failure')
      await expect(failure).toContainText('Your message was not sent. 429: Too many messages from this address.')

      await page.clock.runFor(6000)
      await expect(toast).toHaveCount(0)
      await expect(failure).toContainText('Try again in 10 minutes')
      failing = false
      await send.tap()
      await expect(page.locator('.gc-toast__title')).toHaveText('Message sent successfully!')
      await expect(failure).toHaveCount(0)
    })
  })
})

test.describe('accessibility', () => {
  test.describe('at phone width', () => {
    test.use({ viewport: phone })

    for (const path of ['/', '/vehicle/2025-evolution-d6-max-gt4', '/contact', '/rentals/ocean-county-golf-cart-rentals']) {
      test(`axe finds nothing on ${path}, menu open`, async ({ page, server, axe }) => {
        await visitHydrated(page, `${server.url}${path}`)
        await page.getByRole('button', { name: 'Open menu' }).click()
        expect(await axe()).toEqual([])
      })
    }
  })

  test('has one h1, landmarks and a working skip link', async ({ page, server }) => {
    await visitHydrated(page, `${server.url}/services`)
    await expect(page.locator('h1')).toHaveCount(1)
    for (const landmark of ['header', 'main', 'footer', 'nav[aria-label="Main"]']) await expect(page.locator(landmark).first()).toBeAttached()
    await page.keyboard.press('Tab')
    await expect(page.locator(':focus')).toHaveText('Skip to main content')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL((url) => url.hash === '#main')
  })
})
