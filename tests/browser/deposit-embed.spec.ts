import { holdButtonLabel } from '../../domain/deposits.ts'
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in.ts'
import { addLoader, expect, test as base } from './fixtures.ts'

/**
 * A partner page's `<gc-vehicle-detail>` starting a deposit (issue #52; PRODUCT.md "holding a
 * cart"), in Chromium with the built bundle: Hold opens the form, the shopper's details go to the
 * dealer's API, and the browser lands on Stripe's page (a local stand-in); Stripe's event then
 * holds the cart, and the element says so.
 */
const test = base.extend<object, { stripe: StripeStandIn }>({
  stripe: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const stripe = await startStripeStandIn()
      await use(stripe)
      await stripe.stop()
    },
    { scope: 'worker' },
  ],
  partnerEnv: [async ({ stripe }, use) => use(stripe.env), { scope: 'worker' }],
})

test.describe('a partner page’s gc-vehicle-detail', () => {
  test('starts a deposit: the form, then Stripe’s page; paid, the element says On hold until', async ({ page, partner, stripe, problems, axe }) => {
    const [cart] = await partner.api.db.sql<{ id: number; slug: string; title: string }[]>`
      select id, slug, title from golf_carts where status = 'available' order by id desc limit 1
    `
    await page.goto(partner.write(`<main><h1>Carts from our partner</h1><gc-vehicle-detail slug="${cart!.slug}" source="partner-test"></gc-vehicle-detail></main>`))
    await addLoader(page, partner.api.url)
    const label = holdButtonLabel({ amountCents: 50_000, holdDays: 7 })
    const hold = page.getByRole('button', { name: label })
    await hold.click()
    await expect(hold).toHaveAttribute('aria-expanded', 'true')
    const form = page.locator('gc-vehicle-detail form.gc-hold__form')
    await form.getByLabel('First Name').fill('Ann')
    await form.getByLabel('Last Name').fill('Buyer')
    await form.getByLabel('Email').fill('ann@example.com')
    expect(await axe()).toEqual([])
    // The consent box without a phone is refused beside the phone, before anything is sent.
    await form.getByLabel('Text me about this request').check()
    await form.getByRole('button', { name: 'Continue to secure payment' }).click()
    await expect(form.locator('.gc-field__error')).toHaveText(['Enter the phone number to text, or untick “Text me about this request”'])
    await expect(form.getByLabel('Phone')).toBeFocused()
    expect(stripe.requests).toEqual([])

    await form.getByLabel('Phone').fill('(609) 555-0142')
    await form.getByRole('button', { name: 'Continue to secure payment' }).click()
    await page.waitForURL(`${stripe.url}/c/pay/**`)
    const session = [...stripe.sessions.values()].find((s) => page.url() === s.url)!
    expect(session.metadata).toMatchObject({ cartId: String(cart!.id), cartSlug: cart!.slug })
    const [deposit] = await partner.api.db.sql<{ sourceLabel: string; sourceUrl: string; textConsent: boolean; email: string }[]>`
      select source_label, source_url, text_consent, email from deposits where checkout_session_id = ${session.id}
    `
    expect(deposit).toMatchObject({ sourceLabel: 'partner-test', textConsent: true, email: 'ann@example.com' })
    expect(deposit!.sourceUrl).toMatch(new RegExp(`^${partner.allowedOrigin}/written/`))
    expect(problems).toEqual([])

    expect((await stripe.deliver(`${partner.api.url}/webhooks/stripe`, stripe.completedEvent(session.id).body)).status).toBe(200)
    await page.goto(partner.write(`<main><gc-vehicle-detail slug="${cart!.slug}"></gc-vehicle-detail></main>`))
    await addLoader(page, partner.api.url)
    await expect(page.locator('gc-vehicle-detail [part~="hold-until"]')).toHaveText(/^On hold until \w+day, \w+ \d+\./)
    await expect(page.getByRole('button', { name: label })).toHaveCount(0)
  })
})
