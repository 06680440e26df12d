import { leadInterestOptions } from '../../domain/inquiry.ts'
import { modelForTitle } from '../../domain/dealership-sources.ts'
import { specificationsFor } from '../../domain/specifications.ts'
import type { StoredInquiry } from '../inquiries/inquiry-store.ts'
import { rentalRequestFacts } from '../../domain/rental-request.ts'
import { serviceRequestFacts } from '../../domain/service-request.ts'

/** What every message says about a lead, worked out once. */
export function interestLabel(lead: StoredInquiry): string | undefined {
  return leadInterestOptions.find((o) => o.value === lead.interest)?.label
}

/**
 * The cart as a CRM wants it: year, make and model from the cart record, else from the title;
 * its stock number and VIN when it has them.
 */
export function vehicleOf(
  lead: StoredInquiry,
): { year?: string; make: string; model: string; price?: number; stockNumber?: string; vin?: string } | undefined {
  if (!lead.cartTitle) return undefined
  const title = lead.cartTitle
  const year = lead.cartYear ? String(lead.cartYear) : title.match(/\b(19|20)\d{2}\b/)?.[0]
  const brand = specificationsFor(title).brand
  const make = lead.cartMake ?? (brand === 'Other' ? (title.replace(/\b(19|20)\d{2}\b/, '').trim().split(/\s+/)[0] ?? title) : brand)
  const known = modelForTitle(title)?.model.replace(new RegExp(`^${make}\\s+`, 'i'), '')
  const model = lead.cartModel ?? known ?? title.replace(/\b(19|20)\d{2}\b/, '').replace(new RegExp(`\\b${make}\\b`, 'i'), '').trim()
  return {
    year,
    make,
    model: model || title,
    price: lead.cartPrice ?? undefined,
    stockNumber: lead.cartStockNumber ?? undefined,
    vin: lead.cartVin ?? undefined,
  }
}

/** New Jersey time, as the dealer reads it: "Saturday, November 21, 2026 at 3:04 AM EST". */
export function newJerseyTime(date: Date): string {
  return new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    dateStyle: 'full',
    timeStyle: 'short',
  })
    .format(date)
    .concat(` ${zoneName(date)}`)
}

function zoneName(date: Date): string {
  return (
    new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'short' })
      .formatToParts(date)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'ET'
  )
}

/** A rental or service request's facts, one a line, for the emails (domain/*-request.ts words them). */
export function requestFacts(lead: StoredInquiry): [string, string][] {
  if (lead.rental) return rentalRequestFacts(lead.rental).filter(([label]) => label !== 'Status')
  if (lead.service) return serviceRequestFacts(lead.service)
  return []
}
