import { type InquiryReceipt, type LeadInterest, spamReason, type ValidInquiry } from '../../domain/inquiry.ts'
import { findCartBySlug } from '../carts/cart-store.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { earlierLeadQuery } from './repeats.ts'
import { routeLead } from './lead-routing.ts'
import { queueArrivalAlerts } from '../leads/staff-alerts.ts'
import { requestInterest } from '../../domain/lead-input.ts'
import type { ServiceRequest } from '../../domain/service-request.ts'
import { insertRentalRequest, type PricedRental, rentalRequestOf, type StoredRentalRequest } from '../rentals/rental-store.ts'
import { insertServiceRequest, serviceRequestOf, type StoredServiceRequest } from './service-requests.ts'
import { joinCustomer } from '../customers/customer-keys.ts'
import { recordFormConsent } from '../texts/text-consents.ts'

/** The notifications an inquiry can ask for; the outbox sends each once. */
export const notificationKinds = ['dealer-email', 'crm-adf', 'visitor-confirmation'] as const
export type NotificationKind = (typeof notificationKinds)[number]

export interface StoredInquiry {
  id: number
  firstName: string
  lastName: string
  email: string
  phone: string | null
  interest: LeadInterest | null
  message: string | null
  sourceUrl: string | null
  sourceLabel: string | null
  /** The cart the quote is about, as it was when the visitor asked. */
  cartSlug: string | null
  cartTitle: string | null
  cartPrice: number | null
  cartStockNumber: string | null
  cartVin: string | null
  /** The record's own facts; null where the record leaves them to the title. */
  cartYear: number | null
  cartMake: string | null
  cartModel: string | null
  createdAt: Date
  /** The same shopper's lead before this one: its repeat link, else their customer's latest earlier lead. */
  repeatOf: number | null
  /** A rental request's details (interest `rentals`), as priced when asked. */
  rental?: StoredRentalRequest | null
  /** A service request's details (interest `service`). */
  service?: StoredServiceRequest | null
}

/** An inquiry, and the rental or service request it may carry (domain/lead-input.ts). */
export type NewLead = ValidInquiry & { rental?: PricedRental; service?: ServiceRequest }

export interface InquiryStoreOptions {
  /** What to queue for every inquiry, decided by the configuration. */
  notifications: readonly NotificationKind[]
  /** Called after a commit that queued something, to wake the outbox worker. */
  onQueued?(): void
}

const blankToNull = (value: string | undefined) => (value ? value : null)

/**
 * Queues an inquiry's notifications in the caller's transaction: on arrival, or when staff say a
 * caught lead is not spam. A kind already queued for the lead is left as it is.
 */
export async function queueNotifications(tx: TransactionSql, inquiryId: number, kinds: readonly NotificationKind[]): Promise<void> {
  if (kinds.length === 0) return
  await tx`
    insert into outbox_messages ${tx(kinds.map((kind) => ({ inquiry_id: inquiryId, kind })))}
    on conflict do nothing
  `
}

/**
 * What a lead the site makes itself says beside its fields: an interest no form offers (a deposit
 * paid, PRODUCT.md "holding a cart"), and the interest whose routing pool it goes to.
 */
export interface SiteLead {
  interest: LeadInterest
  routeAs: string | null
}

/**
 * Stores a lead in the caller's transaction: the inquiry, its request, its customer, its owner,
 * its alerts and its notifications. Every lead arrives through here, so a deposit's lead is
 * routed, alerted and delivered exactly as a form's. The caller wakes the outbox after the commit
 * when `queued`.
 */
