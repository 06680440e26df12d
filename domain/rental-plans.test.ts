import { describe, expect, it } from 'vitest'
import { rentalCartTypes, rentalTerms } from './rental-plans.ts'

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
