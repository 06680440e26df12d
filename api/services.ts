import { createWatchStore } from './alerts/watch-store.ts'
import { createCartStore } from './carts/cart-store.ts'
import { type Changes, createChanges } from './db/changes.ts'
import { createWriteRefusals } from './db/write-refusals.ts'
import { type Deadlines, productionDeadlines } from './db/unavailable.ts'
import { defaultSoldVisibleDays } from '../domain/cart-facts.ts'
import type { Sql } from './db/database.ts'
import { createInquiryStore, type InquiryStoreOptions } from './inquiries/inquiry-store.ts'
import { createPhotoStore } from './photos/photo-store.ts'
import { createRentalStore } from './rentals/rental-store.ts'
import { createLeadRateLimit, type RateLimitSettings } from './inquiries/rate-limit.ts'
import { createStaffServices } from './staff/services.ts'
import type { SignInPolicy } from './staff/sign-in.ts'
import type { PhotoSourcePolicy } from './carts/photo-sources.ts'
import type { AccountMail } from './users/account-links.ts'
import { createTextInbox } from './texts/text-inbox.ts'
import { createDepositStore } from './deposits/deposit-store.ts'
import { createRentalDeposits } from './deposits/rental-deposits.ts'
import { createStaffDeposits } from './deposits/staff-deposits.ts'
import type { Payments } from './deposits/stripe.ts'
import { createAppointmentStore } from './appointments/appointment-store.ts'
import { createStaffAppointments } from './appointments/staff-appointments.ts'
import { defaultSlotRules, type SlotRules } from '../domain/appointments.ts'

export interface ServiceOptions {
  /** How long a sold cart's page says Sold before it answers 410 (SOLD_VISIBLE_DAYS). */
  soldVisibleDays?: number
  signInPolicy?: SignInPolicy
  /** Where an inventory import may take photos from (SITE_URL and IMPORT_PHOTO_HOSTS). */
  photoPolicy?: PhotoSourcePolicy
  /** How password reset and invitation links are emailed (api/users/account-links.ts). */
  accountMail?: AccountMail
  /** Where writes say that visitors' answers changed (api/db/changes.ts); a fresh one by default. */
  changes?: Changes
  /**
   * Keep the listed carts in memory between searches while changes are heard
   * (api/carts/listed-carts.ts); off with `CACHE_MB=0`, where nothing is kept for visitors.
   */
  keepListedCarts?: boolean
  /** How long procedures wait on the database before answering 503 (api/db/unavailable.ts). */
  deadlines?: Deadlines
  /** The push services staff alerts may be sent to (PUSH_SERVICE_HOSTS); the browsers' own by default. */
  pushServiceHosts?: readonly string[]
  /** The dealer's Twilio number, when texting is configured (TWILIO_FROM). */
  textFrom?: string
  /** The clock replies read texting hours and first responses from (tests stand at 22:30), and holds their start. */
  clock?: () => Date
  /** Deposits (PRODUCT.md, "deposits"): Stripe when configured, the amounts, and the site they come back to. */
  deposits?: DepositSettings
  /** Appointment slots' length and capacity (APPOINTMENT_MINUTES, APPOINTMENT_CAPACITY). */
  appointments?: SlotRules
}

export interface DepositSettings {
  /** Undefined without Stripe's settings: no deposits anywhere. */
  payments?: Payments
  /** The webhook secret, which also signs renters' deposit links. */
  linkSecret?: string
  siteUrl: string
  amountCents: number
  holdDays: number
  rentalAmountCents: number
}

/** Without settings (tests of other things): no Stripe, the contract's defaults. */
const noDeposits: DepositSettings = { siteUrl: 'http://localhost:3000', amountCents: 50_000, holdDays: 7, rentalAmountCents: 10_000 }

/**
 * The stores and services the API runs on, built once per process: no request, no HTTP, so tests
 * call procedures through `createCaller` with them and plain HTTP code uses them without tRPC.
 */
export function createServices(
  sql: Sql,
  leads?: InquiryStoreOptions,
  leadRateLimit?: RateLimitSettings,
  options: ServiceOptions = {},
) {
  const changes = options.changes ?? createChanges()
  const store = createCartStore(sql, options.keepListedCarts === false ? undefined : changes)
  const deposits = options.deposits ?? noDeposits
  // A hold is a write to golf_carts: this process's visitors' answers change at once, the others' by the trigger's notice.
  const depositWrites = { onQueued: () => leads?.onQueued?.(), onCartChange: () => changes.notify('golf_carts') }
  return {
    carts: {
      ...store,
      /** The database tells every process too; this process, at once, before answering. */
      async add(cart: Parameters<typeof store.add>[0]) {
        const added = await store.add(cart)
        changes.notify('golf_carts')
        return added
      },
    },
    changes,
    inquiries: createInquiryStore(sql, leads),
    leadRateLimit: createLeadRateLimit(sql, leadRateLimit),
    /** Shoppers watching a cart or a search (api/alerts/); their requests count like leads, apart. */
    watches: createWatchStore(sql, { onQueued: () => leads?.onQueued?.(), pushServiceHosts: options.pushServiceHosts }),
    alertRateLimit: createLeadRateLimit(sql, leadRateLimit, 'alert'),
    /** The rental fleet, its calendar and the public quote (api/rentals/). */
    rentals: createRentalStore(sql, changes),
    soldVisibleDays: options.soldVisibleDays ?? defaultSoldVisibleDays,
    deadlines: options.deadlines ?? productionDeadlines,
    staff: createStaffServices(sql, changes, options.signInPolicy, options.photoPolicy, leads, options.accountMail, options.pushServiceHosts, {
      textFrom: options.textFrom,
      clock: options.clock,
      wakeOutbox: () => leads?.onQueued?.(),
    }),
    /** Texts the shoppers send, and Twilio's word on those we sent (api/texts/). */
    texts: createTextInbox(sql, { onQueued: () => leads?.onQueued?.() }),
    /** Deposits: Checkout for shoppers, and what Stripe's events do (api/deposits/). */
    deposits: createDepositStore(sql, { ...deposits, ...depositWrites, notifications: leads?.notifications ?? [], clock: options.clock }),
    /** Bookings of test drives and service drop-offs, and their signed links (api/appointments/). */
    appointments: createAppointmentStore(sql, {
      rules: options.appointments ?? defaultSlotRules,
      notifications: leads?.notifications ?? [],
      onQueued: () => leads?.onQueued?.(),
      clock: options.clock,
    }),
    /** `/staff/appointments`: bookings by day and week, showed and no-show, the dashboard's figures. */
    staffAppointments: createStaffAppointments(sql, { clock: options.clock }),
    /** Renters' deposit links and what they open. */
    rentalDeposits: createRentalDeposits(sql, { ...deposits, secret: deposits.linkSecret, amountCents: deposits.rentalAmountCents, ...depositWrites }),
    /** `/staff/deposits`: the list, refunds, sales. */
    staffDeposits: createStaffDeposits(sql, { ...depositWrites, configured: deposits.payments !== undefined }),
    /** Cart photos: the console's writes, and the files every process serves (api/photos/). */
    photos: createPhotoStore(sql, () => changes.notify('cart_photos')),
    /** Writes the database refused lately (a full disk): what `/readyz` explains (api/http/health.ts). */
    writeRefusals: createWriteRefusals(),
  }
}

export type Services = ReturnType<typeof createServices>

