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
  location: 'waretown',
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

  it('names every bad field with its own message, a missing name among them, in one round', () => {
    expect(
      issues({ ...valid, title: ' ', make: null, model: '', price: -1, condition: 'demo', status: 'gone', location: 'atlantic-city', seats: 0, battery: 'diesel', year: 1900 }),
    ).toEqual([
      { path: 'price', message: 'Price cannot be negative' },
      { path: 'condition', message: 'Condition must be new or used' },
      { path: 'status', message: 'Status must be draft, available, hold or sold' },
      {
        path: 'location',
        message: 'Location must be one of the showrooms: ocean-view (Ocean View), bayville (Bayville), waretown (Waretown), pleasantville (Pleasantville)',
      },
      { path: 'year', message: 'Year must be 1950 or later' },
      { path: 'seats', message: 'Seats must be at least 1' },
      { path: 'battery', message: 'Battery must be lithium or lead-acid' },
      { path: 'title', message: 'Title is required: type one, or the make and model to build it from' },
    ])
  })

  it('builds an empty title from year, make, model and trim, and an empty description from the facts', () => {
    const built = cartRecordInput.parse({ ...valid, title: '', description: ' ', year: 2025, make: 'Evolution', model: 'D6 Max', trim: 'GT4', color: 'Portimao Blue', seats: null, battery: null, streetLegal: true })
    expect(built.title).toBe('2025 Evolution D6 Max GT4')
    expect(built.description).toBe(
      '2025 Evolution D6 Max GT4: a new 4-seat electric golf cart, finished in Portimao Blue, street legal. ' +
        'Its lithium ion battery gives about 30-45 miles on a charge, with a top speed of 19 mph. ' +
        'Call or visit the showroom to see it and take it for a drive.',
    )
    expect(cartRecordInput.parse({ ...valid, title: 'Typed title', make: 'Evolution' }).title).toBe('Typed title')
  })

  it('needs no drawing: an empty one is stored as none', () => {
    expect(cartRecordInput.parse({ ...valid, imageUrl: '' }).imageUrl).toBeNull()
    expect(cartRecordInput.parse({ ...valid, imageUrl: undefined }).imageUrl).toBeNull()
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