export async function storeLead(
  tx: TransactionSql,
  inquiry: NewLead,
  notifications: readonly NotificationKind[],
  site?: SiteLead,
): Promise<{ receipt: InquiryReceipt; queued: boolean }> {
  const spam = spamReason(inquiry)
  // Either slug reading; a cart removed since the visitor loaded the page leaves only the slug.
  const cart = inquiry.cartSlug ? await findCartBySlug(tx, inquiry.cartSlug) : undefined
  const [row] = await tx<{ id: number; createdAt: Date; interest: LeadInterest | null }[]>`
    insert into contact_inquiries
      (first_name, last_name, email, phone, interest, message, source_url, source_label,
       cart_slug, golf_cart_id, cart_title, cart_price, cart_stock_number, cart_vin,
       cart_year, cart_make, cart_model, spam_reason, repeat_of)
    values (
      ${inquiry.firstName}, ${inquiry.lastName}, ${inquiry.email}, ${blankToNull(inquiry.phone)},
      ${site?.interest ?? requestInterest(inquiry) ?? blankToNull(inquiry.interest)}, ${blankToNull(inquiry.message)},
      ${blankToNull(inquiry.sourceUrl)}, ${blankToNull(inquiry.sourceLabel)},
      ${cart?.slug ?? blankToNull(inquiry.cartSlug)}, ${cart?.id ?? null}, ${cart?.title ?? null},
      ${cart?.price ?? null}, ${cart?.stockNumber ?? null}, ${cart?.vin ?? null},
      ${cart?.year ?? null}, ${cart?.make ?? null}, ${cart?.model ?? null}, ${spam ?? null}, null
    )
    returning id, created_at, interest
  `
  if (inquiry.rental) await insertRentalRequest(tx, row!.id, inquiry.rental)
  if (inquiry.service) await insertServiceRequest(tx, row!.id, inquiry.service)
  // Spam waits in the Spam view for nobody; "Not spam" joins its customer and routes it then.
  if (!spam) {
    await joinCustomer(tx, row!.id, inquiry)
    // After the customer's locks: a lead of the same shopper arriving at the same moment is committed by now.
    await tx`update contact_inquiries set repeat_of = (${earlierLeadQuery(tx, { email: inquiry.email, phone: inquiry.phone, except: row!.id })}) where id = ${row!.id}`
    const routeAs = site ? site.routeAs : row!.interest
    await queueArrivalAlerts(tx, row!.id, (await routeLead(tx, row!.id, routeAs))?.id ?? null)
  }
  if (inquiry.textConsent) await recordFormConsent(tx, row!.id, inquiry.phone)
  await queueNotifications(tx, row!.id, spam ? [] : notifications)
  return { receipt: { id: row!.id, createdAt: row!.createdAt.toISOString(), interest: row!.interest }, queued: !spam }
}

export function createInquiryStore(sql: Sql, options: InquiryStoreOptions = { notifications: [] }) {
  return {
    /**
     * Stores the inquiry and queues its notifications in one transaction: either both happen
     * or neither does, so a stored lead always gets its emails and an email always has its lead.
     */
    async add(inquiry: NewLead): Promise<InquiryReceipt> {
      const { receipt, queued } = await sql.begin((tx) => storeLead(tx, inquiry, options.notifications))
      if (queued) options.onQueued?.()
      return receipt
    },

    async byId(id: number): Promise<StoredInquiry | undefined> {
      const [row] = await sql<StoredInquiry[]>`
        select id, first_name, last_name, email, phone, interest, message, source_url, source_label,
               cart_slug, cart_title, cart_price::float8 as cart_price, cart_stock_number, cart_vin,
               cart_year, cart_make, cart_model, created_at,
               coalesce(repeat_of, (
                 select p.id from contact_inquiries p
                 where p.customer_id = i.customer_id and p.id <> i.id and p.spam_reason is null and p.created_at <= i.created_at
                 order by p.created_at desc, p.id desc limit 1
               )) as repeat_of
        from contact_inquiries i where i.id = ${id}
      `
      if (!row) return undefined
      const [rental, service] = await Promise.all([
        row.interest === 'rentals' ? rentalRequestOf(sql, id) : null,
        row.interest === 'service' ? serviceRequestOf(sql, id) : null,
      ])
      return { ...row, rental, service }
    },
  }
}

export type InquiryStore = ReturnType<typeof createInquiryStore>
