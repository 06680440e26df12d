import type { Page } from '@playwright/test'
import { rentalLinkSignature } from '../../api/deposits/rental-deposits.ts'
import { createContextInner } from '../../api/trpc/context.ts'
import { createCaller } from '../../api/trpc/router.ts'
import { addDays, newJerseyToday } from '../../domain/calendar-days.ts'
import { signIn, staffPassword } from '../support/staff.ts'
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in.ts'
import { startTestServer, type TestServer } from '../support/test-server.ts'
import { desktop, expect, phone, test as base } from './fixtures.ts'

/**
 * The console's deposits (issue #52; PRODUCT.md "after the hold") in Chromium, at 390 px first:
 * `/staff/deposits` for managers, a deposit paid through the Stripe stand-in refunded and another
 * counted toward its cart's sale, each through its confirm step (the sale by keyboard alone), with
 * axe on every page; the notice naming Stripe's settings on a server without them; and the rental
 * calendar's "Send deposit link" with a confirmation, then its paid marker. Screenshots go to
 * SCREENSHOT_DIR when it is set.
 */
const test = base.extend<object, { stripe: StripeStandIn; withoutStripe: TestServer }>({
  stripe: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const stripe = await startStripeStandIn()
      await use(stripe)
      await stripe.stop()
    },
    { scope: 'worker' },
  ],
  serverEnv: [async ({ stripe }, use) => use({ ...stripe.env, OUTBOX_POLL_MS: '100', OUTBOX_RETRY_BASE_MS: '100' }), { scope: 'worker' }],
  // A second server, without STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, and its owner olga.
  withoutStripe: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
      await server.runtime.services.staff.accounts.add('olga', staffPassword, { role: 'owner' })
      await use(server)
      await server.close()
    },
    { scope: 'worker' },
  ],
})

test.use({
  staffAccounts: [
    [
      { username: 'mike', role: 'manager' },
      { username: 'maria', role: 'sales' },
    ],
    { scope: 'worker' },
  ],
  viewport: phone,
})

const shots = process.env.SCREENSHOT_DIR

interface Cart {
  id: number
  slug: string
  title: string
  price: number
}

