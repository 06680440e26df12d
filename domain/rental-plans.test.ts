import { describe, expect, it } from 'vitest'
import { deliveryEstimate, deliveryFee, milesBetween, planDays, rentalCartTypes, rentalPlan, rentalTerms } from './rental-plans.ts'
import { showrooms } from './business.ts'

const table = (key: string) =>
  rentalCartTypes
    .find((t) => t.key === key)!
    .plans.map((p) => [p.title, p.price, p.renewPrice, p.savings ?? null])

describe('rental plans', () => {
  it('has three cart types with four recommended plans each', () => {
    expect(rentalCartTypes.map((t) => [t.key, t.title])).toEqual([
      ['4-seater', '4 Seater'],
      ['6-seater', '6 Seater'],
      ['utility', 'Utility'],
    ])
    for (const type of rentalCartTypes) {
      expect(type.plans.map((p) => p.title)).toEqual(['Daily', '3 Day', 'Weekly', 'Monthly'])
      expect(type.plans.every((p) => p.recommended)).toBe(true)
      expect(type.plans.every((p) => p.description.length > 20)).toBe(true)
    }
  })

  it.each(['4-seater', 'utility'])('prices the %s exactly', (key) => {
    expect(table(key)).toEqual([
      ['Daily', '$245', '$245', null],
      ['3 Day', '$685', '$228.34', '6.8%'],
      ['Weekly', '$1,050', '$150', '38.7%'],
      ['Monthly', '$2,800', '$94', '61.9%'],
    ])
  })

  it('prices the 6 seater exactly', () => {
    expect(table('6-seater')).toEqual([
      ['Daily', '$295', '$295', null],
      ['3 Day', '$735', '$245', '16.9%'],
      ['Weekly', '$1,400', '$200', '32.2%'],
      ['Monthly', '$3,500', '$116.67', '60.4%'],
    ])
  })

  it('states delivery and billing terms as the product words them', () => {
    expect(rentalTerms.deliveryFeePerMile).toBe('$6')
    expect(rentalTerms.footnotes).toEqual([
      'All prices subject to availability and terms of service. Delivery fee applies for locations beyond 10 miles.',
      'Rental periods are calculated in 24-hour increments. Early returns do not qualify for refunds.',
    ])
    expect(rentalTerms.features).toHaveLength(6)
  })
})

describe('the rules a rental request is priced by', () => {
  it.each([
    ['4-seater', 'daily', 245],
    ['4-seater', '3-day', 685],
    ['4-seater', 'weekly', 1050],
    ['4-seater', 'monthly', 2800],
    ['utility', 'daily', 245],
    ['utility', '3-day', 685],
    ['utility', 'weekly', 1050],
    ['utility', 'monthly', 2800],
    ['6-seater', 'daily', 295],
    ['6-seater', '3-day', 735],
    ['6-seater', 'weekly', 1400],
    ['6-seater', 'monthly', 3500],
  ] as const)('prices a %s on the %s plan at $%i, the printed price', (cartType, plan, dollars) => {
    expect(rentalPlan(cartType, plan).amount).toBe(dollars)
    expect(rentalPlan(cartType, plan).price).toBe(`$${dollars.toLocaleString('en-US')}`)
  })

  it('runs each plan its period: 1, 3, 7 and 30 days', () => {
    expect((['daily', '3-day', 'weekly', 'monthly'] as const).map(planDays)).toEqual([1, 3, 7, 30])
  })

  it('charges nothing up to 10 miles and $6 for each mile beyond', () => {
    expect([0, 9, 10, 10.2, 11, 12, 25, 100].map(deliveryFee)).toEqual([0, 0, 0, 6, 6, 12, 90, 540])
    expect(rentalTerms.deliveryDollarsPerMile).toBe(6)
    expect(rentalTerms.freeDeliveryMiles).toBe(10)
  })

  it('measures from the nearest showroom, in whole miles', () => {
    for (const showroom of showrooms) {
      expect(deliveryEstimate(showroom.geo!)).toEqual({ showroom: { id: showroom.id, name: showroom.name }, miles: 0, fee: 0 })
    }
    // Princeton (08540's centre): 41 miles from Bayville, the nearest of the four.
    expect(deliveryEstimate({ latitude: 40.3666, longitude: -74.6408 })).toEqual({ showroom: { id: 'bayville', name: 'Bayville' }, miles: 41, fee: (41 - 10) * 6 })
    // One degree of latitude is about 69 miles.
    expect(milesBetween({ latitude: 39, longitude: -74 }, { latitude: 40, longitude: -74 })).toBeCloseTo(69.1, 0)
  })
})
