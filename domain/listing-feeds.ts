import { business, defaultShowroom, formatAddress, type Location, showroomByKey } from './business.ts'
import { derivedFacts } from './cart-facts.ts'
import { cartImages } from './cart-pictures.ts'
import type { GolfCartDetail } from './golf-cart.ts'
import { paths } from './site-paths.ts'

/**
 * What the listing feeds say about a cart (PRODUCT.md, "feeds"), and which available carts each
 * feed must leave out, and why. Field names and formats follow the published specifications:
 *
 * - Google vehicle listings: "Feed specification" and "Feed setup" of Google's vehicle listings
 *   documentation as published in November 2026 (vin, store_code, dealership_name,
 *   dealership_address, price as "10499.00 USD", condition, make, model, year required; mileage
 *   required for used vehicles; link, image_link, exterior_color, trim recommended).
 * - Meta automotive catalog: the "Automotive Inventory Ads" feed reference (updated April 2024):
 *   vehicle_id, vin (17 characters), title, description (at most 5,000 characters), url, make,
 *   model, year, body_style, exterior_color, image url and tag, mileage value and unit, price,
 *   state_of_vehicle and address required.
 *
 * Both require a VIN: golf carts that are not street-legal have none, and stay out of both.
 */
export type Feed = 'google' | 'meta'

export const feedNames: Readonly<Record<Feed, string>> = {
  google: 'Google vehicle listings',
  meta: 'Meta automotive catalog',
}

/** A cart's listing facts, with the title's derivation where staff left a fact empty. */
export interface ListingFacts {
  id: string
  vin: string | null
  title: string
  description: string
  link: string
  imageLink: string
  /** "13995.00 USD": ISO 4217, as both specifications write a price. */
  price: string
  msrp: string | null
  condition: 'new' | 'used'
  make: string | null
  model: string | null
  trim: string | null
  year: number | null
  color: string | null
  /** The showroom the cart stands at, as its store code and dealership (PRODUCT.md, "cart location"). */
  dealer: FeedDealer
}

const money = (value: number) => `${value.toFixed(2)} USD`

export function listingFacts(cart: GolfCartDetail, siteUrl: string): ListingFacts {
  const derived = derivedFacts(cart.title)
  return {
    id: cart.stockNumber,
    vin: cart.vin,
    title: cart.title,
    description: cart.description,
    link: `${siteUrl}${paths.vehicle(cart.slug)}`,
    // The cover photo the vehicle page shows, else the drawing (domain/cart-pictures.ts).
    imageLink: `${siteUrl}${cartImages(cart)[0]!.path}`,
    price: money(cart.price),
    msrp: cart.msrp === null ? null : money(cart.msrp),
    condition: cart.category === 'used' ? 'used' : 'new',
    make: cart.make ?? derived.make,
    model: cart.model ?? derived.model,
    trim: cart.trim,
    year: cart.year ?? derived.year,
    color: cart.color,
    dealer: feedDealer(showroomByKey(cart.location) ?? defaultShowroom),
  }
}

/** Why a feed leaves an available cart out: empty when it goes in. */
export function reasonsLeftOut(facts: ListingFacts, feed: Feed): string[] {
  const reasons: string[] = []
  if (!facts.vin) reasons.push('No VIN: listings require one (carts that are not street-legal have none)')
  if (!facts.make) reasons.push('No make: set it, or use a title that names Evolution or Denago')
  if (!facts.model) reasons.push('No model: set it, or use a title that names a known model')
  if (!facts.year) reasons.push('No model year: set it, or put the year in the title')
  // Both require the mileage of a used vehicle, and the cart record keeps none.
  if (facts.condition === 'used') reasons.push('Used: listings require its mileage, which the cart record does not keep')
  if (feed === 'meta' && !facts.color) reasons.push('No colour: Meta requires the exterior colour')
  return reasons
}

/** A showroom as both feeds name the dealership a cart stands at. */
export function feedDealer(showroom: Location) {
  const address = showroom.address ?? defaultShowroom.address!
  return {
    storeCode: showroom.id,
    name: business.name,
    address: `${formatAddress(address)}, US`,
    street: address.street,
    city: address.city,
    region: address.region,
    postalCode: address.postalCode,
    phone: showroom.phone.display,
  }
}

export type FeedDealer = ReturnType<typeof feedDealer>
