import type { RequestHandler } from 'express'
import { readsStaffSession } from '../staff/cookie.ts'
import { OriginRefusedError, requestOriginVerdict } from './origin.ts'

/**
 * Who may call the API from a browser (docs/CONTRACTS.md, "Origins"):
 * - reads (GET, and tRPC queries) are open to every origin, without cookies, but for staff
 *   answers (`/api/staff`, `staff.*` procedures), which carry no CORS permission at all;
 * - writes (every POST) only as the one origin rule says (api/http/origin.ts): the site's own
 *   origin and ALLOWED_ORIGINS. Those get CORS permission; a POST the rule refuses is answered
 *   403 before it reaches a procedure, so a page cannot slip a lead past the browser's checks,
 *   not even a "simple" cross-site request that needs no preflight.
 */
export function cors(allowedOrigins: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin')
    const preflight = req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined
    const wantsPost = req.method === 'POST' || (preflight && req.get('access-control-request-method') === 'POST')

    if (!wantsPost) {
      // A staff answer is for the console on this site only: no cross-origin reads of it at all.
      if (readsStaffSession(req)) return preflight ? void res.sendStatus(204) : next()
      res.set('Access-Control-Allow-Origin', '*')
      res.set('Access-Control-Expose-Headers', 'X-Total-Count')
      if (preflight) {
        res.set('Access-Control-Allow-Methods', 'GET, HEAD')
        res.set('Access-Control-Allow-Headers', 'Content-Type')
        res.set('Access-Control-Max-Age', '86400')
        return void res.sendStatus(204)
      }
      return next()
    }

    res.vary('Origin')
    const verdict = requestOriginVerdict(req, allowedOrigins)
    if (verdict.allowed) {
      if (origin) res.set('Access-Control-Allow-Origin', origin)
      if (preflight) {
        if (origin) {
          res.set('Access-Control-Allow-Methods', 'POST')
          res.set('Access-Control-Allow-Headers', 'Content-Type')
          res.set('Access-Control-Max-Age', '600')
        }
        return void res.sendStatus(204)
      }
      return next()
    }
    // A refused preflight gets no permission; the browser stops there.
    if (preflight) return void res.sendStatus(204)
    // Answered by the error boundary; the sentence tells a partner what to ask the dealer for.
    next(
      new OriginRefusedError({
        ...verdict,
        message: `Inquiries from ${verdict.origin} are not accepted. Ask the dealer to add this site to ALLOWED_ORIGINS.`,
      }),
    )
  }
}
