import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ValidInquiry } from '../../domain/inquiry.ts'
import { axeViolations } from '../support/browser.ts'
import { usePartnerPages } from '../support/partner-pages.ts'
import { addStaff, keptConsoleTabs } from '../support/staff.ts'

/**
 * The staff's lead inbox in Chromium (issue #18): a lead sent from a partner page shows up in an
 * inbox that is already open; one member's work on a lead shows to another; the dashboard counts
 * what the database holds.
 */
const partner = usePartnerPages({ site: true })

beforeAll(async () => {
  await addStaff(partner.api, 'maria')
  // A manager: sending a lead's emails again is a manager's (PRODUCT.md, roles).
  await addStaff(partner.api, 'devon', undefined, 'manager')
})

const consoleTab = keptConsoleTabs(partner)
const signedIn = async (username: string, width = 1280): Promise<Page> => (await consoleTab(username, { width, height: 900 })).page

/** Marks the document, so a test can tell a reload (the mark is gone) from a live update. */
const markDocument = (page: Page) => page.evaluate(() => document.documentElement.setAttribute('data-not-reloaded', ''))
const stillTheSameDocument = (page: Page) => page.evaluate(() => document.documentElement.hasAttribute('data-not-reloaded'))

describe('the lead inbox', () => {
  it('shows a lead sent from a partner page in an inbox that is already open, without a reload', async () => {
    const inbox = await signedIn('maria')
    await inbox.goto(`${partner.api.url}/staff/leads`)
    await expect(inbox.locator('#lead-count').textContent()).resolves.toBe('No leads yet.')
    await markDocument(inbox)

    const { page, problems } = await partner.open('/quote-landing.html')
    await page.locator('gc-contact-form input[name="firstName"]').fill('Dana')
    await page.locator('gc-contact-form input[name="lastName"]').fill('Whitaker')
    await page.locator('gc-contact-form input[name="email"]').fill('dana.whitaker@example.com')
    await page.locator('gc-contact-form input[name="phone"]').fill('(609) 555-0188')
    await page.locator('gc-contact-form textarea[name="message"]').fill('Interested in a D6 Max for our shore house.')
    await page.locator('gc-contact-form button[type="submit"]').click()
    await expect(page.locator('gc-contact-form .gc-toast__title').textContent()).resolves.toBe('Message sent successfully!')
    expect(problems).toEqual([])

    const row = inbox.locator('.lead-table tbody tr', { hasText: 'Dana Whitaker' })
    await row.waitFor({ timeout: 15_000 })
    expect(await stillTheSameDocument(inbox)).toBe(true)
    await expect(inbox.locator('#lead-news').textContent()).resolves.toBe('1 new lead arrived.')
    await expect(inbox.locator('#lead-count').textContent()).resolves.toBe('1–1 of 1 lead, newest first')
    const text = await row.textContent()
    for (const shown of ['New', 'dana.whitaker@example.com', '(609) 555-0188', 'EVOLUTION', 'Interested in a D6 Max', 'spring-sale-quote', '127.0.0.1', 'Nobody']) {
      expect(text).toContain(shown)
    }
    await expect(row.locator('a[href^="tel:"]').getAttribute('href')).resolves.toBe('tel:+16095550188')
    expect(await axeViolations(inbox)).toEqual([])
  })

  it("filters and searches by the address, and one member's work on a lead shows on another's open page", async () => {
    const [lead] = await partner.api.db.sql<{ id: number }[]>`select id from contact_inquiries where email = 'dana.whitaker@example.com'`
    const maria = await signedIn('maria')
    const devon = await signedIn('devon')
    await devon.goto(`${partner.api.url}/staff/leads/${lead!.id}`)
    await markDocument(devon)

    await maria.goto(`${partner.api.url}/staff/leads?q=555-0188&status=new`)
    await maria.locator('.lead-table__name', { hasText: 'Dana Whitaker' }).click()
    await maria.waitForURL(`${partner.api.url}/staff/leads/${lead!.id}`)
    await expect(maria.locator('a[href^="tel:"]').first().textContent()).resolves.toBe('Call (609) 555-0188')
    await expect(maria.locator('a[href^="mailto:"]').first().getAttribute('href')).resolves.toMatch(/^mailto:dana\.whitaker@example\.com\?subject=/)

    await maria.getByRole('button', { name: 'Contacted' }).click()
    await maria.waitForURL(/done=status/)
    await maria.getByLabel('Give the lead to').selectOption({ label: 'devon' })
    await maria.getByRole('button', { name: 'Assign' }).click()
    await maria.waitForURL(/done=owner/)
    await maria.getByLabel('Add a note').fill('Called: wants a test drive on Saturday.')
    await maria.getByRole('button', { name: 'Add note' }).click()
    await maria.waitForURL(/done=note/)
    await expect(maria.locator('[role="status"].staff-alert').textContent()).resolves.toBe('Note added.')

    // Devon's page, open all along, catches up by itself.
    await expect.poll(() => devon.locator('[data-live="owner"]').textContent(), { timeout: 15_000 }).toBe('devon')
    await expect.poll(() => devon.locator('[data-live="notes"]').textContent(), { timeout: 15_000 }).toContain('Called: wants a test drive on Saturday.')
    await expect(devon.locator('[data-live="status-buttons"] [aria-pressed="true"]').textContent()).resolves.toBe('Contacted')
    const history = await devon.locator('[data-live="history"]').textContent()
    expect(history).toContain('maria changed the status from New to Contacted')
    expect(history).toContain('maria gave the lead to devon')
    expect(history).toContain('maria added a note')
    expect(await stillTheSameDocument(devon)).toBe(true)

    // The keyboard works the lead too.
    await devon.getByRole('button', { name: 'Quoted' }).focus()
    await devon.keyboard.press('Enter')
    await devon.waitForURL(/done=status/)
    await expect(devon.locator('[data-live="status-buttons"] [aria-pressed="true"]').textContent()).resolves.toBe('Quoted')
    expect(await axeViolations(devon)).toEqual([])

    // A failed email shows why and when it is tried again, and goes again at once on request.
    await partner.api.db.sql`
      update outbox_messages set attempts = 3, last_error = 'mail server: 421 4.7.0 Try again later',
        next_attempt_at = now() + interval '4 minutes'
      where inquiry_id = ${lead!.id}
    `
    await devon.reload()
    const emails = devon.locator('#emails')
    await expect(emails.textContent()).resolves.toContain('failed 3 times; next attempt')
    await expect(emails.textContent()).resolves.toContain('Why: mail server: 421 4.7.0 Try again later')
    await emails.getByRole('button', { name: 'Send again now' }).click()
    await devon.waitForURL(/done=resend/)
    await expect(devon.locator('#emails h2').textContent()).resolves.toBe('Emails: Queued')
    await expect(devon.locator('[data-live="history"]').textContent()).resolves.toContain("devon asked to send the dealer's email again now")

    await devon.goto(`${partner.api.url}/staff/leads?owner=me`)
    const row = devon.locator('.lead-table tbody tr')
    await expect(row.count()).resolves.toBe(1)
    await expect(row.textContent()).resolves.toContain('Quoted')
    await devon.goto(`${partner.api.url}/staff/leads?status=new`)
    await expect(devon.locator('#lead-count').textContent()).resolves.toBe('No leads match these filters.')
  })

  it('counts on the dashboard what the database holds', async () => {
    const add = (over: Partial<ValidInquiry>) =>
      partner.api.runtime.services.inquiries.add({ firstName: 'Test', lastName: 'Lead', email: 'test.lead@example.com', ...over })
    for (const over of <Partial<ValidInquiry>[]>[
      { interest: 'rentals', sourceLabel: 'rentals-landing' },
      { interest: 'rentals', sourceLabel: 'rentals-landing' },
      { interest: 'denago', sourceUrl: 'https://network.example/nj' },
      {},
    ]) {
      await add(over)
    }
    const [won] = await partner.api.db.sql<{ id: number }[]>`select min(id)::int as id from contact_inquiries where source_label = 'rentals-landing'`
    const maria = await signedIn('maria')
    await maria.goto(`${partner.api.url}/staff/leads/${won!.id}`)
    await maria.getByRole('button', { name: 'Won' }).click()
    await maria.waitForURL(/done=status/)

    await maria.goto(`${partner.api.url}/staff/leads/dashboard`)
    const [expected] = await partner.api.db.sql<{ leads: number; won: number; lost: number; answered: number; rentals: number }[]>`
      select count(*)::int as leads, count(*) filter (where status = 'won')::int as won,
             count(*) filter (where status = 'lost')::int as lost,
             count(*) filter (where first_response_at <= created_at + interval '1 hour')::int as answered,
             count(*) filter (where source = 'rentals-landing')::int as rentals
      from contact_inquiries where spam_reason is null
    `
    const kpi = (label: string) => maria.locator('.lead-kpis li', { hasText: label }).locator('.lead-kpis__value').textContent()
    await expect(kpi('leads')).resolves.toBe(String(expected!.leads))
    await expect(kpi('won')).resolves.toBe(String(expected!.won))
    await expect(kpi('lost')).resolves.toBe(String(expected!.lost))
    expect(await maria.locator('.lead-kpis li', { hasText: 'answered within an hour' }).textContent()).toContain(`(${expected!.answered} of`)

    // The source chart's table: this week's column of rentals-landing, and its total.
    const bySource = maria.locator('section', { has: maria.getByRole('heading', { name: 'Leads per week by source' }) })
    await bySource.locator('summary').click()
    const header = await bySource.locator('thead th').allTextContents()
    const column = header.indexOf('rentals-landing')
    expect(column).toBeGreaterThan(0)
    await expect(bySource.locator('tfoot td').nth(column - 1).textContent()).resolves.toBe(String(expected!.rentals))
    await expect(bySource.getByRole('img', { name: 'Leads per week by source' }).count()).resolves.toBe(1)

    const csv = await maria.context().request.get(`${partner.api.url}/staff/leads/dashboard.csv`)
    expect(csv.status()).toBe(200)
    const totalRow = (await csv.text()).trimEnd().split('\r\n').at(-1)!
    expect(totalRow.split(',')[1]).toBe(String(expected!.leads))
    expect(await axeViolations(maria)).toEqual([])
  })

  it('fits a phone: no page of the inbox scrolls sideways at 390 px', async () => {
    const phone = await signedIn('maria', 390)
    const [lead] = await partner.api.db.sql<{ id: number }[]>`select min(id)::int as id from contact_inquiries`
    for (const path of ['/staff/leads', `/staff/leads/${lead!.id}`, '/staff/leads/dashboard']) {
      await phone.goto(`${partner.api.url}${path}`)
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      expect(overflow, path).toBeLessThanOrEqual(0)
      expect(await axeViolations(phone), path).toEqual([])
      // The console's header is two rows on a phone (it was six, 330 px), and the navigation row
      // scrolls sideways with the current page in view.
      expect(await phone.locator('.staff-header').evaluate((header) => header.getBoundingClientRect().height), path).toBeLessThanOrEqual(110)
      const current = await phone.locator('.staff-nav [aria-current="page"]').boundingBox()
      expect(current!.x, path).toBeGreaterThanOrEqual(0)
      expect(current!.x + current!.width, path).toBeLessThanOrEqual(390)
    }
    // The dashboard was the last page: its week charts scroll sideways on a phone, and each opens
    // on its last week, the current one (issue #30, point 6), not on the oldest.
    await phone.waitForSelector('html[data-staff-ready]')
    const charts = await phone.locator('.week-chart .lead-scroll').evaluateAll((boxes) =>
      boxes.map((box) => ({ scrolls: box.scrollWidth > box.clientWidth, atEnd: box.scrollLeft + box.clientWidth >= box.scrollWidth - 1 })),
    )
    expect(charts.length).toBeGreaterThan(0)
    expect(charts).toEqual(charts.map(() => ({ scrolls: true, atEnd: true })))
    // Who is signed in is read out, not shown (Your account shows it).
    const who = phone.locator('.staff-signout__who')
    expect(await who.textContent()).toMatch(/^Signed in as maria/)
    expect((await who.boundingBox())!.width).toBeLessThanOrEqual(1)
  })
})
