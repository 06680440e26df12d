import { addDays, newJerseyToday } from '../../domain/calendar-days.ts'
import { callToConfirm } from '../../domain/rental-request.ts'
import { expect, sidewaysScroll, test, visitHydrated } from './fixtures.ts'

/**
 * The rental request on the dealer's site (issue #33) in Chromium, on the smallest phone we fit:
 * from a plan card to a sent request, with the quote as the visitor chooses, problems beside their
 * fields, axe on the form at its fullest, and the keyboard alone sending it.
 */
test.describe('the rental request in a browser', () => {
  test.use({ viewport: { width: 320, height: 640 } })

  test('goes from a plan card to a sent request at 320 px: quote, fee, availability, problems, axe, keyboard', async ({ page, server, problems, axe }) => {
    await visitHydrated(page, `${server.url}/rentals`)
    await page.getByRole('link', { name: 'Request these dates for the 6 Seater Weekly plan' }).click()
    await page.waitForURL(/\/rentals\/request\?cartType=6-seater&plan=weekly#request$/)
    await expect(page.locator('#root')).toHaveAttribute('data-hydrated')
    const form = page.locator('form[aria-labelledby]').filter({ has: page.locator('select[name="rental.plan"]') })
    await expect(form.locator('select[name="rental.plan"]')).toHaveValue('weekly')
    const summary = page.locator('.gc-rental-summary')
    await expect(summary).toContainText('$1,400')
    // With the script, only the fields the choice needs: a pickup's showroom, not an address. The
    // page without the script shows them all; the island drops the address once it runs, which on a
    // loaded machine can be a moment after the summary shows the price.
    await expect(form.locator('input[name="rental.zip"]')).toHaveCount(0)
    await expect(form.getByLabel('Showroom')).toHaveCount(1)

    const start = addDays(newJerseyToday(), 12)
    await form.locator('input[name="rental.startDate"]').fill(start)
    await form.locator('select[name="rental.pickup"]').selectOption('delivery')
    await form.locator('input[name="rental.street"]').fill('1 Hudson Pl')
    await form.locator('input[name="rental.town"]').fill('Hoboken')
    await form.locator('input[name="rental.zip"]').fill('07030')
    await expect(summary).toHaveText(/about \d+ miles: estimated fee \$\d/)
    await expect(summary).toContainText('A 6 Seater is free for those dates.')

    // Sent without a name or email: each problem beside its field, focus on the first.
    await form.getByRole('button', { name: 'Send Request' }).click()
    await expect.poll(() => page.locator('.gc-field__error').count()).toBeGreaterThanOrEqual(3)
    await expect(page.locator('[name="firstName"]:focus')).toHaveCount(1)
    expect(await axe()).toEqual([])
    expect(await sidewaysScroll(page)).toBe(0)

    // The keyboard alone: type, Tab to the next field, Enter to send.
    await page.keyboard.type('Kay')
    await page.keyboard.press('Tab')
    await page.keyboard.type('Board')
    await page.keyboard.press('Tab')
    await page.keyboard.type('kay.board@example.com')
    await page.keyboard.press('Enter')
    await expect(page.locator('[role="status"].gc-form__sent')).toContainText(callToConfirm)
    const [stored] = await server.db.sql<{ interest: string; zip: string; fee: number; start: string }[]>`
      select i.interest, r.zip, r.delivery_fee::float8 as fee, to_char(r.start_date, 'YYYY-MM-DD') as start
      from contact_inquiries i join rental_requests r on r.inquiry_id = i.id where i.email = 'kay.board@example.com'
    `
    expect(stored).toMatchObject({ interest: 'rentals', zip: '07030', start })
    expect(stored!.fee).toBeGreaterThan(0)
    expect(problems).toEqual([])
  })
})
