import type { Request } from 'express'

/**
 * The one origin rule (docs/CONTRACTS.md, "Origins"), for every
 * write a browser page could be tricked into sending: the API's POSTs, the contact form without
 * JavaScript, the staff console's writes.
 *
 * - An `Origin` header decides alone: one of the accepted origins passes, anything else (another
 *   site, `null` from a sandboxed frame or a page that hides its referrer) is refused.
 * - Without `Origin`, `Sec-Fetch-Site: same-origin` or `none` (typed in the address bar, a
 *   bookmark) passes and `cross-site` is refused. `same-site` (a sibling subdomain, which is
 *   another origin) passes only when its `Referer` is from an accepted origin.
 * - With neither header the caller is not a browser (curl, a partner's server): there is no
 *   visitor to trick, so it passes, whatever `Referer` it sends (the API takes that as the
 *   lead's page). The lead rate limit still applies to it. Every browser this site supports
 *   sends `Origin` on a POST, and `Sec-Fetch-Site` besides.
 *
 * The function is pure and has no server dependency, so a browser bundle can ask the same
 * question about its own page.
 */
export interface OriginHeaders {
  origin?: string | null
  secFetchSite?: string | null
  referer?: string | null
}

export type OriginVerdict =
  | { allowed: true }
  | {
      allowed: false
      /** The origin that was refused, as the request named it (at most 200 characters). */
      origin: string
      /** A sentence for the person on the other end. */
      message: string
    }

export function originVerdict(headers: OriginHeaders, accepted: readonly string[]): OriginVerdict {
  const acceptedSet = new Set(accepted.map((o) => normalise(o) ?? o))
  const isAccepted = (value: string) => {
    const origin = normalise(value)
    return origin !== undefined && acceptedSet.has(origin)
  }

  const origin = present(headers.origin)
  if (origin !== undefined) return isAccepted(origin) ? allowed : refused(origin)

  const site = present(headers.secFetchSite)?.toLowerCase()
  if (site === undefined || site === 'same-origin' || site === 'none') return allowed
  const referer = present(headers.referer)
  const named = referer === undefined ? undefined : (normalise(referer) ?? referer)
  if (site === 'cross-site') return refused(named ?? 'another site')
  // `same-site`, or a value no browser sends: the page it came from must be an accepted one.
  if (referer !== undefined && isAccepted(referer)) return allowed
  return refused(named ?? 'another page of this domain')
}

/** The origin this request was addressed to, as the browser saw it (HTTPS per TRUST_PROXY). */
export function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? ''}`
}

/**
 * The rule for an Express request: its headers, judged against `accepted` (ALLOWED_ORIGINS and
 * the site's own origin from SITE_URL, `env.allowedOrigins`) plus the origin the request itself
 * was addressed to.
 */
export function requestOriginVerdict(req: Request, accepted: readonly string[]): OriginVerdict {
  return originVerdict(
    { origin: req.get('origin'), secFetchSite: req.get('sec-fetch-site'), referer: req.get('referer') },
    [ownOrigin(req), ...accepted],
  )
}

/** Whether a page may send leads, as an embedded contact form asks before the visitor types. */
export interface OriginStatus {
  /** The page's origin, when the request named one. */
  origin: string | null
  accepted: boolean
}

/** The rule's answer for a read (`inquiry.originStatus`), with the origin to name to a partner. */
export function originStatus(req: Request, accepted: readonly string[]): OriginStatus {
  const verdict = requestOriginVerdict(req, accepted)
  if (verdict.allowed) return { origin: normalise(req.get('origin') ?? '') ?? null, accepted: true }
  return { origin: normalise(verdict.origin) ?? null, accepted: false }
}

/** A refused origin, as an error the one error boundary (api/http/errors.ts) answers with 403. */
export class OriginRefusedError extends Error {
  override name = 'OriginRefusedError'
  readonly status = 403
  constructor(readonly verdict: Extract<OriginVerdict, { allowed: false }>) {
    super(verdict.message)
  }
}

const allowed: OriginVerdict = { allowed: true }

function refused(origin: string): OriginVerdict {
  const shown = origin.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').slice(0, 200)
  return {
    allowed: false,
    origin: shown,
    message: `Requests from ${shown} are not accepted by this site.`,
  }
}

function present(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed ? trimmed : undefined
}

/** `https://Example.test:443/path` and `https://example.test` are one origin; `null` is none. */
function normalise(value: string): string | undefined {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined
  } catch {
    return undefined
  }
}
