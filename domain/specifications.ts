/**
 * Specifications derived from a cart's title (docs/PRODUCT.md, "Specifications from a title"). Nothing here is stored: the
 * dealer types a title and the vehicle page, the ADF lead and the structured data all read the
 * same figures from it.
 *
 * "The title has 6" is read as "6 stands alone as a number": `XL6` and `6 Plus` count, the 6 in
 * a model year such as 2026 does not. The brief names no seating for a D6 without GT/XT in the
 * title; it gets 4, the smaller D6 Max layout.
 */
export type Brand = 'Evolution' | 'Denago' | 'Other'

export interface Specifications {
  brand: Brand
  topSpeedMph: number
  rangeMiles: Range
  chargingHours: Range
  motor: 'AC' | 'DC' | 'Electric'
  battery: 'Lithium Ion' | 'Lead Acid'
  lengthIn: number
  widthIn: number
  heightIn: number
  wheelbaseIn: number
  groundClearanceIn: number
  payloadLbs: number
  seats: Range
}

export interface Range {
  min: number
  max: number
}

type Platform = Omit<Specifications, 'brand' | 'seats' | 'battery'> & Pick<Specifications, 'battery'>

const evolutionD6: Platform = {
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
}

const evolutionD5: Platform = { ...evolutionD6, battery: 'Lead Acid' }

const evolutionClassic: Platform = {
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
}

const denago: Platform = {
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
}

const otherBrand: Platform = {
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
}

export function specificationsFor(title: string): Specifications {
  const t = title.toLowerCase()
  if (t.includes('evolution')) {
    if (/\bd6\b/.test(t)) return { brand: 'Evolution', ...evolutionD6, seats: seats(d6Seating(t)) }
    if (/\bd5\b/.test(t)) return { brand: 'Evolution', ...evolutionD5, seats: seats(d5Seating(t)) }
    if (/\bclassic\b/.test(t)) {
      return { brand: 'Evolution', ...evolutionClassic, seats: seats(hasNumber(t, 4) ? 4 : 2) }
    }
    return { brand: 'Evolution', ...evolutionD5, seats: seats(otherEvolutionSeating(t)) }
  }
  if (t.includes('denago')) return { brand: 'Denago', ...denago, seats: denagoSeating(t) }
  return { brand: 'Other', ...otherBrand, seats: seats(4) }
}

function d6Seating(t: string): number {
  if (/gt6|xt6/.test(t)) return 6
  return 4
}

function d5Seating(t: string): number {
  if (hasNumber(t, 6) || t.includes('4+2')) return 6
  return 4
}

function otherEvolutionSeating(t: string): number {
  if (/carrier\s*6|forester\s*6/.test(t)) return 6
  if (/carrier\s*8/.test(t)) return 8
  if (/forester\s*4/.test(t)) return 4
  if (t.includes('turfman')) return 2
  return 4
}

function denagoSeating(t: string): Range {
  if (t.includes('xxl')) return seats(8)
  if (hasNumber(t, 6)) return seats(6)
  if (hasNumber(t, 4)) return seats(4)
  if (t.includes('city') || t.includes('nomad')) return seats(6)
  return { min: 2, max: 4 }
}

function seats(count: number): Range {
  return { min: count, max: count }
}

/** The digit stands alone as a number: not part of 2026, but `XL6` and `6 Plus` both count. */
function hasNumber(text: string, n: number): boolean {
  return new RegExp(`(?<!\\d)${n}(?!\\d)`).test(text)
}

export function formatRange({ min, max }: Range): string {
  return min === max ? String(min) : `${min}-${max}`
}

export function formatSeating(spec: Specifications): string {
  return `${formatRange(spec.seats)} Passengers`
}

/**
 * The figures as the vehicle page shows them, grouped as docs/PRODUCT.md ("Vehicle page")
 * lists them, with the cart's category and availability as visitors read them
 * (`categoryLabel` in domain/golf-cart.ts: NEW; `statusLabels` in domain/cart-facts.ts: In Stock,
 * On Hold or Sold).
 */
export function specificationGroups(spec: Specifications, shown: { category: string; availability?: string }) {
  return {
    performance: [
      ['Top Speed', `${spec.topSpeedMph} mph`],
      ['Range', `${formatRange(spec.rangeMiles)} miles`],
      ['Charging Time', `${formatRange(spec.chargingHours)} hours`],
      ['Motor Type', spec.motor === 'Electric' ? 'Electric' : `${spec.motor} Motor`],
      ['Battery Type', spec.battery],
    ],
    dimensions: [
      ['Length', `${spec.lengthIn} in`],
      ['Width', `${spec.widthIn} in`],
      ['Height', `${spec.heightIn} in`],
      ['Wheelbase', `${spec.wheelbaseIn} in`],
      ['Ground Clearance', `${spec.groundClearanceIn} in`],
    ],
    capacity: [
      ['Seating', formatSeating(spec)],
      ['Payload', `${spec.payloadLbs.toLocaleString('en-US')} lbs`],
      ['Category', shown.category],
      ['Availability', shown.availability ?? 'In Stock'],
    ],
  } as const
}
