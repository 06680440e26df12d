import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paths } from '../../domain/site-paths.ts'
import { withCheckDigit } from '../../domain/vin.ts'
import { fetchPage, type Page } from '../../tests/support/html.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/**
 * What the dealer typed, the visitor sees (issue #30, point 5): the vehicle page's "This Cart"
 * facts from the record (stock number, VIN and colour when there are some, condition, seats,
 * battery, street legal, lifted, location), and the MSRP beside the price with what the buyer
 * saves when the price is lower, server-rendered on both databases.
 */
describe.each(backends)('a cart\'s own facts on its vehicle page on %s', (backend) => {
  let server: TestServer
  const vin = withCheckDigit('5ZEVD6M40S0000077')

  beforeAll(async () => {
    server = await startTestServer(backend, { CART_CACHE_MS: '0', LOG_LEVEL: 'silent' }, { site: true })
    const { sql } = server.db
    const add = (slug: string, facts: Record<string, unknown>) => sql`
      insert into golf_carts ${sql({ slug, alternativeSlug: slug, title: slug.replaceAll('-', ' '), description: 'A cart for the facts test.', imageUrl: null, ...facts })}
    `
    await add('2024-denago-ev-rover-xl-trade-in', {
      price: 13495, msrp: 15995, vin, stockNumber: 'DN-7001', color: 'Sky Blue', seats: 6, battery: 'lead-acid',
      streetLegal: true, lifted: true, category: 'used', location: 'bayville',
    })
    await add('2025-evolution-classic-2-plain', { price: 7995, stockNumber: 'EV-7002', location: 'waretown' })
    await add('2025-evolution-classic-4-at-msrp', { price: 9995, msrp: 9995, stockNumber: 'EV-7003' })
  })
  afterAll(() => server?.close())

  const open = (slug: string) => fetchPage(`${server.url}${paths.vehicle(slug)}`)
  const facts = (page: Page) => {
    const group = Array.from(page.document.querySelectorAll('.gc-spec-group')).find((g) => g.querySelector('h3')?.textContent === 'This Cart')
    return Array.from(group?.querySelectorAll('.gc-spec-row') ?? []).map((row) => [row.querySelector('dt')?.textContent, row.querySelector('dd')?.textContent])
  }

  it('lists every fact the dealer stored, and the MSRP with what the buyer saves', async () => {
    const page = await open('2024-denago-ev-rover-xl-trade-in')
    expect(page.status).toBe(200)
    expect(facts(page)).toEqual([
      ['Stock Number', 'DN-7001'],
      ['VIN', vin],
      ['Condition', 'Used'],
      ['Color', 'Sky Blue'],
      ['Seats', '6'],
      ['Battery', 'Lead Acid'],
      ['Street Legal', 'Yes'],
      ['Lifted', 'Yes'],
      ['Location', 'Bayville'],
    ])
    expect(page.text('.gc-vehicle__price')).toBe('$13,495')
    expect(page.text('.gc-vehicle__msrp')).toBe('MSRP $15,995 You save $2,500')
    expect(page.text('.gc-vehicle__msrp s')).toBe('$15,995')
    // The facts come before the platform's figures, the first group of the specifications.
    expect(page.all('.gc-spec-group h3')).toEqual(['This Cart', 'Performance', 'Dimensions', 'Capacity'])
  })

  it('leaves out a VIN, a colour and an MSRP the cart does not have, and reads seats and battery from the title', async () => {
    const page = await open('2025-evolution-classic-2-plain')
    expect(facts(page)).toEqual([
      ['Stock Number', 'EV-7002'],
      ['Condition', 'New'],
      ['Seats', '2'],
      ['Battery', 'Lead Acid'],
      ['Street Legal', 'No'],
      ['Lifted', 'No'],
      ['Location', 'Waretown'],
    ])
    expect(page.document.querySelector('.gc-vehicle__msrp')).toBeNull()
  })

  it('shows an MSRP the price does not beat without a saving', async () => {
    const page = await open('2025-evolution-classic-4-at-msrp')
    expect(page.text('.gc-vehicle__msrp')).toBe('MSRP $9,995')
    expect(page.document.querySelector('.gc-vehicle__saving')).toBeNull()
    expect(facts(page)).toContainEqual(['Seats', '4'])
  })
})
