import { describe, expect, it } from 'vitest'
import { formatSeating, specificationGroups, specificationsFor } from './specifications.ts'
import { categoryLabel } from './golf-cart.ts'

const seating = (title: string) => formatSeating(specificationsFor(title))

describe('Evolution D6', () => {
  it('has the D6 figures and a lithium battery', () => {
    expect(specificationsFor('2025 Evolution D6 Max GT4')).toMatchObject({
      brand: 'Evolution',
      topSpeedMph: 19,
      rangeMiles: { min: 30, max: 45 },
      chargingHours: { min: 6, max: 8 },
      motor: 'AC',
      battery: 'Lithium Ion',
      lengthIn: 95,
      widthIn: 48,
      heightIn: 72,
      wheelbaseIn: 66,
      groundClearanceIn: 6,
      payloadLbs: 800,
    })
  })

  it.each([
    ['Evolution D6 Max GT4', '4 Passengers'],
    ['Evolution D6 Max XT4', '4 Passengers'],
    ['Evolution D6 Max GT6', '6 Passengers'],
    ['Evolution D6 Max XT6', '6 Passengers'],
    ['Evolution D6 Max', '4 Passengers'],
  ])('%s seats %s', (title, seats) => {
    expect(seating(title)).toBe(seats)
  })
})

describe('Evolution D5', () => {
  it('is the D6 platform with a lead acid battery', () => {
    const d5 = specificationsFor('Evolution D5 Maverick 4')
    const d6 = specificationsFor('Evolution D6 Max GT4')
    expect(d5).toEqual({ ...d6, battery: 'Lead Acid' })
  })

  it.each([
    ['Evolution D5 Maverick 6', '6 Passengers'],
    ['Evolution D5 Ranger 6 Plus', '6 Passengers'],
    ['Evolution D5 Maverick 4+2', '6 Passengers'],
    ['Evolution D5 Maverick 2+2', '4 Passengers'],
    ['Evolution D5 Ranger 4 Plus', '4 Passengers'],
    ['Evolution D5 Ranger', '4 Passengers'],
    ['2026 Evolution D5 Maverick 2+2', '4 Passengers'],
  ])('%s seats %s', (title, seats) => {
    expect(seating(title)).toBe(seats)
  })
})

describe('Evolution Classic', () => {
  it('has the Classic figures', () => {
    expect(specificationsFor('Evolution Classic 2 Plus')).toMatchObject({
      topSpeedMph: 15,
      rangeMiles: { min: 25, max: 35 },
      chargingHours: { min: 8, max: 10 },
      motor: 'DC',
      battery: 'Lead Acid',
      lengthIn: 94,
      widthIn: 47,
      heightIn: 70,
      wheelbaseIn: 65,
      groundClearanceIn: 5,
      payloadLbs: 600,
    })
  })

  it.each([
    ['Evolution Classic 4 Plus', '4 Passengers'],
    ['Evolution Classic 4 Pro', '4 Passengers'],
    ['Evolution Classic 2 Plus', '2 Passengers'],
    ['2024 Evolution Classic 2 Pro', '2 Passengers'],
  ])('%s seats %s', (title, seats) => {
    expect(seating(title)).toBe(seats)
  })
})

describe('other Evolution lines', () => {
  it('use the D5 figures', () => {
    const { seats: _a, ...carrier } = specificationsFor('Evolution Carrier 6 Plus')
    const { seats: _b, ...d5 } = specificationsFor('Evolution D5 Maverick 4')
    expect(carrier).toEqual(d5)
  })

  it.each([
    ['Evolution Carrier 6 Plus', '6 Passengers'],
    ['Evolution Forester 6 Plus', '6 Passengers'],
    ['Evolution Carrier 8 Plus', '8 Passengers'],
    ['Evolution Forester 4 Plus', '4 Passengers'],
    ['Evolution Turfman 800', '2 Passengers'],
    ['Evolution Turfman 1000', '2 Passengers'],
    ['Evolution D3 2+2', '4 Passengers'],
  ])('%s seats %s', (title, seats) => {
    expect(seating(title)).toBe(seats)
  })
})

describe('Denago', () => {
  it('has the Denago figures', () => {
    expect(specificationsFor('Denago EV Rover XL')).toMatchObject({
      brand: 'Denago',
      topSpeedMph: 25,
      rangeMiles: { min: 40, max: 60 },
      chargingHours: { min: 6, max: 8 },
      motor: 'AC',
      battery: 'Lithium Ion',
      lengthIn: 95,
      widthIn: 48,
      heightIn: 74,
      wheelbaseIn: 68,
      groundClearanceIn: 8,
      payloadLbs: 1200,
    })
  })

  it.each([
    ['Denago EV Rover XXL', '8 Passengers'],
    ['Denago EV Rover XL6', '6 Passengers'],
    ['Denago EV Rover 4', '4 Passengers'],
    ['Denago EV City', '6 Passengers'],
    ['Denago EV Nomad XL', '6 Passengers'],
    ['Denago EV Rover XL', '2-4 Passengers'],
    ['2026 Denago EV Rover XL', '2-4 Passengers'],
  ])('%s seats %s', (title, seats) => {
    expect(seating(title)).toBe(seats)
  })
})

describe('any other brand', () => {
  it('gets the generic electric figures and 4 seats', () => {
    expect(specificationsFor('Club Car Onward 4 Passenger')).toEqual({
      brand: 'Other',
      topSpeedMph: 19,
      rangeMiles: { min: 30, max: 45 },
      chargingHours: { min: 6, max: 8 },
      motor: 'Electric',
      battery: 'Lead Acid',
      lengthIn: 94,
      widthIn: 47,
      heightIn: 70,
      wheelbaseIn: 65,
      groundClearanceIn: 6,
      payloadLbs: 800,
      seats: { min: 4, max: 4 },
    })
  })
})

describe('specification groups on the vehicle page', () => {
  it('lists performance, dimensions and capacity, In Stock unless told the status', () => {
    const groups = specificationGroups(specificationsFor('Denago EV Rover XL6'), { category: categoryLabel('new') })
    expect(groups.performance).toEqual([
      ['Top Speed', '25 mph'],
      ['Range', '40-60 miles'],
      ['Charging Time', '6-8 hours'],
      ['Motor Type', 'AC Motor'],
      ['Battery Type', 'Lithium Ion'],
    ])
    expect(groups.dimensions).toEqual([
      ['Length', '95 in'],
      ['Width', '48 in'],
      ['Height', '74 in'],
      ['Wheelbase', '68 in'],
      ['Ground Clearance', '8 in'],
    ])
    expect(groups.capacity).toEqual([
      ['Seating', '6 Passengers'],
      ['Payload', '1,200 lbs'],
      ['Category', 'NEW'],
      ['Availability', 'In Stock'],
    ])
    expect(specificationGroups(specificationsFor('Denago EV Rover XL6'), { category: categoryLabel('used'), availability: 'Sold' }).capacity.slice(2)).toEqual([
      ['Category', 'USED'],
      ['Availability', 'Sold'],
    ])
  })
})
