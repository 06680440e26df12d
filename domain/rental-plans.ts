/**
 * Rental plans (docs/PRODUCT.md, "Rentals"): fixed display data, identical on every rentals page. Booking is
 * by phone only, so nothing here is fetched or stored.
 */
export const cartTypes = ['4-seater', '6-seater', 'utility'] as const
export type CartType = (typeof cartTypes)[number]

export interface RentalPlan {
  title: 'Daily' | '3 Day' | 'Weekly' | 'Monthly'
  description: string
  /** As printed, with the dollar sign: "$1,050". */
  price: string
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
  price: string
  renewPrice: string
  savings?: string
}

function plans(
  what: string,
  [day, threeDays, week, month]: readonly [PriceRow, PriceRow, PriceRow, PriceRow],
): RentalCartType['plans'] {
  return [
    {
      title: 'Daily',
      description: `A full 24 hours with a ${what}: a wedding, a tournament or a day at the shore.`,
      period: '1 day',
      recommended: true,
      ...day,
    },
    {
      title: '3 Day',
      description: `A long weekend with a ${what}, charged and delivered before you arrive.`,
      period: '3 days',
      recommended: true,
      ...threeDays,
    },
    {
      title: 'Weekly',
      description: `Seven days with a ${what}: the classic shore-house vacation rental.`,
      period: '7 days',
      recommended: true,
      ...week,
    },
    {
      title: 'Monthly',
      description: `Thirty days with a ${what} for the season, an event venue or a job site.`,
      period: '30 days',
      recommended: true,
      ...month,
    },
  ]
}

const fourSeatPrices = [
  { price: '$245', renewPrice: '$245' },
  { price: '$685', renewPrice: '$228.34', savings: '6.8%' },
  { price: '$1,050', renewPrice: '$150', savings: '38.7%' },
  { price: '$2,800', renewPrice: '$94', savings: '61.9%' },
] as const

const sixSeatPrices = [
  { price: '$295', renewPrice: '$295' },
  { price: '$735', renewPrice: '$245', savings: '16.9%' },
  { price: '$1,400', renewPrice: '$200', savings: '32.2%' },
  { price: '$3,500', renewPrice: '$116.67', savings: '60.4%' },
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

const deliveryFeePerMile = '$6'
const freeDeliveryMiles = 10
const billingIncrementHours = 24

export const rentalTerms = {
  deliveryFeePerMile,
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
