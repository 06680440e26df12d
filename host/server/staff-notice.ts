import type { Request, Response } from 'express'

/**
 * A console post's notice, said once on the page it redirects to (a flash, issue #46): "Maria's
 * role is changed." rides in a short-lived cookie, not in the address, so a reload, a bookmark or
 * a shared link never says it again, and no page keeps a table of `?done=` words. HttpOnly, this
 * site's pages only; the page that shows it clears it.
 */
const noticeName = (secure: boolean) => (secure ? '__Host-gc_notice' : 'gc_notice')
const options = (req: Request) => ({ httpOnly: true, sameSite: 'strict' as const, secure: req.secure, path: '/' })

/** Leaves `text` for the next console page this browser opens (within a minute). */
export function leaveNotice(req: Request, res: Response, text: string): void {
  // Express encodes the value (encodeURIComponent); read back with decodeURIComponent below.
  res.cookie(noticeName(req.secure), text.slice(0, 300), { ...options(req), maxAge: 60_000 })
}

/** The notice left by the post before this page, cleared as it is read; undefined when none. */
export function takeNotice(req: Request, res: Response): string | undefined {
  const name = noticeName(req.secure)
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key !== name) continue
    res.clearCookie(name, options(req))
    try {
      return decodeURIComponent(value.join('=')).slice(0, 300) || undefined
    } catch {
      return undefined
    }
  }
  return undefined
}
