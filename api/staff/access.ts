import type { Request, RequestHandler, Response } from 'express'
import { refusalMessage, roleAllows, routeRule, secondStepNeeded } from '../../domain/staff-access.ts'
import { sendError } from '../http/errors.ts'
import type { Services } from '../services.ts'
import { staffMessages } from '../trpc/staff-procedure.ts'
import { staffToken } from './cookie.ts'
import type { ResolvedSession } from './sessions.ts'

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
 * Whether a signed-in person may make this request under `/staff` or `/api/staff`: its rule in
 * domain/staff-access.ts (`routeAccess`), or a refusal. An address with no rule is not there
 * (404) for anyone, so a page added without a decision is never open to every role.
 */
export function routeRefusal(session: ResolvedSession, method: string, originalUrl: string): Omit<ConsoleRefusal, 'session'> | undefined {
  const path = originalUrl.split('?')[0] ?? ''
  const found = routeRule(method, path)
  if (!found) return { status: 404, message: accessMessages.nothingHere }
  if (!roleAllows(session.user.role, found.rule[0])) return { status: 403, message: refusalMessage(found.rule, session.user.role) }
  return undefined
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
      const refusal = routeRefusal(session, req.method, req.originalUrl)
      const allow = refusal?.status === 404 ? allowedMethods(req.originalUrl) : []
      if (allow.length > 0) {
        res.set('Allow', allow.join(', '))
        return refuse(req, res, 405, `${req.method.slice(0, 20)} is not supported here`)
      }
      if (refusal) return refuse(req, res, refusal.status, refusal.message)
      res.locals.staffSession = session
      next()
    } catch (error) {
      next(error)
    }
  }
}

/** The methods the role table lists for an address: a wrong method there is 405, not 404. */
function allowedMethods(originalUrl: string): string[] {
  const path = originalUrl.split('?')[0] ?? ''
  return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => routeRule(method, path))
}

/** A refusal in the one error shape; a body not read yet (an upload) is not waited for. */
function refuse(req: Request, res: Response, status: number, message: string): void {
  if (!req.complete) res.set('Connection', 'close')
  res.set('Cache-Control', 'no-store')
  sendError(res, status, message)
}
