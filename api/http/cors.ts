import type { Request, RequestHandler } from 'express'
import { sendError } from './errors.ts'

/**
 * Who may call the API from a browser (docs/CONTRACTS.md, "Origins"):
 * - reads (GET, and tRPC queries) are open to every origin, without cookies;
 * - lead submission (every POST) only from the site's own origin and ALLOWED_ORIGINS. Other
 *   origins get no CORS permission, and a POST that still arrives with a foreign Origin header
 *   is refused outright, so a page cannot slip a lead past the browser's checks.
 */
export function cors(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins)
  const mayPost = (req: Request, origin: string) => allowed.has(origin) || origin === ownOrigin(req)

  return (req, res, next) => {
    const origin = req.get('origin')
    const preflight = req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined
    const wantsPost = req.method === 'POST' || (preflight && req.get('access-control-request-method') === 'POST')

    if (!wantsPost) {
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
    if (origin && mayPost(req, origin)) {
      res.set('Access-Control-Allow-Origin', origin)
      if (preflight) {
        res.set('Access-Control-Allow-Methods', 'POST')
        res.set('Access-Control-Allow-Headers', 'Content-Type')
        res.set('Access-Control-Max-Age', '600')
        return void res.sendStatus(204)
      }
      return next()
    }
    if (preflight) return void res.sendStatus(204)
    // No Origin header: not a browser page (curl, a server); nothing cross-site to guard.
    if (!origin) return next()
    sendError(
      res,
      403,
      `Inquiries from ${origin.slice(0, 200)} are not accepted. Ask the dealer to add this site to ALLOWED_ORIGINS.`,
    )
  }
}

function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host')}`
}
