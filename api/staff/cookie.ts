import type { Request, Response } from 'express'
import { sessionPolicy } from './sessions.ts'

/**
 * The staff session cookie: HttpOnly (no script can read it), SameSite=Strict (no other site's
 * page or link sends it), Path=/ (the console and the API). Over HTTPS it is Secure and takes the
 * `__Host-` prefix, which browsers accept only from a secure origin, without a Domain, for `/`:
 * no subdomain or plain-HTTP page can set or overwrite it.
 */
const cookieName = (secure: boolean) => (secure ? '__Host-gc_staff' : 'gc_staff')

export function staffToken(req: Request): string | undefined {
  const name = cookieName(req.secure)
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=') || undefined
  }
  return undefined
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
