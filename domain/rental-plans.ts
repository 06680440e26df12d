import { type Location, showrooms } from './business.ts'
import { formatDollars } from './dollars.ts'

/**
 * Rental plans (docs/PRODUCT.md, "Rentals"): fixed display data, identical on every rentals page,
 * and the rules a rental request is priced by (SPEC section 9). Booking is by phone; a request
 * online (`/rentals/request`) asks for dates, and the dealer calls back to confirm.
 */
export const cartTypes = ['4-seater', '6-seater', 'utility'] as const
export type CartType = (typeof cartTypes)[number]

/** SPEC's four periods, as the `plan` attribute and the request's field name them. */
export const planKeys = ['daily', '3-day', 'weekly', 'monthly'] as const
export type PlanKey = (typeof planKeys)[number]

export interface RentalPlan {
  key: PlanKey
  title: 'Daily' | '3 Day' | 'Weekly' | 'Monthly'
  description: string
  /** Whole dollars for the period: 1050. */
  amount: number
  /** As printed, with the dollar sign: "$1,050". */
  price: string
  /** How many 24-hour days the plan runs. */
  days: number
  period: string
  /** Per day, as printed: "$228.34". */
  renewPrice: string
  /** "6.8%", or undefined for the daily plan, which saves nothing. */
  savings?: string
  recommended: true
}

export interface RentalCartType {
  key: CartType
  title: string
  /** Name of the icon the page draws for this type. */
  icon: 'users' | 'users-round' | 'truck'
  plans: readonly [RentalPlan, RentalPlan, RentalPlan, RentalPlan]
}

interface PriceRow {
  amount: number
  renewPrice: string
  savings?: string
}

const priced = ({ amount, ...row }: PriceRow) => ({ amount, price: formatDollars(amount), ...row })

function plans(
  what: string,
  [day, threeDays, week, month]: readonly [PriceRow, PriceRow, PriceRow, PriceRow],
): RentalCartType['plans'] {
  return [
    {
      key: 'daily',
      title: 'Daily',
      days: 1,
      description: `A full 24 hours with a ${what}: a wedding, a tournament or a day at the shore.`,
      period: '1 day',
      recommended: true,
      ...priced(day),
    },
    {
      key: '3-day',
      title: '3 Day',
      days: 3,
      description: `A long weekend with a ${what}, charged and delivered before you arrive.`,
      period: '3 days',
      recommended: true,
      ...priced(threeDays),
    },
    {
      key: 'weekly',
      title: 'Weekly',
      days: 7,
      description: `Seven days with a ${what}: the classic shore-house vacation rental.`,
      period: '7 days',
      recommended: true,
      ...priced(week),
    },
    {
      key: 'monthly',
      title: 'Monthly',
      days: 30,
      description: `Thirty days with a ${what} for the season, an event venue or a job site.`,
      period: '30 days',
      recommended: true,
      ...priced(month),
    },
  ]
}

const fourSeatPrices = [
  { amount: 245, renewPrice: '$245' },
  { amount: 685, renewPrice: '$228.34', savings: '6.8%' },
  { amount: 1050, renewPrice: '$150', savings: '38.7%' },
  { amount: 2800, renewPrice: '$94', savings: '61.9%' },
] as const

const sixSeatPrices = [
  { amount: 295, renewPrice: '$295' },
  { amount: 735, renewPrice: '$245', savings: '16.9%' },
  { amount: 1400, renewPrice: '$200', savings: '32.2%' },
  { amount: 3500, renewPrice: '$116.67', savings: '60.4%' },
] as const

export const rentalCartTypes: readonly RentalCartType[] = [
  {
    key: '4-seater',
    title: '4 Seater',
    icon: 'users',
    plans: plans('street-legal 4 seater', fourSeatPrices),
  },
  {
    key: '6-seater',
    title: '6 Seater',
    icon: 'users-round',
    plans: plans('street-legal 6 seater', sixSeatPrices),
  },
  {
    key: 'utility',
    title: 'Utility',
    icon: 'truck',
    plans: plans('utility cart with a cargo bed', fourSeatPrices),
  },
]

