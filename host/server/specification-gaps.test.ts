import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { business, formatHours } from '../../domain/business.ts'
import { counties } from '../../domain/counties.ts'
import { fetchPage } from '../../tests/support/html.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/** Where the pages fell short of the specification (issue #14), checked in the raw HTML search engines get. */
let server: TestServer

beforeAll(async () => {
  server = await startTestServer('pglite', { SITE_URL: 'https://carts.example', LOG_LEVEL: 'silent' }, { site: true })
})
afterAll(() => server?.close())

const get = (path: string) => fetchPage(`${server.url}${path}`)
const countyPaths = (value: string) => [`/${value}-county-golf-carts`, `/rentals/${value}-county-golf-cart-rentals`]

describe('county pages', () => {
  it.each(counties.flatMap((c) => countyPaths(c.value).map((path) => [path, c.name])))(
    '%s names its county and state in the metadata and as the area the dealer serves',
    async (path, name) => {
      const page = await get(path)
      expect(page.meta('geo.region')).toBe('US-NJ')
      expect(page.meta('geo.placename')).toBe(`${name} County, New Jersey`)
      const dealer = page.jsonLd().find((d) => d['@type'] === 'AutoDealer')
      expect(dealer).toMatchObject({ name: business.name, areaServed: [{ '@type': 'AdministrativeArea', name: `${name} County, New Jersey` }] })
    },
  )

  it('pages about the whole state name no single place', async () => {
    for (const path of ['/', '/rentals', '/contact']) {
      const page = await get(path)
      expect(page.meta('geo.placename')).toBeUndefined()
    }
  })
})

describe('rental pages', () => {
  it.each(['/rentals', '/rentals/cape-may-county-golf-cart-rentals'])('%s puts the help block before the footnotes', async (path) => {
    const page = await get(path)
    const order = [...page.document.querySelectorAll('.gc-plan, .call-block, .gc-footnotes')].map((el) => el.className.split(' ')[0])
    expect([...new Set(order)]).toEqual(['gc-plan', 'call-block', 'gc-footnotes'])
    expect(page.all('.gc-footnotes p')).toHaveLength(2)
  })

  it('/rentals books by phone in the hours the showrooms are open, and keeps 24/7 for renters', async () => {
    const text = (await get('/rentals')).text('main')!
    expect(text).not.toMatch(/7 days a week/i)
    expect(business.hours.find((h) => h.dayOfWeek.includes('Sunday'))?.opens).toBeUndefined()
    const open = business.hours.filter((h) => h.opens).map(formatHours).join(', ')
    expect(text).toContain(`Book by phone (${open}); once you have a cart, our support line answers 24/7.`)
  })
})

describe('vehicle pages', () => {
  it('lead back to the inventory when the cart exists', async () => {
    const page = await get('/vehicle/2025-evolution-d6-max-gt4')
    expect(page.status).toBe(200)
    const back = [...page.document.querySelectorAll('main a')].filter((a) => a.textContent?.trim() === 'Back to Inventory')
    expect(back.map((a) => a.getAttribute('href'))).toEqual(['/inventory'])
  })
})
