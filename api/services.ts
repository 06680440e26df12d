import { createCartStore } from './carts/cart-store.ts'
import { announceChange, type Changes, createChanges } from './db/changes.ts'
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
}

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
    /** The rental fleet, its calendar and the public quote (api/rentals/). */
    rentals: createRentalStore(sql, changes),
    soldVisibleDays: options.soldVisibleDays ?? defaultSoldVisibleDays,
    deadlines: options.deadlines ?? productionDeadlines,
    staff: createStaffServices(sql, changes, options.signInPolicy, options.photoPolicy, leads, options.accountMail),
    /** Cart photos: the console's writes, and the files every process serves (api/photos/). */
    photos: createPhotoStore(sql, () => announceChange(sql, changes, 'cart_photos')),
    /** Writes the database refused lately (a full disk): what `/readyz` explains (api/http/health.ts). */
    writeRefusals: createWriteRefusals(),
  }
}

export type Services = ReturnType<typeof createServices>