/** A shopper's deposit as the site takes it: POST /api/deposits, then Stripe's signed event. */
async function paidDeposit(server: TestServer, stripe: StripeStandIn, cart: Cart, firstName: string): Promise<number> {
  const started = await fetch(`${server.url}/api/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cartId: cart.id, firstName, lastName: 'Buyer', email: `${firstName.toLowerCase()}@example.com`, phone: '(609) 555-0142' }),
  })
  expect(started.status).toBe(201)
  const { url } = (await started.json()) as { url: string }
  const session = [...stripe.sessions.values()].find((s) => s.url === url)!
  expect((await stripe.deliver(`${server.url}/webhooks/stripe`, stripe.completedEvent(session.id).body)).status).toBe(200)
  const [deposit] = await server.db.sql<{ id: number; status: string }[]>`select id, status from deposits where checkout_session_id = ${session.id}`
  expect(deposit?.status).toBe('held')
  return deposit!.id
}

/** Presses Tab until the focused element's text starts with `text` (at most 80 times): reached by keyboard alone. */
async function tabTo(page: Page, text: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab')
    if ((await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '')).startsWith(text)) return
  }
  throw new Error(`Tab never reached “${text}”`)
}

const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
const cartNow = async (server: TestServer, slug: string) => ((await (await fetch(`${server.url}/api/golf-carts/slug/${slug}`)).json()) as { status: string }).status
const onDeposits = (url: URL) => url.pathname === '/staff/deposits'

test.describe('/staff/deposits with Stripe set up', () => {
  test.describe('for a manager', () => {
    test.use({ signedInAs: 'mike' })

    test('lists paid deposits for a manager; one refunded and another marked sold, each asked first, in the audit log', async ({ page, server, stripe, problems, axe }) => {
      const carts = await server.db.sql<Cart[]>`
        select id, slug, title, price::float8 as price from golf_carts where status = 'available' order by price desc, id limit 2
      `
      const [refunded, sold] = [carts[0]!, carts[1]!]
      const refundedId = await paidDeposit(server, stripe, refunded, 'Ann')
      const soldId = await paidDeposit(server, stripe, sold, 'Ben')

      await page.goto(`${server.url}/staff`)
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Deposits' }).click()
      await expect(page).toHaveURL(`${server.url}/staff/deposits`)
      await expect(page.locator('h1')).toHaveText('Deposits')
      const row = (id: number) => page.locator(`tr[data-deposit-id="${id}"]`)
      await expect(row(refundedId)).toContainText(refunded.title)
      await expect(row(refundedId)).toContainText('Ann Buyer')
      await expect(row(refundedId)).toContainText('$500')
      await expect(row(refundedId)).toContainText('Holding the cart')
      await expect(row(refundedId).locator('td[data-label="Hold until"] time')).toHaveText(/^\w+day, \w+ \d+$/)
      await expect(row(refundedId).locator('td[data-label="Paid"] time')).toHaveCount(1)
      await expect(page.locator('.staff-alert--notice')).toHaveCount(0)
      expect(await scrollsSideways(page)).toBe(false)
      expect(await axe()).toEqual([])
      if (shots) await page.screenshot({ path: `${shots}/deposits-390.png`, fullPage: true })

      // Refund: its own page asks first; Keep the deposit changes nothing.
      await row(refundedId).getByRole('link', { name: 'Refund Ann Buyer’s deposit' }).click()
      await expect(page).toHaveURL(`${server.url}/staff/deposits/${refundedId}/refund`)
      await expect(page.locator('h1')).toHaveText('Refund Ann Buyer’s $500 deposit?')
      expect(await axe()).toEqual([])
      if (shots) await page.screenshot({ path: `${shots}/deposit-refund-390.png`, fullPage: true })
      await page.getByRole('link', { name: 'Keep the deposit' }).click()
      await expect(page).toHaveURL(`${server.url}/staff/deposits`)
      expect(await cartNow(server, refunded.slug)).toBe('hold')
      await row(refundedId).getByRole('link', { name: 'Refund Ann Buyer’s deposit' }).click()
      await page.getByRole('button', { name: 'Refund $500' }).click()
      await expect(page.getByRole('status')).toHaveText(
        'Ann Buyer’s $500 deposit is being refunded through Stripe; the shopper is emailed when Stripe has taken it. The cart is for sale again.',
      )
      await expect(page).toHaveURL(onDeposits)
      expect(await cartNow(server, refunded.slug)).toBe('available')
      await expect.poll(() => stripe.refunds.some((r) => r.idempotencyKey === `deposit-${refundedId}-refund`)).toBe(true)
      // Stripe's answer reaches the page by a reload: the outbox has taken it once the row says so.
      await expect
        .poll(async () => {
          await page.reload()
          return row(refundedId).locator('td[data-label="Status"]').textContent()
        })
        .toContain('Refunded')
      await expect(row(refundedId).getByRole('link', { name: /^Refund/ })).toHaveCount(0)
      await expect(row(refundedId).locator('td[data-label="Hold until"]')).toHaveText('No hold')

      // Mark sold, by keyboard alone, at a desk: the deposit counted toward the price.
      await page.setViewportSize(desktop)
      await page.goto(`${server.url}/staff/deposits`)
      expect(await axe()).toEqual([])
      if (shots) await page.screenshot({ path: `${shots}/deposits-1280.png`, fullPage: true })
      await tabTo(page, 'Mark sold')
      await expect(page.locator(':focus')).toHaveAttribute('href', `/staff/deposits/${soldId}/sold`)
      await page.keyboard.press('Enter')
      await expect(page).toHaveURL(`${server.url}/staff/deposits/${soldId}/sold`)
      await expect(page.locator('h1')).toHaveText(`Mark the ${sold.title} sold to Ben Buyer?`)
      const balance = `$${(sold.price - 500).toLocaleString('en-US')}`
      await expect(page.locator('main')).toContainText(`The $500 deposit counts toward the price: ${balance} is left to pay.`)
      expect(await axe()).toEqual([])
      if (shots) await page.screenshot({ path: `${shots}/deposit-sold-1280.png`, fullPage: true })
      await tabTo(page, 'Mark it sold')
      await page.keyboard.press('Enter')
      await expect(page.getByRole('status')).toHaveText(`Ben Buyer’s $500 deposit is counted toward the sale: the ${sold.title} is sold, ${balance} left to pay.`)
      await expect(page).toHaveURL(onDeposits)
      await expect(row(soldId).locator('td[data-label="Status"]')).toHaveText(`Sold, counted toward the price${balance} left to pay`)
      await expect(row(soldId).getByRole('link').filter({ hasText: /^(Refund|Mark sold)/ })).toHaveCount(0)
      expect(await cartNow(server, sold.slug)).toBe('sold')

      // Sold twice is refused on the confirm step's page, in words.
      const again = await page.request.post(`${server.url}/staff/deposits/${soldId}/sold`, { headers: { origin: server.url }, form: {} })
      expect(again.status()).toBe(409)
      expect(await again.text()).toMatch(/role="alert">Only a cart(&#x27;|’)s deposit that held it can be counted toward a sale; this one is sold\.</)

      const audit = await server.db.sql<{ entity: string; entityId: string; before: string; after: string }[]>`
        select entity, entity_id, before, after from audit_log where actor = 'mike' and field = 'status' order by id
      `
      expect(audit).toEqual([
        { entity: 'deposit', entityId: String(refundedId), before: 'held', after: 'refunding' },
        { entity: 'cart', entityId: String(refunded.id), before: 'hold', after: 'available' },
        { entity: 'deposit', entityId: String(soldId), before: 'held', after: 'sold' },
        { entity: 'cart', entityId: String(sold.id), before: 'hold', after: 'sold' },
      ])
      expect(problems).toEqual([])
    })
  })

  test.describe('for sales', () => {
    test.use({ signedInAs: 'maria' })

    test('is a manager’s: sales have no link to it and are told why at its address', async ({ page, server }) => {
      await page.goto(`${server.url}/staff`)
      await expect(page.locator('h1')).toHaveText('Inventory')
      await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Deposits' })).toHaveCount(0)
      const answer = await page.goto(`${server.url}/staff/deposits`)
      expect(answer?.status()).toBe(403)
      await expect(page.locator('main')).toContainText('Only managers and owners can see deposits; your account’s role is sales.')
    })
  })
})

test.describe('the rental calendar’s deposits', () => {
  test.use({ signedInAs: 'maria' })

  test('confirms with a deposit link, sends one for a confirmed reservation, and shows the paid deposit', async ({ page, server, stripe, problems, axe }) => {
    const visitor = createCaller(createContextInner(server.runtime.services, {}))
    const startDate = addDays(newJerseyToday(), 3)
    const request = (firstName: string) =>
      visitor.inquiry.submit({
        firstName,
        lastName: 'Renter',
        email: `${firstName.toLowerCase()}@example.com`,
        phone: '(609) 555-0142',
        rental: { cartType: '6-seater', plan: 'weekly', startDate, pickup: 'showroom', showroom: 'ocean-view' },
      })
    const [cara, dev] = [await request('Cara'), await request('Dev')]
    await server.runtime.services.rentals.setFleet('6-seater', 4, { id: null, name: 'test' }, newJerseyToday())

    await page.goto(`${server.url}/staff/rentals`)
    const card = (id: number) => page.locator(`li[data-lead-id="${id}"]`)
    // Confirming asks for the deposit too, unless the box is unticked.
    const box = card(cara.id).getByLabel('Email a $100 deposit link')
    await expect(box).toBeChecked()
    expect(await axe()).toEqual([])
    if (shots) {
      await card(cara.id).scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${shots}/rentals-confirm-390.png` })
    }
    await card(cara.id).getByRole('button', { name: "Confirm Cara Renter's request" }).click()
    await expect(page.getByRole('status')).toHaveText(`Confirmed lead ${cara.id}, and emailed the renter a link to pay the deposit. Paid, it shows here.`)
    await expect(card(cara.id).locator('[data-deposit]')).toHaveText('Deposit asked')

    await card(dev.id).getByLabel('Email a $100 deposit link').uncheck()
    await card(dev.id).getByRole('button', { name: "Confirm Dev Renter's request" }).click()
    await expect(page.getByRole('status')).toHaveText(`Confirmed lead ${dev.id}: a cart is reserved for its days. Call the renter to say so.`)
    await expect(card(dev.id).locator('[data-deposit]')).toHaveCount(0)
    await card(dev.id).getByRole('button', { name: 'Send deposit link to Dev Renter' }).click()
    await expect(page.getByRole('status')).toHaveText(`Emailed lead ${dev.id}'s renter a link to pay the deposit. Paid, it shows here.`)
    await expect(card(dev.id).locator('[data-deposit]')).toHaveText('Deposit asked')
    await expect(card(dev.id).getByRole('button', { name: 'Send deposit link again to Dev Renter' })).toHaveCount(1)
    const sent = await server.db.sql<{ actor: string; entityId: string }[]>`
      select actor, entity_id from audit_log where entity = 'lead' and field = 'deposit' order by id
    `
    expect(sent).toEqual([
      { actor: 'maria', entityId: String(cara.id) },
      { actor: 'maria', entityId: String(dev.id) },
    ])

    // Cara pays through her link: the calendar says so, and asks no more.
    const [deposit] = await server.db.sql<{ id: number }[]>`select id from deposits where kind = 'rental' and inquiry_id = ${cara.id}`
    const link = `${server.url}/deposits/pay/${deposit!.id}/${rentalLinkSignature(stripe.webhookSecret, deposit!.id)}`
    const opened = await fetch(link, { redirect: 'manual' })
    expect(opened.status).toBe(303)
    const session = [...stripe.sessions.values()].find((s) => s.url === opened.headers.get('location'))!
    expect((await stripe.deliver(`${server.url}/webhooks/stripe`, stripe.completedEvent(session.id).body)).status).toBe(200)
    await page.goto(`${server.url}/staff/rentals`)
    await expect(card(cara.id).locator('[data-deposit]')).toHaveText('Deposit paid')
    await expect(card(cara.id).getByRole('button', { name: /deposit link/ })).toHaveCount(0)
    expect(await scrollsSideways(page)).toBe(false)
    expect(await axe()).toEqual([])
    if (shots) {
      await card(cara.id).scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${shots}/rentals-deposit-390.png`, fullPage: true })
      await page.setViewportSize(desktop)
      await page.screenshot({ path: `${shots}/rentals-deposit-1280.png`, fullPage: true })
    }
    expect(problems).toEqual([])
  })
})

test.describe('/staff/deposits without Stripe’s settings', () => {
  test('names the two settings, lists what was paid before, offers no refund, and marks sold without a script', async ({ withoutStripe: server, newPage, axe }) => {
    const [cart] = await server.db.sql<Cart[]>`select id, slug, title, price::float8 as price from golf_carts where status = 'available' order by id limit 1`
    // A deposit paid while Stripe was set up, the cart still held.
    await server.db.sql`update golf_carts set status = 'hold', hold_until = now() + interval '3 days' where id = ${cart!.id}`
    const [{ id }] = await server.db.sql<[{ id: number }]>`
      insert into deposits (kind, golf_cart_id, amount_cents, first_name, last_name, email, status, hold_until, paid_at)
      values ('cart', ${cart!.id}, 50000, 'Eve', 'Earlier', 'eve@example.com', 'held', now() + interval '3 days', now() - interval '4 days')
      returning id
    `
    // olga signed in over HTTP, as the fixtures sign in the worker's own server's accounts.
    const answer = await signIn(server, 'olga')
    expect(answer.status).toBe(303)
    const [name, value] = answer.cookie!.split(/=(.*)/) as [string, string]
    const signedIn = async (options: Parameters<typeof newPage>[0]) => {
      const { page } = await newPage(options)
      await page.context().addCookies([{ name, value, url: server.url }])
      return page
    }
    for (const viewport of [phone, desktop]) {
      const page = await signedIn({ viewport })
      await page.goto(`${server.url}/staff`)
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Deposits' }).click()
      await expect(page).toHaveURL(`${server.url}/staff/deposits`)
      await expect(page.locator('.staff-alert--notice')).toHaveText(
        'Deposits are not set up. No page offers “Hold it with a deposit”, and refunds cannot be made from here.' +
          'To take deposits through Stripe, set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET and restart the server (docs/DEPLOY.md, “Deposits (Stripe)”).',
      )
      const row = page.locator(`tr[data-deposit-id="${id}"]`)
      await expect(row).toContainText('Eve Earlier')
      await expect(row.getByRole('link', { name: /^Refund/ })).toHaveCount(0)
      await expect(row.getByRole('link', { name: 'Mark sold to Eve Earlier' })).toHaveCount(1)
      expect(await scrollsSideways(page)).toBe(false)
      expect(await axe(page)).toEqual([])
      if (shots) await page.screenshot({ path: `${shots}/deposits-no-stripe-${viewport.width}.png`, fullPage: true })
    }
    // The server refuses a refund it could not make, whatever is posted.
    const olga = (await server.runtime.services.staff.accounts.verify('olga', staffPassword))!
    const { token } = await server.runtime.services.staff.sessions.start(olga, {})
    const owner = createCaller(createContextInner(server.runtime.services, { staffToken: token, sameOrigin: true }))
    await expect(owner.staff.deposit.refund({ id })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' })
    const [after] = await server.db.sql<{ status: string }[]>`select status from deposits where id = ${id}`
    expect(after?.status).toBe('held')
    // Mark sold needs nothing of Stripe, nor any script: a phone with JavaScript off sells the cart.
    const page = await signedIn({ viewport: phone, javaScriptEnabled: false })
    await page.goto(`${server.url}/staff/deposits`)
    await page.getByRole('link', { name: 'Mark sold to Eve Earlier' }).click()
    await page.getByRole('button', { name: 'Mark it sold' }).click()
    await expect(page.getByRole('status')).toContainText(`the ${cart!.title} is sold`)
    await expect(page).toHaveURL(onDeposits)
    await expect(page.locator(`tr[data-deposit-id="${id}"] td[data-label="Status"]`)).toHaveText(/^Sold, counted toward the price/)
  })
})
