import type { RequestHandler } from 'express'
import helmet from 'helmet'
import { jsonPolicy } from './errors.ts'

/**
 * Headers on every answer (issue #7): no MIME sniffing, a strict referrer policy, no framing by
 * other sites, and HSTS once the site is reached over HTTPS. Pages add their own
 * Content-Security-Policy (host/server/site.ts); API answers forbid everything a browser could
 * do with them as a document.
 *
 * Cross-origin resource policy is "cross-origin": partners' pages load our widget scripts and
 * cart images by design, so "same-origin" (helmet's default) would break every embed.
 */
export function securityHeaders(): RequestHandler[] {
  return [
    helmet({
      contentSecurityPolicy: false,
      strictTransportSecurity: false,
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    }),
    (req, res, next) => {
      if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
      next()
    },
  ]
}

/** JSON answers are data, never a document: nothing may run or be framed if one is opened. */
export const apiPolicy: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', jsonPolicy)
  next()
}
