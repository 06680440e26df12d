import { newJerseyDay } from '../../domain/appointments.ts'
import { expect, onPhone, test, visitHydrated } from './fixtures.ts'

/**
 * `<gc-book-visit>` on a partner's page (issue #51; PRODUCT.md "where shoppers book"): the built
 * bundle from another origin, under a strict Content-Security-Policy, themed by its parts; the
 * slot picker worked with the keyboard alone, at 320 px; a booking made and stored as a lead. And
 * the vehicle page's "Book a test drive" on a phone, the cart named.
 */
// The partner's API also serves the dealer's site (the vehicle pages).
test.use({ partnerSite: true })

test.describe('gc-book-visit on a partner page', () => {
  test('books a test drive with the keyboard, under a strict CSP, themed by parts, and axe finds nothing', async ({ page, partner, problems, axe }) => {
    const api = partner.api.url
    await page.goto(
      partner.write(
        `<main><h1>Shore carts</h1>
         <gc-book-visit showroom="bayville" kind="test-drive" source="shore-partner"></gc-book-visit></main>`,
        {
          head: `<script type="module" src="${api}/widgets/gc-widgets.js"></script>
                 <style>gc-book-visit::part(slot-chosen) { outline: 4px solid rgb(0, 128, 0); }</style>`,
          csp: `default-src 'none'; script-src ${api}; connect-src ${api}; img-src ${api}; style-src 'unsafe-inline'`,
        },
      ),
    )
    await page.evaluate(() => {
      const events: unknown[] = []
      Object.assign(window, { events })
      document.addEventListener('gc-lead-submitted', (e) => events.push({ detail: (e as CustomEvent).detail, composed: e.composed }))
    })
    const form = page.locator('gc-book-visit form')
    const day = form.getByLabel('Day')
    await expect(day).toBeVisible()
    await expect(page.locator('gc-book-visit h2')).toHaveText('Book a Test Drive')

    // The keyboard alone: the day, then into the times, an arrow to the second time.
    await day.focus()
    await expect.poll(() => day.locator('option').count()).toBeGreaterThan(5)
    await page.keyboard.press('ArrowDown')
    const chosenDay = await day.inputValue()
    await page.keyboard.press('Tab')
    await page.keyboard.press('ArrowRight')
    await expect(form.locator('fieldset.gc-slots__times legend')).toHaveText(/^Time on \w+day, \w+ \d+/)
    const checked = form.locator('input[name="startsAt"]:checked')
    await expect(checked).toHaveCount(1)
    const startsAt = await checked.inputValue()
    // The second time of the day chosen (the arrow moved on from the first).
    expect(newJerseyDay(Date.parse(startsAt))).toBe(chosenDay)
    await expect(form.locator('input[name="startsAt"]').nth(1)).toHaveValue(startsAt)
    // The chosen time carries its part, so the partner's ::part() rule reaches it.
    await expect.poll(() => page.locator('gc-book-visit [part~="slot-chosen"] span').evaluate((el) => getComputedStyle(el.parentElement!).outlineColor)).toBe('rgb(0, 128, 0)')

    await form.getByLabel('First name').fill('Pat')
    await form.getByLabel('Last name').fill('Partner')
    await form.getByLabel('Email').fill('pat.partner@example.com')
    expect(await axe()).toEqual([])

    // 320 px: nothing wider than the screen.
    await page.setViewportSize({ width: 320, height: 800 })
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
    const slotBox = await page.locator('gc-book-visit .gc-slot').first().boundingBox()
    expect(slotBox!.height).toBeGreaterThanOrEqual(44)

    await form.getByRole('button', { name: 'Book this time' }).click()
    await expect(page.locator('gc-book-visit [part~="notice"]').first()).toContainText('A confirmation with a calendar invitation')
    const events = (await page.evaluate(() => (window as typeof window & { events: unknown[] }).events)) as {
      detail: { id: number; interest: string; appointmentId: number; startsAt: string }
      composed: boolean
    }[]
    expect(events).toEqual([{ detail: { id: expect.any(Number), interest: 'test-drive', appointmentId: expect.any(Number), startsAt }, composed: true }])
    const [stored] = await partner.api.db.sql<{ sourceLabel: string; showroom: string; startsAt: Date }[]>`
      select i.source_label, a.showroom, a.starts_at from appointments a join contact_inquiries i on i.id = a.inquiry_id
      where a.id = ${events[0]!.detail.appointmentId}
    `
    expect(stored).toEqual({ sourceLabel: 'shore-partner', showroom: 'bayville', startsAt: new Date(startsAt) })
    expect(problems).toEqual([])
  })

  test.describe('on a phone', () => {
    test.use(onPhone)

    test('books a test drive from the vehicle page, the cart named and stored with the lead', async ({ page, partner }) => {
      const api = partner.api.url
      const [cart] = await partner.api.db.sql<{ id: number; slug: string; title: string }[]>`select id, slug, title from golf_carts where status = 'available' order by id limit 1`
      await visitHydrated(page, `${api}/vehicle/${cart!.slug}`)
      // Below the fold on a phone, the booking hydrates as the shopper scrolls to it (host/islands/reach.ts).
      await page.locator('[data-island="book-visit"]').scrollIntoViewIfNeeded()
      await expect(page.locator('[data-island="book-visit"]')).toHaveAttribute('data-hydrated')
      await page.getByRole('button', { name: 'Book a test drive' }).click()
      await expect(page.getByRole('heading', { name: `Book a Test Drive of the ${cart!.title}` })).toBeFocused()
      const section = page.locator('#test-drive')
      // The next day's third time: the first free day can be today with fewer times left.
      const day = section.getByLabel('Day')
      const second = await day.locator('option').nth(1).getAttribute('value')
      await day.selectOption(second)
      await expect(section.locator('fieldset.gc-slots__times legend')).toHaveText(/^Time on \w+day, \w+ \d+/)
      const time = section.locator('.gc-slot').nth(2)
      await expect.poll(async () => newJerseyDay(Date.parse(await time.locator('input').inputValue()))).toBe(second)
      await time.click()
      await section.getByLabel('First name').fill('Vera')
      await section.getByLabel('Last name').fill('Visitor')
      await section.getByLabel('Email').fill('vera@example.com')
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      await section.getByRole('button', { name: 'Book this time' }).click()
      await expect(section.locator('[role="status"]').first()).toContainText('vera@example.com')
      const [stored] = await partner.api.db.sql<{ interest: string; cartTitle: string; sourceLabel: string }[]>`
        select i.interest, i.cart_title, i.source_label from appointments a join contact_inquiries i on i.id = a.inquiry_id where i.email = 'vera@example.com'
      `
      expect(stored).toEqual({ interest: 'test-drive', cartTitle: cart!.title, sourceLabel: 'vehicle-page' })
    })
  })

  test.describe('on a phone with JavaScript turned off', () => {
    test.use({ ...onPhone, javaScriptEnabled: false })

    test('books a test drive from the vehicle page, and axe finds nothing', async ({ page, context, partner, axe }) => {
      const api = partner.api.url
      const [cart] = await partner.api.db.sql<{ slug: string; title: string }[]>`select slug, title from golf_carts where status = 'available' order by id desc limit 1`
      await page.goto(`${api}/vehicle/${cart!.slug}`)
      // Without a script "Book a test drive" is a link: the page again with the form open.
      await page.getByRole('link', { name: 'Book a test drive' }).click()
      await page.waitForURL(/\?day=#test-drive$/)
      const section = page.locator('#test-drive')
      // Another day: a GET of the page, that day's times as radios.
      const day = section.getByLabel('Day')
      const second = await day.locator('option').nth(1).getAttribute('value')
      await day.selectOption(second)
      await section.getByRole('button', { name: 'Show times' }).click()
      await page.waitForURL(new RegExp(`\\?day=${second}#test-drive$`))
      const time = section.locator('.gc-slot').nth(1)
      const startsAt = await time.locator('input').inputValue()
      expect(newJerseyDay(Date.parse(startsAt))).toBe(second)
      await time.click()
      await section.getByLabel('First name').fill('Nell')
      await section.getByLabel('Last name').fill('Noscript')
      await section.getByLabel('Email').fill('nell@example.com')
      // Measured by the DevTools protocol, which the page's disabled scripts also stop: allowed for
      // the measuring only, after the page has loaded without them (none of its scripts runs late).
      const cdp = await context.newCDPSession(page)
      const measured = async <T>(measure: () => Promise<T>) => {
        await cdp.send('Emulation.setScriptExecutionDisabled', { value: false })
        try {
          return await measure()
        } finally {
          await cdp.send('Emulation.setScriptExecutionDisabled', { value: true })
        }
      }
      // Still the server's form, not a hydrated island: the day is a GET and its button is there.
      await expect(section.getByRole('button', { name: 'Show times' })).toHaveCount(1)
      expect(await measured(() => page.evaluate(() => document.documentElement.scrollWidth))).toBeLessThanOrEqual(390)
      expect(await measured(() => axe())).toEqual([])
      if (process.env.SCREENSHOTS) {
        await section.screenshot({ path: `${process.env.SCREENSHOTS}/book-no-js-390.png` })
        await page.setViewportSize({ width: 1280, height: 900 })
        await section.screenshot({ path: `${process.env.SCREENSHOTS}/book-no-js-1280.png` })
        await page.setViewportSize({ width: 390, height: 844 })
      }
      await section.getByRole('button', { name: 'Book this time' }).click()
      await page.waitForURL(/\?booked=.+#test-drive$/)
      await expect(section.locator('.gc-booking__done')).toContainText('is on its way to your email')
      expect(await measured(() => axe())).toEqual([])
      if (process.env.SCREENSHOTS) await section.screenshot({ path: `${process.env.SCREENSHOTS}/booked-no-js-390.png` })
      const [stored] = await partner.api.db.sql<{ cartTitle: string; startsAt: Date }[]>`
        select i.cart_title, a.starts_at from appointments a join contact_inquiries i on i.id = a.inquiry_id where i.email = 'nell@example.com'
      `
      expect(stored).toEqual({ cartTitle: cart!.title, startsAt: new Date(startsAt) })
    })
  })
})
