import type { TestServer } from '../support/test-server.ts'
import { addLoader, expect, phone, test } from './fixtures.ts'

/**
 * "Tell me if the price drops" as a shopper meets it (PRODUCT.md, "watching a cart or a
 * search"): on a phone on the dealer's vehicle page, where the button opens the email field and
 * the form posts as it is, and in `<gc-vehicle-detail>` on a partner's page, where it goes through
 * the API from the partner's origin; each page passes axe with the field open and after sending.
 */
test.use({ partnerSite: true })
const slug = '2025-denago-ev-rover-xl6'

test.describe('a price alert', () => {
  test.describe('on a phone', () => {
    test.use({ viewport: phone })

    test('is asked for on the vehicle page: the button opens the field, sending says to check the email', async ({ page, partner, problems, axe }) => {
      await page.goto(`${partner.api.url}/vehicle/${slug}`)
      await page.getByText('Tell me if the price drops').click()
      const email = page.getByLabel('Email')
      await expect(email).toBeVisible()
      // The dealer's own page, in a browser that takes Web Push: offered beside the email field.
      await expect(page.getByRole('button', { name: 'Notify me in this browser instead' })).toBeVisible()
      expect(await axe()).toEqual([])

      await email.fill('phone-shopper@example.com')
      await page.getByRole('button', { name: 'Email me' }).click()
      await page.waitForURL(`**/vehicle/${slug}?watch=sent#watch`)
      await expect(page.locator('.gc-watch__sent')).toHaveText('Check your email: follow the link in it to turn the alert on. Nothing is sent until you do.')
      expect(await watchOf(partner.api, 'phone-shopper@example.com')).toMatchObject({ confirmedAt: null })
      expect(await axe()).toEqual([])
      expect(problems).toEqual([])
    })
  })

  test('is asked for in gc-vehicle-detail on a partner page, through the API, by email only', async ({ page, partner, problems, axe }) => {
    await page.goto(partner.write(`<main><h1>Our partner's carts</h1><gc-vehicle-detail api-base="${partner.api.url}" slug="${slug}"></gc-vehicle-detail></main>`))
    await addLoader(page, partner.api.url)
    const widget = page.locator('gc-vehicle-detail')
    await widget.getByText('Tell me if the price drops').click()
    await expect(widget.getByLabel('Email')).toBeVisible()
    // Another origin cannot run the site's service worker: no push there.
    await expect(widget.getByRole('button', { name: /in this browser/ })).toHaveCount(0)
    await widget.getByLabel('Email').fill('not an address')
    await widget.getByRole('button', { name: 'Email me' }).click()
    await expect(widget.getByText('Enter a valid email address, like name@example.com')).toBeVisible()
    expect(await axe()).toEqual([])

    await widget.getByLabel('Email').fill('partner-shopper@example.com')
    await widget.getByRole('button', { name: 'Email me' }).click()
    await expect(widget.getByRole('status').filter({ hasText: 'Check your email' })).toBeVisible()
    const { id } = (await (await fetch(`${partner.api.url}/api/golf-carts/slug/${slug}`)).json()) as { id: number }
    expect(await watchOf(partner.api, 'partner-shopper@example.com')).toEqual({ cartId: id, confirmedAt: null })
    expect(await axe()).toEqual([])
    expect(problems).toEqual([])
  })
})

async function watchOf(api: TestServer, email: string) {
  return (await api.db.sql<{ cartId: number; confirmedAt: Date | null }[]>`select cart_id, confirmed_at from cart_watches where email = ${email}`)[0]
}
