import type { OriginStatus } from '../http/origin.ts'
import { createCartStore } from '../carts/cart-store.ts'
import { announceChange, type Changes, createChanges } from '../db/changes.ts'
import { defaultSoldVisibleDays } from '../../domain/cart-facts.ts'
import type { Sql } from '../db/database.ts'
import { createInquiryStore, type InquiryStoreOptions } from '../inquiries/inquiry-store.ts'
import { createPhotoStore } from '../photos/photo-store.ts'
import { createLeadRateLimit, type RateLimitSettings } from '../inquiries/rate-limit.ts'
import { createStaffServices } from '../staff/services.ts'
import type { SignInPolicy } from '../staff/sign-in.ts'
import type { PhotoSourcePolicy } from '../carts/photo-sources.ts'

/** What a request knows about where it came from; empty when a procedure is called directly. */
export interface RequestInfo {
  /** The page that sent the request, from the Referer header. */
  referer?: string
  /** The client's address as TRUST_PROXY allows reading it (Express's `req.ip`): the rate limit's key. */
  clientAddress?: string
  /** The staff session token from the request's cookie. */
  staffToken?: string
  /**
   * True only when the request is known to come from the site's own pages (api/http/origin.ts).
   * Staff writes require it; a caller without HTTP that means to write says so explicitly.
   */
  sameOrigin?: boolean
  /** Ends the browser's staff cookie, for signing out. */
  clearStaffCookie?(): void
  /** Whether that page may send leads, and its origin (api/http/origin.ts, `originStatus`). */
  leadOrigin?: OriginStatus
}

export interface ServiceOptions {
  /** How long a sold cart's page says Sold before it answers 410 (SOLD_VISIBLE_DAYS). */
  soldVisibleDays?: number
  signInPolicy?: SignInPolicy
  /** Where an inventory import may take photos from (SITE_URL and IMPORT_PHOTO_HOSTS). */
  photoPolicy?: PhotoSourcePolicy
  /** Where writes say that visitors' answers changed (api/db/changes.ts); a fresh one by default. */
  changes?: Changes
}

/** The part of the context that needs no request, so tests can call procedures with no HTTP. */
export function createServices(
  sql: Sql,
  leads?: InquiryStoreOptions,
  leadRateLimit?: RateLimitSettings,
  options: ServiceOptions = {},
) {
  const changes = options.changes ?? createChanges()
  const store = createCartStore(sql)
  return {
    carts: {
      ...store,
      /** The database tells every process too; this process, at once, before answering. */
      async add(cart: Parameters<typeof store.add>[0]) {
        const added = await store.add(cart)
        changes.notify()
        return added
      },
    },
    changes,
    inquiries: createInquiryStore(sql, leads),
    leadRateLimit: createLeadRateLimit(sql, leadRateLimit),
    soldVisibleDays: options.soldVisibleDays ?? defaultSoldVisibleDays,
    staff: createStaffServices(sql, changes, options.signInPolicy, options.photoPolicy, () => leads?.onQueued?.()),
    /** Cart photos: the console's writes, and the files every process serves (api/photos/). */
    photos: createPhotoStore(sql, () => announceChange(sql, changes, 'cart_photos')),
  }
}

export type Services = ReturnType<typeof createServices>

export interface Context extends Services {
  request: RequestInfo
}

export function createContextInner(services: Services, request: RequestInfo = {}): Context {
  return { ...services, request }
}
