import { business } from '../../domain/business.ts'
import type { StoredInquiry } from '../inquiries/inquiry-store.ts'
import { interestLabel, requestFacts, vehicleOf } from './lead-facts.ts'
import { rentalCartType, rentalPlan } from '../../domain/rental-plans.ts'

/**
 * The lead as an ADF 1.0 (Auto-lead Data Format) document, the XML dealer CRMs import from email:
 * the declaration, the `adf` processing instruction, one prospect with its request date, the
 * customer's contact, the cart when the lead names one, the dealer as vendor and this site as
 * provider. ADF has no field for rentals or service, so the interest and a request's details
 * travel in the comments; a rental's dates are also the customer's `timeframe` (earliest and
 * latest date) and a delivery address the contact's `address type="delivery"`.
 */
export function adfDocument(lead: StoredInquiry, siteUrl: string): string {
  const vehicle = vehicleOf(lead)
  const rental = lead.rental
  const interest = interestLabel(lead)
  const comments = [
    interest && `Interest: ${interest}`,
    vehicle && `Cart: ${lead.cartTitle}`,
    ...requestFacts(lead).map(([label, value]) => `${label}: ${value}`),
    lead.message && `Message: ${lead.message}`,
    lead.sourceUrl && `Page: ${lead.sourceUrl}`,
    lead.sourceLabel && `Source: ${lead.sourceLabel}`,
  ].filter(Boolean)
  const showroom = business.locations.find((l) => l.address)
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<?adf version="1.0"?>',
    '<adf>',
    '  <prospect status="new">',
    `    <id sequence="1" source="${xml(`${business.name} website`)}">${lead.id}</id>`,
    `    <requestdate>${lead.createdAt.toISOString()}</requestdate>`,
    ...(vehicle
      ? [
          '    <vehicle interest="buy" status="new">',
          ...(vehicle.year ? [`      <year>${xml(vehicle.year)}</year>`] : []),
          `      <make>${xml(vehicle.make)}</make>`,
          `      <model>${xml(vehicle.model)}</model>`,
          // ADF 1.0's element order: year, make, model, vin, stock, then price.
          ...(vehicle.vin ? [`      <vin>${xml(vehicle.vin)}</vin>`] : []),
          ...(vehicle.stockNumber ? [`      <stock>${xml(vehicle.stockNumber)}</stock>`] : []),
          ...(vehicle.price !== undefined ? [`      <price type="asking" currency="USD">${vehicle.price}</price>`] : []),
          '    </vehicle>',
        ]
      : []),
    '    <customer>',
    '      <contact>',
    `        <name part="first">${xml(lead.firstName)}</name>`,
    `        <name part="last">${xml(lead.lastName)}</name>`,
    `        <email>${xml(lead.email)}</email>`,
    ...(lead.phone ? [`        <phone type="voice">${xml(lead.phone)}</phone>`] : []),
    ...(rental?.pickup === 'delivery' && rental.street
      ? [
          '        <address type="delivery">',
          `          <street line="1">${xml(rental.street)}</street>`,
          ...(rental.town ? [`          <city>${xml(rental.town)}</city>`] : []),
          '          <regioncode>NJ</regioncode>',
          ...(rental.zip ? [`          <postalcode>${xml(rental.zip)}</postalcode>`] : []),
          '          <country>US</country>',
          '        </address>',
        ]
      : []),
    '      </contact>',
    ...(rental
      ? [
          '      <timeframe>',
          `        <description>${xml(`Rental: ${rentalCartType(rental.cartType).title}, ${rentalPlan(rental.cartType, rental.plan).title} plan`)}</description>`,
          `        <earliestdate>${rental.startDate}</earliestdate>`,
          `        <latestdate>${rental.endDate}</latestdate>`,
          '      </timeframe>',
        ]
      : []),
    ...(comments.length > 0 ? [`      <comments>${xml(comments.join('\n'))}</comments>`] : []),
    '    </customer>',
    '    <vendor>',
    `      <vendorname>${xml(business.name)}</vendorname>`,
    '      <contact>',
    `        <name part="full">${xml(business.name)}</name>`,
    `        <email>${xml(business.email)}</email>`,
    `        <phone type="voice">${xml(business.tollFree.display)}</phone>`,
    ...(showroom?.address
      ? [
          '        <address>',
          `          <street line="1">${xml(showroom.address.street)}</street>`,
          `          <city>${xml(showroom.address.city)}</city>`,
          `          <regioncode>${xml(showroom.address.region)}</regioncode>`,
          `          <postalcode>${xml(showroom.address.postalCode)}</postalcode>`,
          '          <country>US</country>',
          '        </address>',
        ]
      : []),
    '      </contact>',
    '    </vendor>',
    '    <provider>',
    `      <name part="full">${xml(`${business.name} website`)}</name>`,
    '      <service>Website lead form</service>',
    `      <url>${xml(siteUrl)}</url>`,
    '    </provider>',
    '  </prospect>',
    '</adf>',
    '',
  ]
  return lines.join('\n')
}

/**
 * Escapes text for XML, and drops the control characters XML 1.0 cannot carry at all (a visitor
 * pasting from a terminal should not make the whole lead unreadable).
 */
export function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')
}
