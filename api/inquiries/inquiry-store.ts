import { type Interest, type InquiryReceipt, spamReason, type ValidInquiry } from '../../domain/inquiry.ts'
import { findCartBySlug } from '../carts/cart-store.ts'
import type { Sql } from '../db/database.ts'

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
}

export interface InquiryStoreOptions {
  /** What to queue for every inquiry, decided by the configuration. */
  notifications: readonly NotificationKind[]
  /** Called after a commit that queued something, to wake the outbox worker. */
  onQueued?(): void
}

const blankToNull = (value: string | undefined) => (value ? value : null)

export function createInquiryStore(sql: Sql, options: InquiryStoreOptions = { notifications: [] }) {
  return {
    /**
     * Stores the inquiry and queues its notifications in one transaction: either both happen
     * or neither does, so a stored lead always gets its emails and an email always has its lead.
     */
    async add(inquiry: ValidInquiry): Promise<InquiryReceipt> {
      const spam = spamReason(inquiry)
      const notifications = spam ? [] : options.notifications
      const receipt = await sql.begin(async (tx) => {
        // Either slug reading; a cart removed since the visitor loaded the page leaves only the slug.
        const cart = inquiry.cartSlug ? await findCartBySlug(tx, inquiry.cartSlug) : undefined
        const [row] = await tx<{ id: number; createdAt: Date; interest: Interest | null }[]>`
          insert into contact_inquiries
            (first_name, last_name, email, phone, interest, message, source_url, source_label,
             cart_slug, golf_cart_id, cart_title, cart_price, cart_stock_number, cart_vin,
             cart_year, cart_make, cart_model, spam_reason)
          values (
            ${inquiry.firstName}, ${inquiry.lastName}, ${inquiry.email}, ${blankToNull(inquiry.phone)},
            ${blankToNull(inquiry.interest)}, ${blankToNull(inquiry.message)},
            ${blankToNull(inquiry.sourceUrl)}, ${blankToNull(inquiry.sourceLabel)},
            ${cart?.slug ?? blankToNull(inquiry.cartSlug)}, ${cart?.id ?? null}, ${cart?.title ?? null},
            ${cart?.price ?? null}, ${cart?.stockNumber ?? null}, ${cart?.vin ?? null},
            ${cart?.year ?? null}, ${cart?.make ?? null}, ${cart?.model ?? null}, ${spam ?? null}
          )
          returning id, created_at, interest
        `
        for (const kind of notifications) {
          await tx`insert into outbox_messages (inquiry_id, kind) values (${row!.id}, ${kind})`
        }
        return { id: row!.id, createdAt: row!.createdAt.toISOString(), interest: row!.interest }
      })
      if (notifications.length > 0) options.onQueued?.()
      return receipt
    },

    async byId(id: number): Promise<StoredInquiry | undefined> {
      const [row] = await sql<StoredInquiry[]>`
        select id, first_name, last_name, email, phone, interest, message, source_url, source_label,
               cart_slug, cart_title, cart_price::float8 as cart_price, cart_stock_number, cart_vin,
               cart_year, cart_make, cart_model, created_at
        from contact_inquiries where id = ${id}
      `
      return row
    },
  }
}

export type InquiryStore = ReturnType<typeof createInquiryStore>
