import { atWallClock, wallClock } from '../../domain/business-hours.ts'
import { leadPaths, staffPaths } from '../../domain/staff-paths.ts'
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts'
import { startTwilioStandIn, type TwilioStandIn } from '../support/twilio-stand-in.ts'
import { desktop, expect, phone, test as base } from './fixtures.ts'

/**
 * Answering the shopper from the console in Chromium (issue #50; PRODUCT.md "replies from the
 * console", "templates", "customers"): a manager keeps a template on a phone; a salesperson, on a
 * phone, starts a reply from it, texts it through the local Twilio, emails through the local mail
 * server, taps Call and logs how it went, sees the shopper's text come in on the open page, and
 * opens the customer's record; each page by keyboard, and axe clean. The server's clock stands at
 * 10:00 in New Jersey tomorrow, inside texting hours whenever the test runs.
 *
 * One story of one lead: each test starts from what the one before it did (the template, the
 * text, the email, the call), so they run in order, and one failing skips the rest.
 */
const tomorrowAtTen = () => {
  const day = wallClock(Date.now() + 86_400_000)
  return new Date(atWallClock(day.year, day.month, day.day, 10, 0))
}

const test = base.extend<object, { twilio: TwilioStandIn; smtp: SmtpSink }>({
  twilio: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const twilio = await startTwilioStandIn()
      await use(twilio)
      await twilio.stop()
    },
    { scope: 'worker' },
  ],
  smtp: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const smtp = await startSmtpSink()
      await use(smtp)
      await smtp.stop()
    },
    { scope: 'worker' },
  ],
  serverEnv: [
    async ({ twilio, smtp }, use) =>
      use({ ...twilio.env, SMTP_URL: smtp.url, LEADS_TO: 'leads@dealer.example', LEADS_FROM: 'website@dealer.example', OUTBOX_POLL_MS: '100' }),
    { scope: 'worker' },
  ],
  // eslint-disable-next-line no-empty-pattern
  serverOptions: [async ({}, use) => use({ clock: tomorrowAtTen }), { scope: 'worker' }],
})

test.use({
  staffAccounts: [
    [
      { username: 'maria', role: 'sales', email: 'maria@dealer.example' },
      { username: 'mona', role: 'manager', email: 'mona@dealer.example' },
    ],
    { scope: 'worker' },
  ],
  signedInAs: 'maria',
  viewport: phone,
})

test.describe.configure({ mode: 'serial' })

let leadId: number
test.beforeAll(async ({ server }) => {
  const [maria] = await server.db.sql<{ id: number }[]>`select id from users where username = 'maria'`
  await server.runtime.services.staff.settings.save({ id: null, name: 'test' }, { leadRouting: { other: [maria!.id] } })
  ;({ id: leadId } = await server.runtime.services.inquiries.add({
    firstName: 'Tess',
    lastName: 'Morgan',
    email: 'tess@example.com',
    phone: '(609) 555-0142',
    textConsent: true,
    message: 'Is the red 4-seater still there?',
  }))
})

