import { describe, expect, it } from 'vitest'
import { countyValues } from './counties.ts'
import { everySitePath, matchSitePath, paths, sitePaths } from './site-paths.ts'

describe('the table of the site’s addresses', () => {
  it('builds the addresses the product lists', () => {
    expect(paths.home).toBe('/')
    expect(paths.privacy).toBe('/privacy-policy')
    expect(paths.vehicle('2025-evolution-d3-2-2')).toBe('/vehicle/2025-evolution-d3-2-2')
    expect(paths.countySales('cape-may')).toBe('/cape-may-county-golf-carts')
    expect(paths.countyRentals('ocean')).toBe('/rentals/ocean-county-golf-cart-rentals')
  })

  it('finds every page at the address its link builds', () => {
    for (const page of Object.keys(sitePaths) as (keyof typeof sitePaths)[]) {
      const link = paths[page]
      const path = typeof link === 'string' ? link : link(page.startsWith('county') ? 'salem' : 'some-cart')
      expect(matchSitePath(path)?.page, path).toBe(page)
    }
  })

  it('reads the parameter back, decoded', () => {
    expect(matchSitePath('/vehicle/2025-evolution-d5-maverick-22')).toEqual({
      page: 'vehicle',
      params: { slug: '2025-evolution-d5-maverick-22' },
    })
    expect(matchSitePath(paths.vehicle('a cart/with a slash'))?.params).toEqual({ slug: 'a cart/with a slash' })
    expect(matchSitePath('/cape-may-county-golf-carts')).toEqual({ page: 'countySales', params: { county: 'cape-may' } })
  })

  it.each([
    '/paris-county-golf-carts',
    '/rentals/paris-county-golf-cart-rentals',
    '/vehicle/',
    '/vehicle/a/b',
    '/vehicle/%E0%A4%A',
    '/inventory/',
    '/Inventory',
    '/rentals/',
    '/contact.html',
  ])('knows no page at %s', (path) => {
    expect(matchSitePath(path)).toBeNull()
  })

  it('lists for the sitemap every fixed page, both pages of every county and every cart given', () => {
    const all = everySitePath(['cart-one', 'cart-two'])
    expect(all).toEqual(
      expect.arrayContaining(['/', '/inventory', '/financing', '/terms-of-service', '/rentals/request', '/services/request', '/vehicle/cart-one', '/vehicle/cart-two']),
    )
    expect(all.filter((p) => p.endsWith('-county-golf-carts'))).toHaveLength(countyValues.length)
    expect(all.filter((p) => p.endsWith('-county-golf-cart-rentals'))).toHaveLength(countyValues.length)
    expect(all).toHaveLength(11 + 2 * countyValues.length + 2)
    // A price alert's confirmation and unsubscribe pages are for the link in its email only.
    expect(all.filter((p) => p.startsWith('/alerts'))).toEqual([])
    expect(all.every((path) => matchSitePath(path) !== null)).toBe(true)
  })

  it('builds a price alert’s links with their token', () => {
    expect(paths.watchLink('confirm', 'a-b_c')).toBe('/alerts/confirm?token=a-b_c')
    expect(paths.watchLink('unsubscribe', 'x')).toBe('/alerts/unsubscribe?token=x')
  })

  it('opens the contact form with the cart chosen for Get Quote', () => {
    expect(paths.quote('2025-evolution-d3-2-2')).toBe('/contact?cart=2025-evolution-d3-2-2')
    expect(paths.quote()).toBe('/contact')
  })

  it('opens the rental request with a plan card’s cart and plan chosen, landed on its form', () => {
    expect(paths.rentalRequestFor({ cartType: '6-seater', plan: 'weekly' })).toBe('/rentals/request?cartType=6-seater&plan=weekly#request')
    expect(paths.rentalRequestFor({ cartType: 'utility', plan: '3-day', county: 'cape-may' })).toBe(
      '/rentals/request?cartType=utility&plan=3-day&county=cape-may#request',
    )
    expect(paths.rentalRequestFor()).toBe('/rentals/request#request')
    expect(paths.serviceRequestForm).toBe('/services/request#request')
  })
})
