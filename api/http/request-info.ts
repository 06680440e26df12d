import type { Request } from 'express'
import type { ResolvedSession } from '../staff/sessions.ts'
import type { OriginStatus } from './origin.ts'

/** What a request knows about where it came from; empty when a procedure is called directly. */
export interface RequestInfo {
  /** The page that sent the request, from the Referer header. */
  referer?: string
  /** The client's address as TRUST_PROXY allows reading it (Express's `req.ip`): the rate limit's key. */
  clientAddress?: string
  /** The staff session token from the request's cookie. */
  staffToken?: string
  /**
   * The session the request's guard already resolved from that token (api/staff/http.ts,
   * api/staff/access.ts): resolved once per request, the staff procedures use it as it is.
   */
  session?: ResolvedSession
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

/** What a procedure may know about the HTTP request behind it; the same for every door. */
export function requestInfo(req: Request): RequestInfo {
  return { referer: req.get('referer'), clientAddress: req.ip ?? req.socket.remoteAddress }
}
