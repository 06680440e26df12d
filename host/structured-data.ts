import { business, defaultShowroom, type Location, showroomByKey, showrooms } from '../domain/business.ts'
import { type County, counties, countyPlaceName } from '../domain/counties.ts'
import { cartSpecifications, derivedFacts, type PublicStatus } from '../domain/cart-facts.ts'
import type { GolfCartDetail } from '../domain/golf-cart.ts'
import { cartImages } from '../domain/cart-pictures.ts'
import { paths } from '../domain/site-paths.ts'

/** Schema.org objects for search engines (issue #4): the dealer, a vehicle, a breadcrumb. */
const hours = business.hours
  .filter((h) => h.opens && h.closes)
  .map((h) => ({
    '@type': 'OpeningHoursSpecification',
    dayOfWeek: h.dayOfWeek.map((d) => `https://schema.org/${d}`),
    opens: h.opens,
    closes: h.closes,
  }))

/** A showroom as an `AutoDealer` of its own, named by an `@id` the dealer's departments and each offer's seller share. */
function showroom(location: Location, siteUrl: string) {
  return {
    '@type': 'AutoDealer',
    '@id': `${siteUrl}/#showroom-${location.id}`,
    name: `${business.name} ${location.name}`,
    telephone: location.phone.tel,
    url: `${siteUrl}${paths.contact}`,
    sameAs: [location.socialUrl, location.websiteUrl],
    openingHoursSpecification: hours,
    ...(location.address && {
      address: {
        '@type': 'PostalAddress',
        streetAddress: location.address.street,
        addressLocality: location.address.city,
        addressRegion: location.address.region,
        postalCode: location.address.postalCode,
        addressCountry: 'US',
      },
    }),
    ...(location.geo && { geo: { '@type': 'GeoCoordinates', ...location.geo } }),
  }
}

/** The dealer; on a county's pages, as the dealer serving that county. */
export function autoDealer(siteUrl: string, county?: County) {
  return {
    '@context': 'https://schema.org',
    '@type': 'AutoDealer',
    '@id': `${siteUrl}/#dealer`,
    name: business.name,
    legalName: business.legalName,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/images/logo.png`,
    image: `${siteUrl}/images/social-card.png`,
    telephone: business.tollFree.tel,
    email: business.email,
    foundingDate: String(business.foundedYear),
    priceRange: '$$',
    brand: business.brands.map((name) => ({ '@type': 'Brand', name })),
    openingHoursSpecification: hours,
    areaServed: (county ? [county] : counties).map((c) => ({ '@type': 'AdministrativeArea', name: countyPlaceName(c) })),
    department: showrooms.map((l) => showroom(l, siteUrl)),
    sameAs: [business.socialUrl, business.networkUrl],
  }
}

/** schema.org's availability for each status: a hold is reserved for a buyer, a sale is final. */
const availability: Readonly<Record<PublicStatus, string>> = {
  available: 'https://schema.org/InStock',
  hold: 'https://schema.org/Reserved',
  sold: 'https://schema.org/SoldOut',
}

/**
 * The cart as a schema.org `Car` (and `Product`, for its offer): what Google's vehicle listings
 * read from a page. Stored facts win; where staff left one empty, the title's derivation fills it.
 */
export function vehicleProduct(cart: GolfCartDetail, siteUrl: string) {
  const spec = cartSpecifications(cart)
  const derived = derivedFacts(cart.title)
  const model = cart.model ?? derived.model
  const year = cart.year ?? derived.year
  const brand = cart.make ?? derived.make
  const condition = cart.category === 'used' ? 'https://schema.org/UsedCondition' : 'https://schema.org/NewCondition'
  const url = `${siteUrl}${paths.vehicle(cart.slug)}`
  const at = showroomByKey(cart.location) ?? defaultShowroom
  return {
    '@context': 'https://schema.org',
    '@type': ['Product', 'Car'],
    '@id': `${url}#vehicle`,
    name: cart.title,
    description: cart.description,
    // Every photo, cover first; a cart without photos, its drawing (domain/cart-pictures.ts).
    image: cartImages(cart).map((image) => `${siteUrl}${image.path}`),
    url,
    /** The dealer's stock number: what a buyer quotes on the phone. */
    sku: cart.stockNumber,
    ...(cart.vin && { vehicleIdentificationNumber: cart.vin }),
    category: 'Electric golf cart',
    itemCondition: condition,
    ...(brand && { brand: { '@type': 'Brand', name: brand }, manufacturer: { '@type': 'Organization', name: brand } }),
    ...(model && { model }),
    ...(cart.trim && { vehicleConfiguration: cart.trim }),
    ...(year && { vehicleModelDate: String(year) }),
    ...(cart.color && { color: cart.color }),
    fuelType: 'Electric',
    vehicleSeatingCapacity: cart.seats ?? spec.seats.max,
    speed: { '@type': 'QuantitativeValue', maxValue: spec.topSpeedMph, unitCode: 'HJ', unitText: 'mph' },
    payload: { '@type': 'QuantitativeValue', value: spec.payloadLbs, unitCode: 'LBR' },
    offers: {
      '@type': 'Offer',
      url,
      sku: cart.stockNumber,
      price: cart.price.toFixed(2),
      priceCurrency: 'USD',
      availability: availability[cart.status],
      itemCondition: condition,
      // The showroom the cart stands at (PRODUCT.md, "cart location"), a department of the dealer.
      seller: { ...showroom(at, siteUrl), parentOrganization: { '@id': `${siteUrl}/#dealer` } },
      availableAtOrFrom: { '@id': `${siteUrl}/#showroom-${at.id}` },
    },
  }
}

export function breadcrumbs(siteUrl: string, trail: readonly { name: string; path: string }[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: crumb.name,
      item: `${siteUrl}${crumb.path}`,
    })),
  }
}
