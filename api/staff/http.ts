import express, { type Request, type Response, type Router } from 'express'
import { sendError } from '../http/errors.ts'
import { requestOriginVerdict } from '../http/origin.ts'
import type { RequestInfo } from '../http/request-info.ts'
import type { Services } from '../services.ts'
import { allowRoute, type ConsoleRefusal, guardedSession, requestPath, type RespondToConsoleRefusal } from './access.ts'
import { isPublicStaffRoute, isSecondStepPage, plainStaffRoutes, routeMatcher, type StaffRoute } from './routes.ts'
import { clearStaffCookie, clearStepCookie, deviceCookie, setDeviceCookie, setStaffCookie, setStepCookie, staffToken, stepCookie } from './cookie.ts'
import { signInMessages } from './sign-in.ts'
import { serviceWorkerSource, webAppManifest, webAppPaths } from './web-app.ts'
import { signInAddress, signInReturn, staffPaths } from '../../domain/staff-paths.ts'
import { secondStepNeeded } from '../../domain/staff-access.ts'

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
    session: guardedSession(res),
    sameOrigin: isSameOrigin(req, siteOrigin),
    clearStaffCookie: () => clearStaffCookie(req, res),
  }
}

export { staffPaths }

/** The browser features the console uses, named so no later policy turns them off by omission. */
export const staffPermissionsPolicy = 'publickey-credentials-create=(self), publickey-credentials-get=(self)'

/** A refused sign-in, for whatever renders the answer (the sign-in page, once it exists). */
export interface SignInRefusal {
  status: 400 | 401 | 403 | 429
  message: string
  username: string
  /** Refused at the second step: the code's form again, not the password's. */
  step?: boolean
  /** The console page to go to once signed in (`signInReturn`), kept through the refusal. */
  next?: string
}

export type RespondToRefusal = (req: Request, res: Response, refusal: SignInRefusal) => void

/** Without the site's pages (the API alone), a refusal is answered in the API's error shape. */
const answerAsJson: RespondToRefusal = (_req, res, refusal) => sendError(res, refusal.status, refusal.message)

/** The answer the site registers once it is mounted (host/server/staff-console.ts), else JSON. */
export function signInRefusalAnswer(registered: () => RespondToRefusal | undefined): RespondToRefusal {
  return (req, res, refusal) => (registered() ?? answerAsJson)(req, res, refusal)
}

/** A console page refused by role (403) or not there (404): the site's page, else JSON. */
export function consoleRefusalAnswer(registered: () => RespondToConsoleRefusal | undefined): RespondToConsoleRefusal {
  return (req, res, refusal: ConsoleRefusal) => (registered() ?? ((_q, r, { status, message }) => sendError(r, status, message)))(req, res, refusal)
}

/**
 * Everything under `/staff` (PRODUCT.md, "The dealer's staff"): the sign-in and sign-out posts,
 * and a guard that sends anyone without a session to the sign-in page (303) before any staff
 * page is reached. Nothing here is cached or indexed.
 */
