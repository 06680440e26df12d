import { business, defaultShowroom, showroomByKey } from './business.ts'
import type { PublicStatus } from './cart-facts.ts'
import { derivedFacts } from './cart-facts.ts'
import { cartImages, isPhotosComing } from './cart-pictures.ts'
import type { GolfCartDetail } from './golf-cart.ts'
import { paths } from './site-paths.ts'

/**
 * The product feed (PRODUCT.md, "every cart on a channel"): every available cart, with or without
 * a VIN, as a Google Merchant Center product feed, which Meta's product catalogs also read.
 * Attribute names, formats and limits follow Google's "Product data specification" (Merchant
 * Center Help, support.google.com/merchants/answer/7052112, as published in November 2026).
 */

/**
 * The golf carts category of Google's product taxonomy, the one home of its number. Checked
 * against the taxonomy Google publishes with its ids (the source below) on 26 November 2026:
 * "3931 - Vehicles & Parts > Vehicles > Motor Vehicles > Golf Carts" (its siblings: 916 Cars,
 * Trucks & Vans; 919 Motorcycles & Scooters; parent 1267 Motor Vehicles).
 */
export const golfCartsCategory = {
  id: 3931,
  path: 'Vehicles & Parts > Vehicles > Motor Vehicles > Golf Carts',
  source: 'https://www.google.com/basepages/producttype/taxonomy-with-ids.en-US.txt',
} as const

/** The limits Google's product data specification states for the attributes this feed sends. */
export const productFeedLimits = {
  id: 50,
  title: 150,
  description: 5000,
  link: 2000,
  /** additional_image_link: "up to 10 additional product images". */
  additionalImages: 10,
} as const

/** availability follows the cart's status; only available carts are in the feed, so in practice `in_stock`. */
export const productAvailability: Readonly<Record<PublicStatus, 'in_stock' | 'out_of_stock'>> = {
  available: 'in_stock',
  hold: 'out_of_stock',
  sold: 'out_of_stock',
}

/** One `<item>` of the product feed: the values as sent, absolute URLs and formatted price. */
export interface ProductFacts {
  id: string
  title: string
  description: string
  link: string
  /** Null when the cart has neither a photo nor a drawing (the "photos coming" picture is no product image). */
  imageLink: string | null
  additionalImageLinks: string[]
  availability: 'in_stock' | 'out_of_stock'
  /** "12995.00 USD"; null when the cart has no price (0). */
  price: string | null
  condition: 'new' | 'used'
  brand: string | null
  googleProductCategory: number
  productType: string
  /** The key of the showroom the cart stands at (PRODUCT.md, "cart location"). */
  storeCode: string
  /** No GTIN or MPN in the cart record: Google's identifier_exists is "no". */
  identifierExists: 'no'
}

const clip = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1).trimEnd()}…`)

export function productFacts(cart: GolfCartDetail, siteUrl: string): ProductFacts {
  const showroom = showroomByKey(cart.location) ?? defaultShowroom
  const [cover, ...others] = cartImages(cart)
  const description = cart.description.trim() || `${cart.title}, at our ${showroom.name} showroom, ${business.name}.`
  return {
    id: clip(cart.stockNumber, productFeedLimits.id),
    title: clip(cart.title, productFeedLimits.title),
    description: clip(description, productFeedLimits.description),
    link: `${siteUrl}${paths.vehicle(cart.slug)}`,
    imageLink: cover && !isPhotosComing(cover) ? `${siteUrl}${cover.path}` : null,
    additionalImageLinks: others.slice(0, productFeedLimits.additionalImages).map((image) => `${siteUrl}${image.path}`),
    availability: productAvailability[cart.status],
    price: cart.price > 0 ? `${cart.price.toFixed(2)} USD` : null,
    condition: cart.category === 'used' ? 'used' : 'new',
    brand: cart.make ?? derivedFacts(cart.title).make,
    googleProductCategory: golfCartsCategory.id,
    productType: cart.streetLegal ? 'Golf Carts > Street-legal' : 'Golf Carts',
    storeCode: showroom.id,
    identifierExists: 'no',
  }
}

/**
 * Why the product feed leaves an available cart out: only a missing price or image, which Google
 * requires of every product. Never the VIN: this feed is for carts without one too.
 */
export function productReasonsLeftOut(facts: ProductFacts): string[] {
  const reasons: string[] = []
  if (facts.price === null) reasons.push('No price: products require one')
  if (facts.imageLink === null) reasons.push('No image: add a photo, or choose a drawing (products require an image)')
  return reasons
}
