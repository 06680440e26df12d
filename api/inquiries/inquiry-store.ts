import { type Interest, type InquiryReceipt, spamReason, type ValidInquiry } from '../../domain/inquiry.ts'
import { findCartBySlug } from '../carts/cart-store.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { earlierLeadQuery } from './repeats.ts'
import { routeLead } from './lead-routing.ts'
import { queueArrivalAlerts } from '../leads/staff-alerts.ts'
import { requestInterest } from '../../domain/lead-input.ts'
import type { ServiceRequest } from '../../domain/service-request.ts'
import { insertRentalRequest, type PricedRental, rentalRequestOf, type StoredRentalRequest } from '../rentals/rental-store.ts'
import { insertServiceRequest, serviceRequestOf, type StoredServiceRequest } from './service-requests.ts'

/** The notifications an inquiry can ask for; the outbox sends each once. */
export const notificationKinds = ['dealer-email', 'crm-adf', 'visitor-confirmation'] as const
export type NotificationKind = (typeof notificationKinds)[number]

export interface StoredInquiry {
  id: number
  firstName: string
  lastName: string
  email: string
  phone: string | null
  interest: Interest | null
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
    on conflict (inquiry_id, kind, user_id, push_subscription_id) do nothing
  `
}

export function createInquiryStore(sql: Sql, options: InquiryStoreOptions = { notifications: [] }) {
  return {
    /**
     * Stores the inquiry and queues its notifications in one transaction: either both happen
     * or neither does, so a stored lead always gets its emails and an email always has its lead.
     */
    async add(inquiry: NewLead): Promise<InquiryReceipt> {
      const spam = spamReason(inquiry)
      const notifications = spam ? [] : options.notifications
      const receipt = await sql.begin(async (tx) => {
        // Either slug reading; a cart removed since the visitor loaded the page leaves only the slug.
        const cart = inquiry.cartSlug ? await findCartBySlug(tx, inquiry.cartSlug) : undefined
        const [row] = await tx<{ id: number; createdAt: Date; interest: Interest | null }[]>`
          insert into contact_inquiries
            (first_name, last_name, email, phone, interest, message, source_url, source_label,
             cart_slug, golf_cart_id, cart_title, cart_price, cart_stock_number, cart_vin,
             cart_year, cart_make, cart_model, spam_reason, repeat_of)
          values (
            ${inquiry.firstName}, ${inquiry.lastName}, ${inquiry.email}, ${blankToNull(inquiry.phone)},
            ${requestInterest(inquiry) ?? blankToNull(inquiry.interest)}, ${blankToNull(inquiry.message)},
            ${blankToNull(inquiry.sourceUrl)}, ${blankToNull(inquiry.sourceLabel)},
            ${cart?.slug ?? blankToNull(inquiry.cartSlug)}, ${cart?.id ?? null}, ${cart?.title ?? null},
            ${cart?.price ?? null}, ${cart?.stockNumber ?? null}, ${cart?.vin ?? null},
            ${cart?.year ?? null}, ${cart?.make ?? null}, ${cart?.model ?? null}, ${spam ?? null},
            ${spam ? null : tx`(${earlierLeadQuery(tx, { email: inquiry.email, phone: inquiry.phone })})`}
          )
          returning id, created_at, interest
        `
        if (inquiry.rental) await insertRentalRequest(tx, row!.id, inquiry.rental)
        if (inquiry.service) await insertServiceRequest(tx, row!.id, inquiry.service)
        // Spam waits in the Spam view for nobody; "Not spam" routes it then.
        if (!spam) await queueArrivalAlerts(tx, row!.id, (await routeLead(tx, row!.id, row!.interest))?.id ?? null)
        await queueNotifications(tx, row!.id, notifications)
        return { id: row!.id, createdAt: row!.createdAt.toISOString(), interest: row!.interest }
      })
      if (!spam) options.onQueued?.()
      return receipt
    },

    async byId(id: number): Promise<StoredInquiry | undefined> {
      const [row] = await sql<StoredInquiry[]>`
        select id, first_name, last_name, email, phone, interest, message, source_url, source_label,
               cart_slug, cart_title, cart_price::float8 as cart_price, cart_stock_number, cart_vin,
               cart_year, cart_make, cart_model, created_at
        from contact_inquiries where id = ${id}
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