export function staffRoutes(
  services: Services,
  siteOrigin: string,
  respond: RespondToRefusal = answerAsJson,
  refuse: RespondToConsoleRefusal = consoleRefusalAnswer(() => undefined),
  /** The console pages' routes and rules, as the site declares them (none without the site). */
  consolePages: () => Promise<readonly StaffRoute[]> = () => Promise.resolve([]),
): Router {
  // Every route under /staff, matched by the one matcher: the plain routes' and the pages'.
  let table: Promise<ReturnType<typeof routeMatcher<StaffRoute>>> | undefined
  const staffTable = () =>
    (table ??= consolePages().then(
      (pages) => routeMatcher([...plainStaffRoutes, ...pages]),
      (error: unknown) => {
        table = undefined
        throw error
      },
    ))
  const routes = express.Router()
  const form = express.urlencoded({ extended: false, limit: '10kb', parameterLimit: 10 })

  routes.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store')
    res.set('X-Robots-Tag', 'noindex, nofollow')
    // Passkeys (issue #29) on the console's own pages, never in a frame of another site's.
    res.set('Permissions-Policy', staffPermissionsPolicy)
    next()
  })

  // The installable app's manifest and service worker: fetched by browsers without the cookie.
  routes.get(webAppPaths.manifest.replace('/staff', ''), (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('application/manifest+json').send(webAppManifest())
  })
  routes.get(webAppPaths.serviceWorker.replace('/staff', ''), (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('text/javascript').send(serviceWorkerSource)
  })

  routes.post('/login', form, async (req, res, next) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>
      const username = typeof body.username === 'string' ? body.username : ''
      const password = typeof body.password === 'string' ? body.password : ''
      // The page asked for before signing in (an alert's link), if it is a console page.
      const next = signInReturn(body.next)
      // A sign-in posted from another site would sign the visitor into the attacker's account.
      if (!isSameOrigin(req, siteOrigin)) {
        return respond(req, res, { status: 403, message: 'Sign in from the site itself.', username, next })
      }
      // The second step (issue #29): a code, or a passkey's answer, with the cookie a right password set.
      if (typeof body.code === 'string' || typeof body.passkey === 'string') {
        const stepToken = stepCookie(req)
        const passkey = typeof body.passkey === 'string' ? body.passkey : undefined
        const code = typeof body.code === 'string' ? body.code.trim() : ''
        if (!passkey && !code) return respond(req, res, { status: 400, message: signInMessages.missingCode, username: '', step: true, next })
        const wrong = passkey ? signInMessages.wrongPasskey : signInMessages.wrongCode
        const outcome = await services.staff.signIn.secondStep({
          stepToken: stepToken ?? '',
          ...(passkey ? { passkey } : { code }),
          address: req.ip ?? 'unknown',
          userAgent: req.get('user-agent'),
          previousToken: staffToken(req),
          deviceCookie: deviceCookie(req),
        })
        if (outcome.ok) {
          clearStepCookie(req, res)
          setStaffCookie(req, res, outcome.token)
          setDeviceCookie(req, res, outcome.deviceCookie)
          return res.redirect(303, next ?? staffPaths.console)
        }
        if (outcome.reason === 'expired') {
          clearStepCookie(req, res)
          return respond(req, res, { status: 401, message: signInMessages.expired, username: '', next })
        }
        if (outcome.reason === 'limited') {
          res.set('Retry-After', String(outcome.retryAfterSeconds))
          return respond(req, res, { status: 429, message: signInMessages.limited(outcome.retryAfterSeconds), username: '', step: true, next })
        }
        return respond(req, res, { status: outcome.reason === 'malformed' ? 400 : 401, message: wrong, username: '', step: true, next })
      }
      if (!username.trim() || !password) return respond(req, res, { status: 400, message: signInMessages.missing, username, next })
      const outcome = await services.staff.signIn.signIn({
        username,
        password,
        address: req.ip ?? 'unknown',
        userAgent: req.get('user-agent'),
        previousToken: staffToken(req),
        deviceCookie: deviceCookie(req),
      })
      if (outcome.ok) {
        setStaffCookie(req, res, outcome.token)
        setDeviceCookie(req, res, outcome.deviceCookie)
        return res.redirect(303, next ?? staffPaths.console)
      }
      if (outcome.reason === 'second-step') {
        setStepCookie(req, res, outcome.stepToken)
        return res.redirect(303, signInAddress(next, true))
      }
      if (outcome.reason === 'malformed') return respond(req, res, { status: 400, message: signInMessages.invalid, username, next })
      if (outcome.reason === 'limited') {
        res.set('Retry-After', String(outcome.retryAfterSeconds))
        return respond(req, res, { status: 429, message: signInMessages.limited(outcome.retryAfterSeconds), username, next })
      }
      respond(req, res, { status: 401, message: signInMessages.invalid, username, next })
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

  // Every other request under /staff, page or post, needs a session, and a role that its rule in
  // domain/staff-access.ts allows.
  routes.use(async (req, res, next) => {
    try {
      const session = await services.staff.sessions.resolve(staffToken(req))
      const signInPage = req.path === '/login' && (req.method === 'GET' || req.method === 'HEAD')
      if (signInPage) return session ? res.redirect(303, signInReturn(req.query.next) ?? staffPaths.console) : next()
      // Setting a password through an emailed link needs no session (the site's pages answer it).
      if (isPublicStaffRoute(req.method, requestPath(req))) return next()
      // A page asked for signed out (an alert's link) is where sign-in leads back to.
      if (!session) return res.redirect(303, signInAddress(req.method === 'GET' ? signInReturn(req.originalUrl) : undefined))
      if (session.secondStepMissing && !isSecondStepPage(req.method, requestPath(req))) {
        return res.redirect(303, `${secondStepNeeded.page}?needed=second-step#section-second-step`)
      }
      const refusal = allowRoute(req, res, session, await staffTable())
      if (refusal) return refuse(req, res, { ...refusal, session })
      next()
    } catch (error) {
      next(error)
    }
  })
  return routes
}
