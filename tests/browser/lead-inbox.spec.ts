import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import express from 'express'
import { createDemoApp } from '../../demo/server.ts'
import type { ValidInquiry } from '../../domain/inquiry.ts'
import { expect, test as base } from './fixtures.ts'

/**
 * The staff's lead inbox in Chromium (issue #18): a lead sent from a partner page shows up in an
 * inbox that is already open; one member's work on a lead shows to another; the dashboard counts
 * what the database holds.
 *
 * The partner's pages are the demo's, on another origin than the console's server (allowed, as a
 * partner's is), sending their leads to that server.
 */
const test = base.extend<object, { demo: { origin: string; api: { url: string } } }>({
  demo: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      // The server is started after the demo, whose origin its settings name: told its address then.
      const api = { url: '' }
      const demo: Server = express()
        .use(createDemoApp(() => api.url))
        .listen(0, '127.0.0.1')
      await new Promise((resolve) => demo.once('listening', resolve))
      await use({ origin: `http://127.0.0.1:${(demo.address() as AddressInfo).port}`, api })
      await new Promise((resolve) => demo.close(resolve))
    },
    { scope: 'worker' },
  ],
  serverEnv: [async ({ demo }, use) => use({ ALLOWED_ORIGINS: demo.origin }), { scope: 'worker' }],
  server: [
    async ({ server, demo }, use) => {
      demo.api.url = server.url
      await use(server)
    },
    { scope: 'worker' },
  ],
})

test.use({
  staffAccounts: [
    [
      { username: 'maria' },
      // A manager: sending a lead's emails again is a manager's (PRODUCT.md, roles).
      { username: 'devon', role: 'manager' },
    ],
    { scope: 'worker' },
  ],
  signedInAs: 'maria',
})

/** Marks the document, so a test can tell a reload (the mark is gone) from a live update. */
const markDocument = (page: Page) => page.evaluate(() => document.documentElement.setAttribute('data-not-reloaded', ''))
const stillTheSameDocument = (page: Page) => page.evaluate(() => document.documentElement.hasAttribute('data-not-reloaded'))
const notice = (page: Page) => page.locator('[role="status"].staff-alert')

