import { describe, expect, it } from 'vitest'
import { cartSpecifications, derivedFacts, soldPageExpired } from './cart-facts.ts'
import { cartFormValues, cartRecordInput, latestModelYear } from './cart-record.ts'
import { specificationsFor } from './specifications.ts'

const valid = {
  title: '2025 Evolution D5 Ranger 4 Plus',
  description: 'Four seats, lead-acid, ready for the boardwalk.',
  price: 11995,
  imageUrl: '/images/carts/2025-evolution-d5-ranger-4-plus.svg',
  condition: 'new',
  status: 'available',
} as const

function issues(input: unknown) {
  const result = cartRecordInput.safeParse(input)
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
}

describe('the cart record schema', () => {
  it('accepts the required fields alone, with every optional fact empty', () => {
    expect(cartRecordInput.parse(valid)).toEqual({
      ...valid,
      featured: false,
      year: null,
      make: null,
      model: null,
      trim: null,
      vin: null,
      serialNumber: null,
      stockNumber: null,
      color: null,
      seats: null,
      battery: null,
      streetLegal: false,
      lifted: false,
      msrp: null,
    })
  })

  it('names every bad field with its own message', () => {
    expect(
      issues({ ...valid, title: ' ', price: -1, condition: 'demo', status: 'gone', seats: 0, battery: 'diesel', year: 1900 }),
    ).toEqual([
      { path: 'title', message: 'Title is required' },
      { path: 'price', message: 'Price cannot be negative' },
      { path: 'condition', message: 'Condition must be new or used' },
      { path: 'status', message: 'Status must be available, hold or sold' },
      { path: 'year', message: 'Year must be 1950 or later' },
      { path: 'seats', message: 'Seats must be at least 1' },
      { path: 'battery', message: 'Battery must be lithium or lead-acid' },
    ])
  })

  it('normalizes a VIN and refuses one whose check digit is wrong', () => {
    expect(cartRecordInput.parse({ ...valid, vin: '1m8gdm9a-xkp042788' }).vin).toBe('1M8GDM9AXKP042788')
    expect(issues({ ...valid, vin: '1M8GDM9A1KP042788' })).toEqual([
      { path: 'vin', message: 'The check digit (9th character) should be X: check the VIN for a typo' },
    ])
    expect(cartRecordInput.parse({ ...valid, vin: '' }).vin).toBeNull()
  })

  it('refuses images from other sites, prices with fractions of a cent and years too far ahead', () => {
    expect(issues({ ...valid, imageUrl: 'https://evil.test/x.png' })[0]?.path).toBe('imageUrl')
    expect(issues({ ...valid, imageUrl: '//evil.test/x.png' })[0]?.path).toBe('imageUrl')
    expect(issues({ ...valid, price: 10.005 })[0]?.message).toBe('Price can have at most two decimals (cents)')
    expect(issues({ ...valid, year: latestModelYear() + 1 })[0]?.message).toBe('Year cannot be more than a year ahead')
    expect(issues({ ...valid, stockNumber: 'A B' })[0]?.message).toMatch(/Stock number may have/)
  })
})

describe('a posted console form', () => {
  it('becomes the schema input: empty fields null, numbers parsed, checkboxes as booleans', () => {
    const input = cartFormValues({
      ...Object.fromEntries(Object.entries(valid).map(([k, v]) => [k, String(v)])),
      price: '$11,995.50',
      seats: '4',
      year: '',
      featured: 'on',
      make: '  ',
    })
    expect(input).toMatchObject({ price: 11995.5, seats: 4, year: null, featured: true, lifted: false, make: null })
    expect(cartRecordInput.safeParse(input).success).toBe(true)
  })

  it('keeps text in a number field as a number error for that field', () => {
    expect(issues(cartFormValues({ ...valid, price: 'twelve' }))).toEqual([
      { path: 'price', message: 'Price must be a number of dollars, like 12995' },
    ])
  })
})

describe('specifications from the record', () => {
  it('are the title-derived ones when nothing is stored, so existing carts do not change', () => {
    for (const title of ['2025 Denago EV Rover XL', '2025 Evolution D6 Max GT4', 'Club Car Onward']) {
      expect(cartSpecifications({ title })).toEqual(specificationsFor(title))
    }
  })

  it('take the stored seats and battery over the title', () => {
    const spec = cartSpecifications({ title: '2025 Denago EV Rover XL', seats: 6, battery: 'lead-acid' })
    expect(spec.seats).toEqual({ min: 6, max: 6 })
    expect(spec.battery).toBe('Lead Acid')
    expect(spec.topSpeedMph).toBe(25)
  })

  it('take the platform from the stored make when the title names no brand', () => {
    expect(cartSpecifications({ title: 'Rover XL, lifted', make: 'Denago' }).topSpeedMph).toBe(25)
  })

  it('derive year, make and model from the title for the console to show', () => {
    expect(derivedFacts('2025 Evolution D5 Ranger 4 Plus')).toEqual({
      year: 2025,
      make: 'Evolution',
      model: 'D5 Ranger 4 Plus',
      seats: { min: 4, max: 4 },
      battery: 'lead-acid',
    })
  })
})

describe('a sold cart page', () => {
  const soldAt = new Date('2026-11-01T12:00:00Z')
  it('stays up for the visible days, then expires', () => {
    expect(soldPageExpired(soldAt, 14, new Date('2026-11-15T11:59:59Z'))).toBe(false)
    expect(soldPageExpired(soldAt, 14, new Date('2026-11-15T12:00:00Z'))).toBe(true)
    expect(soldPageExpired(null, 14)).toBe(false)
  })
})
