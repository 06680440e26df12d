import express from 'express'
import type { GolfCartDetail } from '../../domain/golf-cart.ts'
import { inventoryColumns, inventoryCsv } from '../carts/inventory-csv.ts'
import { type Feed, feedNames, type ListingFacts, listingFacts, reasonsLeftOut } from '../../domain/listing-feeds.ts'
import { business } from '../../domain/business.ts'
import { cartImages } from '../../domain/cart-pictures.ts'
import { xml } from '../leads/adf.ts'
import { keepAnswer } from '../http/answer-cache.ts'
import type { Services } from '../services.ts'
import { productFeed, sortForProducts } from './product-feed.ts'

/**
 * The listing feeds (PRODUCT.md, "feeds"; field names and versions in domain/listing-feeds.ts):
 * `/feeds/vehicle-listings.xml` for Google, `/feeds/meta-vehicles.xml` for Meta, and
 * `/feeds/inventory.csv`, the import's columns for anyone else; and `/feeds/products.xml`, the
 * Merchant Center product feed of every available cart, with or without a VIN (api/feeds/product-feed.ts).
 * Only available carts; the Google and Meta vehicle feeds leave out carts a listing could not carry
 * (no VIN, first of all).
 */
export const feedPaths = {
  google: '/feeds/vehicle-listings.xml',
  meta: '/feeds/meta-vehicles.xml',
  csv: '/feeds/inventory.csv',
  products: '/feeds/products.xml',
} as const

/** The product feed's name in the console. */
export const productFeedName = 'Google Merchant Center products'

/** Available carts split into those a feed lists and those it leaves out, with the reasons. */
export function sortForFeed(carts: readonly GolfCartDetail[], feed: Feed, siteUrl: string) {
  const listed: ListingFacts[] = []
  const leftOut: { cart: GolfCartDetail; reasons: string[] }[] = []
  for (const cart of carts) {
    const facts = listingFacts(cart, siteUrl)
    const reasons = reasonsLeftOut(facts, feed)
    if (reasons.length > 0) leftOut.push({ cart, reasons })
    else listed.push(facts)
  }
  return { listed, leftOut }
}

const tag = (name: string, value: string | number | null | undefined, indent = '      ') =>
  value === null || value === undefined || value === '' ? [] : [`${indent}<${name}>${xml(String(value))}</${name}>`]

/**
 * Google vehicle listings: the specification's attribute names in an RSS 2.0 document with
 * Google's `g:` namespace, as Google's product feeds are read as XML.
 */
export function googleVehicleListings(listed: readonly ListingFacts[], siteUrl: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">',
    '  <channel>',
    `    <title>${xml(`${business.name} vehicle listings`)}</title>`,
    `    <link>${xml(`${siteUrl}/inventory`)}</link>`,
    `    <description>${xml(`Golf carts in stock at ${business.name}, New Jersey`)}</description>`,
    ...listed.flatMap((car) => [
      '    <item>',
      ...tag('g:id', car.id),
      ...tag('g:vin', car.vin),
      ...tag('g:store_code', car.dealer.storeCode),
      ...tag('g:dealership_name', car.dealer.name),
      ...tag('g:dealership_address', car.dealer.address),
      ...tag('g:title', car.title),
      ...tag('g:description', car.description),
      ...tag('g:link', car.link),
      ...tag('g:image_link', car.imageLink),
      ...tag('g:price', car.price),
      ...(car.condition === 'new' ? tag('g:vehicle_msrp', car.msrp) : []),
      ...tag('g:condition', car.condition),
      ...tag('g:make', car.make),
      ...tag('g:model', car.model),
      ...tag('g:trim', car.trim),
      ...tag('g:year', car.year),
      ...tag('g:exterior_color', car.color),
      ...tag('g:vehicle_fulfillment', 'in_store'),
      '    </item>',
    ]),
    '  </channel>',
    '</rss>',
    '',
  ].join('\n')
}