test.describe('the lead inbox', () => {
  // The file's first test, on the worker's fresh server: the inbox starts empty.
  test('shows a lead sent from a partner page in an inbox that is already open, without a reload', async ({ page: inbox, server, demo, newPage, axe }) => {
    await inbox.goto(`${server.url}/staff/leads`)
    await expect(inbox.locator('#lead-count')).toHaveText('No leads yet.')
    await markDocument(inbox)

    const { page, problems } = await newPage()
    await page.goto(`${demo.origin}/quote-landing.html`)
    await page.locator('gc-contact-form input[name="firstName"]').fill('Dana')
    await page.locator('gc-contact-form input[name="lastName"]').fill('Whitaker')
    await page.locator('gc-contact-form input[name="email"]').fill('dana.whitaker@example.com')
    await page.locator('gc-contact-form input[name="phone"]').fill('(609) 555-0188')
    await page.locator('gc-contact-form textarea[name="message"]').fill('Interested in a D6 Max for our shore house.')
    await page.locator('gc-contact-form button[type="submit"]').click()
    await expect(page.locator('gc-contact-form .gc-toast__title')).toHaveText('Message sent successfully!')
    expect(problems).toEqual([])

    const row = inbox.locator('.lead-table tbody tr', { hasText: 'Dana Whitaker' })
    await expect(row).toBeVisible({ timeout: 15_000 })
    expect(await stillTheSameDocument(inbox)).toBe(true)
    await expect(inbox.locator('#lead-news')).toHaveText('1 new lead arrived.')
    await expect(inbox.locator('#lead-count')).toHaveText('1–1 of 1 lead, newest first')
    for (const shown of ['New', 'dana.whitaker@example.com', '(609) 555-0188', 'Evolution', 'Interested in a D6 Max', 'spring-sale-quote', '127.0.0.1', 'Nobody']) {
      await expect(row).toContainText(shown)
    }
    await expect(row.locator('a[href^="tel:"]')).toHaveAttribute('href', 'tel:+16095550188')
    expect(await axe(inbox)).toEqual([])
  })

  test("filters and searches by the address, and one member's work on a lead shows on another's open page", async ({ page: maria, server, staffSession, newPage, axe }) => {
    // A lead of this test's own, sent as the site's form sends one.
    const sent = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName: 'Dana', lastName: 'Whitfield', email: 'dana.whitfield@example.com', phone: '(609) 555-0177', interest: 'evolution' }),
    })
    expect(sent.status).toBe(201)
    const { id } = (await sent.json()) as { id: number }
    const leadPage = (url: URL) => url.pathname === `/staff/leads/${id}`
    const { page: devon } = await newPage({ storageState: await staffSession('devon') })
    await devon.goto(`${server.url}/staff/leads/${id}`)
    await markDocument(devon)

    await maria.goto(`${server.url}/staff/leads?q=555-0177&status=new`)
    await maria.locator('.lead-table__name', { hasText: 'Dana Whitfield' }).click()
    await expect(maria).toHaveURL(`${server.url}/staff/leads/${id}`)
    await expect(maria.locator('a[href^="tel:"]').first()).toHaveText('Call (609) 555-0177')
    // An email is written in the reply box, where the product sees it (issue #50).
    await expect(maria.getByRole('link', { name: 'Email or text Dana' })).toHaveAttribute('href', '#reply')

    await maria.getByRole('button', { name: 'Contacted' }).click()
    await expect(notice(maria)).toHaveText('Status saved.')
    await maria.getByLabel('Give the lead to').selectOption({ label: 'devon' })
    await maria.getByRole('button', { name: 'Assign' }).click()
    await expect(notice(maria)).toHaveText('Owner saved.')
    await maria.getByLabel('Add a note').fill('Called: wants a test drive on Saturday.')
    await maria.getByRole('button', { name: 'Add note' }).click()
    await expect(notice(maria)).toHaveText('Note added.')
    await expect(maria).toHaveURL(leadPage)

    // Devon's page, open all along, catches up by itself.
    await expect(devon.locator('[data-live="owner"]')).toHaveText('devon', { timeout: 15_000 })
    await expect(devon.locator('[data-live="timeline"]')).toContainText('Called: wants a test drive on Saturday.', { timeout: 15_000 })
    await expect(devon.locator('[data-live="status-buttons"] [aria-pressed="true"]')).toHaveText('Contacted')
    const history = devon.locator('[data-live="history"]')
    await expect(history).toContainText('maria changed the status from New to Contacted')
    await expect(history).toContainText('maria gave the lead to devon')
    await expect(history).toContainText('maria added a note')
    expect(await stillTheSameDocument(devon)).toBe(true)

    // The keyboard works the lead too.
    await devon.getByRole('button', { name: 'Quoted' }).focus()
    await devon.keyboard.press('Enter')
    await expect(notice(devon)).toHaveText('Status saved.')
    await expect(devon).toHaveURL(leadPage)
    await expect(devon.locator('[data-live="status-buttons"] [aria-pressed="true"]')).toHaveText('Quoted')
    expect(await axe(devon)).toEqual([])

    // A failed email shows why and when it is tried again, and goes again at once on request.
    await server.db.sql`
      update outbox_messages set attempts = 3, last_error = 'mail server: 421 4.7.0 Try again later',
        next_attempt_at = now() + interval '4 minutes'
      where inquiry_id = ${id}
    `
    await devon.reload()
    const emails = devon.locator('#emails')
    await expect(emails).toContainText('failed 3 times; next attempt')
    await expect(emails).toContainText('Why: mail server: 421 4.7.0 Try again later')
    await emails.getByRole('button', { name: 'Send again now' }).click()
    await expect(notice(devon)).toHaveText('Sending again now.')
    await expect(devon.locator('#emails h2')).toHaveText('Emails: Queued')
    await expect(devon.locator('[data-live="history"]')).toContainText("devon asked to send the dealer's email again now")

    await devon.goto(`${server.url}/staff/leads?owner=me`)
    const row = devon.locator('.lead-table tbody tr')
    await expect(row).toHaveCount(1)
    await expect(row).toContainText('Quoted')
    // No longer new: the search finds it among no new leads.
    await devon.goto(`${server.url}/staff/leads?q=555-0177&status=new`)
    await expect(devon.locator('#lead-count')).toHaveText('No leads match these filters.')
  })

  test('counts on the dashboard what the database holds', async ({ page: maria, server, axe }) => {
    const add = (over: Partial<ValidInquiry>) => server.runtime.services.inquiries.add({ firstName: 'Test', lastName: 'Lead', email: 'test.lead@example.com', ...over })
    for (const over of <Partial<ValidInquiry>[]>[
      { interest: 'rentals', sourceLabel: 'rentals-landing' },
      { interest: 'rentals', sourceLabel: 'rentals-landing' },
      { interest: 'denago', sourceUrl: 'https://network.example/nj' },
      {},
    ]) {
      await add(over)
    }
    const [won] = await server.db.sql<{ id: number }[]>`select min(id)::int as id from contact_inquiries where source_label = 'rentals-landing'`
    await maria.goto(`${server.url}/staff/leads/${won!.id}`)
    await maria.getByRole('button', { name: 'Won' }).click()
    await expect(notice(maria)).toHaveText('Status saved.')

    await maria.goto(`${server.url}/staff/leads/dashboard`)
    const [expected] = await server.db.sql<{ leads: number; won: number; lost: number; answered: number; rentals: number }[]>`
      select count(*)::int as leads, count(*) filter (where status = 'won')::int as won,
             count(*) filter (where status = 'lost')::int as lost,
             count(*) filter (where first_response_at <= created_at + interval '1 hour')::int as answered,
             count(*) filter (where source = 'rentals-landing')::int as rentals
      from contact_inquiries where spam_reason is null
    `
    const kpi = (label: string) => maria.locator('.lead-kpis li', { hasText: label }).locator('.lead-kpis__value')
    await expect(kpi('leads')).toHaveText(String(expected!.leads))
    await expect(kpi('won')).toHaveText(String(expected!.won))
    await expect(kpi('lost')).toHaveText(String(expected!.lost))
    await expect(maria.locator('.lead-kpis li', { hasText: 'answered within an hour' })).toContainText(`(${expected!.answered} of`)

    // The source chart's table: this week's column of rentals-landing, and its total.
    const bySource = maria.locator('section', { has: maria.getByRole('heading', { name: 'Leads per week by source' }) })
    await bySource.locator('summary').click()
    const header = await bySource.locator('thead th').allTextContents()
    const column = header.indexOf('rentals-landing')
    expect(column).toBeGreaterThan(0)
    await expect(bySource.locator('tfoot td').nth(column - 1)).toHaveText(String(expected!.rentals))
    await expect(bySource.getByRole('img', { name: 'Leads per week by source' })).toHaveCount(1)

    const csv = await maria.context().request.get(`${server.url}/staff/leads/dashboard.csv`)
    expect(csv.status()).toBe(200)
    const totalRow = (await csv.text()).trimEnd().split('\r\n').at(-1)!
    expect(totalRow.split(',')[1]).toBe(String(expected!.leads))
    expect(await axe(maria)).toEqual([])
  })

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 900 } })

    test('fits a phone: no page of the inbox scrolls sideways at 390 px', async ({ page: phone, server, axe }) => {
      const { id } = await server.runtime.services.inquiries.add({ firstName: 'Pocket', lastName: 'Lead', email: 'pocket.lead@example.com' })
      for (const path of ['/staff/leads', `/staff/leads/${id}`, '/staff/leads/dashboard']) {
        await phone.goto(`${server.url}${path}`)
        const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect(overflow, path).toBeLessThanOrEqual(0)
        expect(await axe(phone), path).toEqual([])
        // The console's header is two rows on a phone (it was six, 330 px), and the navigation row
        // scrolls sideways with the current page in view.
        expect(await phone.locator('.staff-header').evaluate((header) => header.getBoundingClientRect().height), path).toBeLessThanOrEqual(110)
        const current = await phone.locator('.staff-nav [aria-current="page"]').boundingBox()
        expect(current!.x, path).toBeGreaterThanOrEqual(0)
        expect(current!.x + current!.width, path).toBeLessThanOrEqual(390)
      }
      // The dashboard was the last page: its week charts scroll sideways on a phone, and each opens
      // on its last week, the current one (issue #30, point 6), not on the oldest.
      await expect(phone.locator('html')).toHaveAttribute('data-staff-ready')
      const charts = await phone.locator('.week-chart .lead-scroll').evaluateAll((boxes) =>
        boxes.map((box) => ({ scrolls: box.scrollWidth > box.clientWidth, atEnd: box.scrollLeft + box.clientWidth >= box.scrollWidth - 1 })),
      )
      expect(charts.length).toBeGreaterThan(0)
      expect(charts).toEqual(charts.map(() => ({ scrolls: true, atEnd: true })))
      // Who is signed in is read out, not shown (Your account shows it).
      const who = phone.locator('.staff-signout__who')
      await expect(who).toHaveText(/^Signed in as maria/)
      expect((await who.boundingBox())!.width).toBeLessThanOrEqual(1)
    })
  })
})