/** SPEC section 9: $6 a mile, for each mile beyond the first 10 from the nearest showroom. */
const deliveryDollarsPerMile = 6
const freeDeliveryMiles = 10
const billingIncrementHours = 24

export const rentalTerms = {
  deliveryDollarsPerMile,
  /** As printed: "$6". */
  deliveryFeePerMile: formatDollars(deliveryDollarsPerMile),
  freeDeliveryMiles,
  /** Rentals are billed in periods of this many hours; early returns are not refunded. */
  billingIncrementHours,
  footnotes: [
    `All prices subject to availability and terms of service. Delivery fee applies for locations beyond ${freeDeliveryMiles} miles.`,
    `Rental periods are calculated in ${billingIncrementHours}-hour increments. Early returns do not qualify for refunds.`,
  ],
  features: [
    { title: 'Street Legal', text: 'Every rental is street legal, with seat belts, lights and mirrors.' },
    { title: 'Fully Charged', text: 'Delivered fully charged and ready to go.' },
    { title: '24/7 Support', text: 'Call us any hour of any day while you have the cart.' },
    { title: 'Flexible Pickup & Return', text: 'Pick up at a showroom or have it delivered and collected.' },
    { title: 'Insurance Included', text: 'Insurance coverage is included in every plan.' },
    { title: 'No Hidden Fees', text: `The price you see, plus delivery beyond ${freeDeliveryMiles} miles. Nothing else.` },
  ],
} as const

export function rentalCartType(key: CartType): RentalCartType {
  return rentalCartTypes.find((type) => type.key === key)!
}

/** One plan of one cart type: its price and length come from the table above, nowhere else. */
export function rentalPlan(cartType: CartType, plan: PlanKey): RentalPlan {
  return rentalCartType(cartType).plans.find((p) => p.key === plan)!
}

/** How many days a plan runs: the same for every cart type. */
export function planDays(plan: PlanKey): number {
  return rentalPlan('4-seater', plan).days
}

export const isCartType = (value: unknown): value is CartType => cartTypes.includes(value as CartType)
export const isPlanKey = (value: unknown): value is PlanKey => planKeys.includes(value as PlanKey)

export interface Coordinates {
  latitude: number
  longitude: number
}

const earthRadiusMiles = 3958.8

/** Straight-line (great-circle) miles between two points: the haversine formula. */
export function milesBetween(a: Coordinates, b: Coordinates): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180
  const dLat = radians(b.latitude - a.latitude)
  const dLon = radians(b.longitude - a.longitude)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2
  return 2 * earthRadiusMiles * Math.asin(Math.sqrt(h))
}

export interface DeliveryEstimate {
  /** The showroom the cart would come from: the nearest one. */
  showroom: Pick<Location, 'id' | 'name'>
  /** Whole miles from it, straight line (an estimate: the dealer confirms the fee when calling). */
  miles: number
  /** Whole dollars; 0 within the free miles. */
  fee: number
}

/**
 * The delivery fee estimate (SPEC section 9, PRODUCT.md "rental requests"): from the nearest
 * showroom, $6 for each whole mile beyond the first 10; nothing within 10 miles.
 */
export function deliveryEstimate(to: Coordinates): DeliveryEstimate {
  const [nearest] = showrooms
    .filter((s): s is Location & { geo: Coordinates } => Boolean(s.geo))
    .map((s) => ({ showroom: s, miles: milesBetween(s.geo, to) }))
    .sort((a, b) => a.miles - b.miles)
  if (!nearest) throw new Error('No showroom has coordinates (domain/business.ts)')
  const miles = Math.round(nearest.miles)
  return { showroom: { id: nearest.showroom.id, name: nearest.showroom.name }, miles, fee: deliveryFee(miles) }
}

/** $6 a mile for each mile beyond the first 10. */
export function deliveryFee(miles: number): number {
  return Math.max(0, Math.ceil(miles) - freeDeliveryMiles) * deliveryDollarsPerMile
}