test.describe('answering a shopper from the console', () => {
  test.describe('as a manager', () => {
    test.use({ signedInAs: 'mona' })

    test('a manager keeps a reply template on a phone: placeholders explained, saved by keyboard', async ({ page, server, axe }) => {
      await page.goto(`${server.url}${staffPaths.templates}`)
      await expect(page.locator('h1')).toHaveText('Reply templates')
      await expect(page.locator('.templates-placeholders')).toContainText('{firstName}the shopper’s first name')
      await page.getByLabel('Name').fill('First answer')
      await page.getByLabel('Text').fill('Hi {firstName}, this is {salesperson} at {dealer}: yes, it is here. When can you come by?')
      await page.getByRole('button', { name: 'Add template' }).focus()
      await page.keyboard.press('Enter')
      await expect(page.getByRole('status')).toHaveText('“First answer” is saved.')
      await expect(page.locator('.templates-list h3')).toHaveText(['First answer'])
      expect(await axe()).toEqual([])
    })
  })

  test('a salesperson on a phone texts from a template through Twilio, and the text is on the timeline', async ({ page, server, twilio, axe }) => {
    await page.goto(`${server.url}${leadPaths.lead(leadId)}`)
    // With the script, choosing fills the message at once: no "Use template" round trip.
    await expect(page.getByRole('button', { name: 'Use template' })).toHaveCount(0)
    await page.getByLabel('Start from a template').selectOption({ label: 'First answer' })
    const message = page.getByLabel('Message', { exact: true })
    const filled = 'Hi Tess, this is maria at Jersey Cart Co.: yes, it is here. When can you come by?'
    await expect(message).toHaveValue(filled)
    await expect(page.locator('#reply-text-why')).toHaveText(`A text goes from the dealer’s number to (609) 555-0142; at most 1600 characters.`)
    expect(await axe()).toEqual([])
    const sent = twilio.sent.length
    await page.getByRole('button', { name: 'Send text' }).click()
    await expect(page.getByRole('status').first()).toHaveText('Text to (609) 555-0142 is on its way.')
    await expect.poll(() => twilio.sent.length).toBe(sent + 1)
    expect(twilio.sent.at(-1)).toMatchObject({ to: '+16095550142', from: twilio.from, body: filled })
    const newest = page.locator('[data-live="timeline"] .lead-timeline__item').first()
    await expect(newest.locator('.lead-timeline__meta')).toHaveText(/^maria texted \(609\) 555-0142, /)
    await expect(page.locator('.lead-page__received')).toHaveText(/First response after/)
    // The shopper's answer comes in on the page left open, without a reload.
    const text = await twilio.textIn(`${server.url}/webhooks/twilio/sms`, '+16095550142', 'Saturday at 11 works!', {
      signedFor: `${server.env.siteUrl}/webhooks/twilio/sms`,
    })
    expect(text.status).toBe(200)
    // (Written on the real clock, it sorts below the reply written on the server's, a day ahead.)
    const answer = page.locator('[data-live="timeline"] .lead-timeline__item', { hasText: 'Saturday at 11 works!' })
    await expect(answer).toBeVisible({ timeout: 15_000 })
    await expect(answer).toHaveText(/^Tess Morgan texted from \(609\) 555-0142, .+Saturday at 11 works!$/)
  })

  test.describe('at a desk', () => {
    test.use({ viewport: desktop })

    test('a salesperson emails the shopper from the reply box: it reaches them from the dealer, answering to the salesperson', async ({ page, server, smtp }) => {
      await page.goto(`${server.url}${leadPaths.lead(leadId)}`)
      await page.getByLabel('Message', { exact: true }).fill('Hi Tess,\nSee you Saturday at 11. The cart is ready.')
      await page.getByRole('button', { name: 'Send email' }).click()
      await expect(page.getByRole('status').first()).toHaveText('Email to tess@example.com is on its way.')
      const toTess = () => smtp.messages.find((m) => m.to?.some((t) => t.address === 'tess@example.com'))
      await expect.poll(toTess).toBeDefined()
      const email = toTess()
      expect(email!.from).toEqual({ name: 'maria at Jersey Cart Co.', address: 'website@dealer.example' })
      expect(email!.replyTo).toEqual([{ name: 'maria', address: 'maria@dealer.example' }])
      expect(email!.text).toContain('See you Saturday at 11. The cart is ready.')
      await expect(page.locator('[data-live="timeline"] .lead-timeline__item .lead-timeline__meta').first()).toHaveText(/^maria emailed tess@example\.com, /)
    })
  })

  test('tapping Call offers the call’s outcome, logged by keyboard onto the timeline', async ({ page, server, axe }) => {
    await page.goto(`${server.url}${leadPaths.lead(leadId)}`)
    // The dialler is the phone's: here the link's click is kept from leaving the page.
    await page.evaluate(() => document.querySelectorAll('a[href^="tel:"]').forEach((a) => a.addEventListener('click', (event) => event.preventDefault())))
    await page.locator('#call').getByRole('link', { name: 'Call (609) 555-0142' }).click()
    await expect(page.locator('[data-call-prompt]')).toHaveText('After the call, say how it went below.')
    await expect(page.locator(':focus')).toHaveValue('reached')
    await page.keyboard.press('Space')
    await page.keyboard.press('Tab')
    await expect(page.locator('#call-note')).toBeFocused()
    await page.keyboard.type('Confirmed Saturday 11:00 test drive.')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await expect(page.getByRole('status').first()).toHaveText('Call logged.')
    await expect(page.locator('[data-live="timeline"] .lead-timeline__item').first()).toHaveText(/^maria called: reached them, .+Confirmed Saturday 11:00 test drive\.$/)
    expect(await axe()).toEqual([])
  })

  test('the customer’s record, from the lead page: leads, consent and the timeline', async ({ page, server, axe }) => {
    await page.goto(`${server.url}${leadPaths.lead(leadId)}`)
    await page.getByRole('link', { name: 'Tess’s customer record: every lead, message and call' }).click()
    await expect(page).toHaveURL(/\/staff\/customers\/\d+$/)
    await expect(page.locator('h1')).toHaveText('Tess Morgan')
    await expect(page.locator('.customer-list').nth(1)).toHaveText(/^\(609\) 555-0142: agreed to texts on /)
    await expect(page.locator('.customer-leads__link')).toHaveText([`Lead ${leadId}: no interest given`])
    const kinds = await page.locator('[data-live="timeline"] .lead-timeline__meta strong').allTextContents()
    expect(kinds.length).toBeGreaterThanOrEqual(5)
    expect(await axe()).toEqual([])
  })
})
