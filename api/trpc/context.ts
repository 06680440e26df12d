import { cachedCartStore } from '../carts/cart-cache.ts'
import { createCartStore } from '../carts/cart-store.ts'
import type { Sql } from '../db/database.ts'
import { createInquiryStore, type InquiryStoreOptions } from '../inquiries/inquiry-store.ts'
import { createLeadRateLimit, type RateLimitSettings } from '../inquiries/rate-limit.ts'

/** What a request knows about where it came from; empty when a procedure is called directly. */
export interface RequestInfo {
  /** The page that sent the request, from the Referer header. */
  referer?: string
  /** The client's address as TRUST_PROXY allows reading it (Express's `req.ip`): the rate limit's key. */
  clientAddress?: string
}

/** The part of the context that needs no request, so tests can call procedures with no HTTP. */
export function createServices(sql: Sql, leads?: InquiryStoreOptions, cartCacheMs?: number, leadRateLimit?: RateLimitSettings) {
  return {
    carts: cachedCartStore(createCartStore(sql), cartCacheMs),
    inquiries: createInquiryStore(sql, leads),
    leadRateLimit: createLeadRateLimit(sql, leadRateLimit),
  }
}

export type Services = ReturnType<typeof createServices>

export interface Context extends Services {
  request: RequestInfo
}

export function createContextInner(services: Services, request: RequestInfo = {}): Context {
  return { ...services, request }
}
