import express, { type Request, type Response, type Router } from 'express'
import { sendError } from '../http/errors.ts'
import { requestOriginVerdict } from '../http/origin.ts'
import type { RequestInfo, Services } from '../trpc/context.ts'
import { clearStaffCookie, setStaffCookie, staffToken } from './cookie.ts'
import { signInMessages } from './sign-in.ts'
import { staffPaths } from '../../domain/staff-paths.ts'

/**
 * Staff writes come only from the site's own pages: the one origin rule (api/http/origin.ts) with
 * the site's own origin alone, never ALLOWED_ORIGINS: partners may send leads, not console changes.
 */
export function isSameOrigin(req: Request, siteOrigin: string): boolean {
  return requestOriginVerdict(req, [siteOrigin]).allowed
}

/** What a staff procedure needs to know about its HTTP request. */
export function staffRequestInfo(req: Request, res: Response, siteOrigin: string): RequestInfo {
  return {
    staffToken: staffToken(req),
    sameOrigin: isSameOrigin(req, siteOrigin),
    clearStaffCookie: () => clearStaffCookie(req, res),
  }
}

export { staffPaths }

/** A refused sign-in, for whatever renders the answer (the sign-in page, once it exists). */
export interface SignInRefusal {
  status: 400 | 401 | 403 | 429
  message: string
  username: string
}

export type RespondToRefusal = (req: Request, res: Response, refusal: SignInRefusal) => void

/** Without the site's pages (the API alone), a refusal is answered in the API's error shape. */
const answerAsJson: RespondToRefusal = (_req, res, refusal) => sendError(res, refusal.status, refusal.message)

/** The answer the site registers once it is mounted (host/server/staff-console.ts), else JSON. */
export function signInRefusalAnswer(registered: () => RespondToRefusal | undefined): RespondToRefusal {
  return (req, res, refusal) => (registered() ?? answerAsJson)(req, res, refusal)
}

/**
 * Everything under `/staff` (PRODUCT.md, "The dealer's staff"): the sign-in and sign-out posts,
 * and a guard that sends anyone without a session to the sign-in page (303) before any staff
 * page is reached. Nothing here is cached or indexed.
 */
export function staffRoutes(services: Services, siteOrigin: string, respond: RespondToRefusal = answerAsJson): Router {
  const routes = express.Router()
  const form = express.urlencoded({ extended: false, limit: '10kb', parameterLimit: 10 })

  routes.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store')
    res.set('X-Robots-Tag', 'noindex, nofollow')
    next()
  })

  routes.post('/login', form, async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>
      const username = typeof body.username === 'string' ? body.username : ''
      const password = typeof body.password === 'string' ? body.password : ''
      // A sign-in posted from another site would sign the visitor into the attacker's account.
      if (!isSameOrigin(req, siteOrigin)) {
        return respond(req, res, { status: 403, message: 'Sign in from the site itself.', username })
      }
      if (!username.trim() || !password) return respond(req, res, { status: 400, message: signInMessages.missing, username })
      const outcome = await services.staff.signIn.signIn({
        username,
        password,
        address: req.ip ?? 'unknown',
        userAgent: req.get('user-agent'),
        previousToken: staffToken(req),
      })
      if (outcome.ok) {
        setStaffCookie(req, res, outcome.token)
        return res.redirect(303, staffPaths.console)
      }
      if (outcome.reason === 'limited') {
        res.set('Retry-After', String(outcome.retryAfterSeconds))
        return respond(req, res, { status: 429, message: signInMessages.limited(outcome.retryAfterSeconds), username })
      }
      respond(req, res, { status: 401, message: signInMessages.invalid, username })
    } catch (error) {
      next(error)
    }
  })

  routes.post('/logout', async (req, res, next) => {
    try {
      if (!isSameOrigin(req, siteOrigin)) return sendError(res, 403, 'Sign out from the site itself.')
      await services.staff.sessions.end(staffToken(req))
      clearStaffCookie(req, res)
      res.redirect(303, staffPaths.login)
    } catch (error) {
      next(error)
    }
  })

  // Every other request under /staff, page or post, needs a session.
  routes.use(async (req, res, next) => {
    try {
      const session = await services.staff.sessions.resolve(staffToken(req))
      const signInPage = req.path === '/login' && (req.method === 'GET' || req.method === 'HEAD')
      if (signInPage) return session ? res.redirect(303, staffPaths.console) : next()
      if (!session) return res.redirect(303, staffPaths.login)
      res.locals.staffSession = session
      next()
    } catch (error) {
      next(error)
    }
  })
  return routes
}