/** Meta's automotive catalog in its XML form: `<listings>` of `<listing>`, the address as components. */
export function metaVehicles(listed: readonly ListingFacts[], siteUrl: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<listings>',
    `  <title>${xml(`${business.name} vehicles`)}</title>`,
    `  <link rel="self" href="${xml(`${siteUrl}${feedPaths.meta}`)}"/>`,
    ...listed.flatMap((car) => [
      '  <listing>',
      ...tag('vehicle_id', car.id, '    '),
      ...tag('vin', car.vin, '    '),
      ...tag('title', car.title, '    '),
      ...tag('description', car.description.slice(0, 5000), '    '),
      ...tag('url', car.link, '    '),
      ...tag('make', car.make, '    '),
      ...tag('model', car.model, '    '),
      ...tag('trim', car.trim, '    '),
      ...tag('year', car.year, '    '),
      ...tag('body_style', 'OTHER', '    '),
      ...tag('exterior_color', car.color, '    '),
      ...tag('fuel_type', 'ELECTRIC', '    '),
      ...tag('transmission', 'AUTOMATIC', '    '),
      ...tag('drivetrain', 'OTHER', '    '),
      '    <image>',
      ...tag('url', car.imageLink),
      ...tag('tag', 'Exterior'),
      '    </image>',
      '    <mileage>',
      ...tag('value', 0),
      ...tag('unit', 'MI'),
      '    </mileage>',
      ...tag('price', car.price, '    '),
      ...tag('state_of_vehicle', car.condition === 'new' ? 'NEW' : 'USED', '    '),
      ...tag('availability', 'AVAILABLE', '    '),
      ...tag('dealer_name', car.dealer.name, '    '),
      ...tag('dealer_phone', car.dealer.phone, '    '),
      '    <address format="simple">',
      `      <component name="addr1">${xml(car.dealer.street)}</component>`,
      `      <component name="city">${xml(car.dealer.city)}</component>`,
      `      <component name="region">${xml(car.dealer.region)}</component>`,
      `      <component name="postal_code">${xml(car.dealer.postalCode)}</component>`,
      '      <component name="country">US</component>',
      '    </address>',
      '  </listing>',
    ]),
    '</listings>',
    '',
  ].join('\n')
}

/**
 * The public CSV: the import's columns for available carts, without the serial number. Its
 * `imageUrl` is the picture every feed shows (the cover photo, else the drawing: `cartImages`),
 * as an address a reader can fetch, not the drawing an import would name.
 */
export function publicInventoryCsv(carts: readonly GolfCartDetail[], siteUrl: string): string {
  const columns = inventoryColumns.filter((c) => c !== 'serialNumber' && c !== 'photos')
  return inventoryCsv(
    carts.map((cart) => ({
      ...cart,
      imageUrl: `${siteUrl}${cartImages(cart)[0]!.path}`,
      photos: undefined,
      condition: cart.category === 'used' ? 'used' : 'new',
      serialNumber: null,
    })),
    columns,
  )
}

/**
 * The feeds' routes. Each answer is built once and kept with the visitors' answers until a cart
 * changes (api/http/answer-cache.ts), through any process.
 */
export function feedRoutes(services: Services, siteUrl: string) {
  const routes = express.Router()
  const serve = (type: string, build: (carts: GolfCartDetail[]) => string): express.RequestHandler =>
    async (_req, res, next) => {
      try {
        const body = build(await services.carts.listingCarts())
        // Crawlers fetch feeds on their own schedule; every fetch sees the inventory as it is now.
        keepAnswer(res)
        res.type(type).set('Cache-Control', 'no-cache').send(body)
      } catch (error) {
        next(error)
      }
    }
  const path = (full: string) => full.replace(/^\/feeds/, '')
  routes.get(path(feedPaths.google), serve('application/xml', (carts) => googleVehicleListings(sortForFeed(carts, 'google', siteUrl).listed, siteUrl)))
  routes.get(path(feedPaths.meta), serve('application/xml', (carts) => metaVehicles(sortForFeed(carts, 'meta', siteUrl).listed, siteUrl)))
  routes.get(path(feedPaths.csv), serve('text/csv', (carts) => publicInventoryCsv(carts, siteUrl)))
  routes.get(path(feedPaths.products), serve('application/xml', (carts) => productFeed(sortForProducts(carts, siteUrl).listed, siteUrl)))
  return routes
}

/** For the console: how many carts each feed lists, and the available carts it leaves out, with reasons. */
export async function feedsReport(services: Pick<Services, 'carts'>) {
  const carts = await services.carts.listingCarts()
  const entry = (feed: Feed | 'products', name: string, listed: number, leftOut: { cart: GolfCartDetail; reasons: string[] }[]) => ({
    feed,
    name,
    path: feedPaths[feed],
    listed,
    leftOut: leftOut.map(({ cart, reasons }) => ({ id: cart.id, slug: cart.slug, title: cart.title, stockNumber: cart.stockNumber, reasons })),
  })
  const vehicleFeeds = (['google', 'meta'] as const).map((feed) => {
    const { listed, leftOut } = sortForFeed(carts, feed, '')
    return entry(feed, feedNames[feed], listed.length, leftOut)
  })
  const products = sortForProducts(carts, '')
  return [...vehicleFeeds, entry('products', productFeedName, products.listed.length, products.leftOut)]
}
