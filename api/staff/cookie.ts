import type { Request, RequestHandler, Response } from 'express'
import { sendError } from '../http/errors.ts'
import { deviceCookieRules } from './devices.ts'
import { sessionPolicy } from './sessions.ts'

/**
 * The staff session cookie: HttpOnly (no script can read it), SameSite=Strict (no other site's
 * page or link sends it), Path=/ (the console and the API). Over HTTPS it is Secure and takes the
 * `__Host-` prefix, which browsers accept only from a secure origin, without a Domain, for `/`:
 * no subdomain or plain-HTTP page can set or overwrite it.
 */
const cookieName = (secure: boolean) => (secure ? '__Host-gc_staff' : 'gc_staff')

/** Every value the request carries under the session cookie's name. */
function staffCookies(req: Request): string[] {
  const name = cookieName(req.secure)
  const values: string[] = []
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) values.push(value.join('='))
  }
  return values
}

/**
 * The session's token. More than one session cookie is ambiguous (cookie tossing, issue #26:
 * over plain HTTP another port on the same host can set a `gc_staff` for `/staff` that the browser
 * sends first), so none is picked: `refuseAmbiguousSession` answers such a request 400 before
 * any route reads the token, and this reads it as no session should one ever get past.
 */
export function staffToken(req: Request): string | undefined {
  const values = staffCookies(req)
  return values.length === 1 ? values[0] || undefined : undefined
}

export const ambiguousSessionMessage =
  'This browser sent more than one staff session cookie, so we cannot tell which is yours: another site on this host may have set one. ' +
  'Clear the cookies of this site and sign in again. The console must be served over HTTPS, where this cannot happen.'

/**
 * A request for the console, the staff API or a staff procedure: the requests that read the
 * session cookie. Public tRPC calls, pages and photos never do.
 */
export function readsStaffSession(req: Request): boolean {
  const path = req.originalUrl.split('?')[0] ?? ''
  if (/^\/(staff|api\/staff)(\/|$)/.test(path)) return true
  return path.startsWith('/trpc') && decodedPath(path).includes('staff.')
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

/** Refuses (400, a sentence, never stored) a request that reads the session and carries two session cookies: the sign-in page too, since the browser would send both again. */
export const refuseAmbiguousSession: RequestHandler = (req, res, next) => {
  if (staffCookies(req).length <= 1 || !readsStaffSession(req)) return next()
  res.set('Cache-Control', 'no-store')
  // A console page opened in the browser reads the sentence as a page; every other call as JSON.
  if (req.path.startsWith('/staff') && req.accepts(['json', 'html']) === 'html') {
    return void res.status(400).type('html').send(`<!doctype html><html lang="en"><meta charset="utf-8"><title>Sign in again</title><h1>Sign in again</h1><p>${ambiguousSessionMessage}</p></html>`)
  }
  sendError(res, 400, ambiguousSessionMessage)
}

export function setStaffCookie(req: Request, res: Response, token: string): void {
  res.cookie(cookieName(req.secure), token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.secure,
    path: '/',
    maxAge: sessionPolicy.absoluteMs,
  })
}

export function clearStaffCookie(req: Request, res: Response): void {
  res.clearCookie(cookieName(req.secure), { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/' })
}

/**
 * The second step's cookie (issue #29): a right password's token, for 5 minutes, on the same
 * terms as the session's. It signs nobody in; only a right code with it does.
 */
const stepCookieName = (secure: boolean) => (secure ? '__Host-gc_staff_step' : 'gc_staff_step')

export function stepCookie(req: Request): string | undefined {
  const name = stepCookieName(req.secure)
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=') || undefined
  }
  return undefined
}

export function setStepCookie(req: Request, res: Response, token: string): void {
  res.cookie(stepCookieName(req.secure), token, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/', maxAge: 5 * 60_000 })
}

export function clearStepCookie(req: Request, res: Response): void {
  res.clearCookie(stepCookieName(req.secure), { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/' })
}

/**
 * The device cookie (./devices.ts, issue #29): which accounts signed in on this browser, signed
 * by the server. Long-lived, on the same terms as the session's otherwise; it signs nobody in, it
 * only keeps strangers' failures from slowing or locking this browser's sign-in.
 */
const deviceCookieName = (secure: boolean) => (secure ? '__Host-gc_staff_device' : 'gc_staff_device')

export function deviceCookie(req: Request): string | undefined {
  const name = deviceCookieName(req.secure)
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=') || undefined
  }
  return undefined
}

export function setDeviceCookie(req: Request, res: Response, value: string): void {
  // Its characters (base64url, `.` and `~`) need no encoding.
  res.cookie(deviceCookieName(req.secure), value, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.secure,
    path: '/',
    maxAge: deviceCookieRules.maxAgeMs,
    encode: (v) => v,
  })
}
