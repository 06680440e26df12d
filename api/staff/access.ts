import type { Request, RequestHandler, Response } from 'express'
import { refusalMessage, roleAllows, secondStepNeeded } from '../../domain/staff-access.ts'
import { sendError } from '../http/errors.ts'
import type { Services } from '../services.ts'
import { staffMessages } from '../trpc/staff-procedure.ts'
import { staffToken } from './cookie.ts'
import type { ResolvedSession } from './sessions.ts'
import { type Matched, plainRoute, type RouteMatcher, type StaffRoute } from './routes.ts'

/** A console request the role check refused: a sentence, never a hidden button alone. */
export interface ConsoleRefusal {
  status: 403 | 404
  message: string
  session: ResolvedSession
}

export type RespondToConsoleRefusal = (req: Request, res: Response, refusal: ConsoleRefusal) => void

export const accessMessages = {
  nothingHere: 'Nothing is at this address in the console.',
}

/**
 * Whether a signed-in person may make this request under `/staff` or `/api/staff`: the route the
 * one matcher finds (api/staff/routes.ts) and its rule, or a refusal. An address with no rule is
 * not there (404) for anyone, so a page added without a decision is never open to every role.
 */
export function routeRefusal(
  session: ResolvedSession,
  found: Matched<StaffRoute> | undefined,
): Omit<ConsoleRefusal, 'session'> | undefined {
  if (!found) return { status: 404, message: accessMessages.nothingHere }
  const { rule } = found.route
  if (!roleAllows(session.user.role, rule[0])) return { status: 403, message: refusalMessage(rule, session.user.role) }
  return undefined
}

/** The route the guard matched for this request (and its parameters), so nothing matches it again. */
export function guardedRoute(res: Response): Matched<StaffRoute> | undefined {
  return res.locals.staffRoute as Matched<StaffRoute> | undefined
}

/** The path of a request, without its query. */
export const requestPath = (req: Request) => req.originalUrl.split('?')[0] ?? ''

/** Checks a request against `routes`; allowed, it carries its session and its route on to what answers it. */
export function allowRoute(
  req: Request,
  res: Response,
  session: ResolvedSession,
  routes: RouteMatcher<StaffRoute>,
): Omit<ConsoleRefusal, 'session'> | undefined {
  const found = routes(req.method, requestPath(req))
  const refusal = routeRefusal(session, found)
  if (refusal) return refusal
  res.locals.staffSession = session
  res.locals.staffRoute = found
  return undefined
}

/**
 * The session the guard in front of this request resolved (api/staff/http.ts for `/staff`,
 * `staffApiAccess` for `/api/staff`), so the request never resolves it again.
 */
export function guardedSession(res: Response): ResolvedSession | undefined {
  return res.locals.staffSession as ResolvedSession | undefined
}

/**
 * Every route under `/api/staff` (photo uploads, the inventory spreadsheet): no session, 401 JSON;
 * no rule or the wrong role, 404 or 403 JSON. The routes check the origin of writes themselves.
 */
export function staffApiAccess(services: Services): RequestHandler {
  return async (req, res, next) => {
    try {
      const session = await services.staff.sessions.resolve(staffToken(req))
      if (!session) return refuse(req, res, 401, staffMessages.signIn)
      if (session.secondStepMissing) return refuse(req, res, 403, secondStepNeeded.message)
      const refusal = allowRoute(req, res, session, plainRoute)
      const allow = refusal?.status === 404 ? allowedMethods(requestPath(req)) : []
      if (allow.length > 0) {
        res.set('Allow', allow.join(', '))
        return refuse(req, res, 405, `${req.method.slice(0, 20)} is not supported here`)
      }
      if (refusal) return refuse(req, res, refusal.status, refusal.message)
      next()
    } catch (error) {
      next(error)
    }
  }
}

/** The methods the role table lists for an address: a wrong method there is 405, not 404. */
function allowedMethods(path: string): string[] {
  return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => plainRoute(method, path))
}

/** A refusal in the one error shape; a body not read yet (an upload) is not waited for. */
function refuse(req: Request, res: Response, status: number, message: string): void {
  if (!req.complete) res.set('Connection', 'close')
  res.set('Cache-Control', 'no-store')
  sendError(res, status, message)
}
