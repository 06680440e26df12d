import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import type { SiteContext } from '../../api/http/app.ts'
import { maxBodyBytes } from '../../api/http/body-limit.ts'
import { errorAnswer, logFailure } from '../../api/http/errors.ts'
import { OriginRefusedError, requestOriginVerdict } from '../../api/http/origin.ts'
import { requestInfo } from '../../api/http/request-info.ts'
import { createContextInner } from '../../api/trpc/context.ts'
import { createCaller } from '../../api/trpc/router.ts'
import { cartSearchFields } from '../../domain/cart-query.ts'
import { paths, sitePaths } from '../../domain/site-paths.ts'
import type { PostedForm } from '../form-state.ts'

/** Renders the page at `url` and sends it, never kept (host/server/site.ts). */
export type AnswerPage = (req: Request, res: Response, url: string, form?: PostedForm, status?: number) => Promise<void>

/**
 * Price alerts without JavaScript (PRODUCT.md, "watching a cart or a search"):
 *
 * - "Tell me if the price drops" and "Tell me about new carts like these" post to their own page
 *   (a cart's, `/inventory`), with the field `form=watch`; the watch goes through `alert.watch`,
 *   as the API's does (same schema, same rate limit), under the one origin rule. Sent: back to
 *   the page with `watch=sent`; refused: the page again with the address as typed and why.
 * - The confirmation and unsubscribe links' pages: a GET only shows what the link is about, with
 *   a button; the button's POST acts. A mail scanner that fetches links confirms nothing, and a
 *   mail client's one-click unsubscribe (RFC 8058: a POST with `List-Unsubscribe=One-Click`) ends
 *   the watch and is answered 200 with the page, never a redirect. Neither page is kept or indexed,
 *   and neither sends its address (with the token) as a Referer.
 */
export function mountWatchPosts(app: Express, context: SiteContext, answer: AnswerPage) {
  const parse = express.urlencoded({ extended: false, limit: maxBodyBytes, parameterLimit: 50 })
  const caller = (req: Request) => createCaller(createContextInner(context.services, requestInfo(req)))
  const checkOrigin = (req: Request) => {
    const verdict = requestOriginVerdict(req, context.env.allowedOrigins)
    if (!verdict.allowed) throw new OriginRefusedError(verdict)
  }
  const field = (req: Request, name: string) => {
    const value = (req.body as Record<string, unknown> | undefined)?.[name]
    return typeof value === 'string' ? value : undefined
  }
  /** The watch's subject as posted: the cart's id, or the search's fields, each read by the procedure's schema. */
  const subject = (req: Request) => {
    const cartId = field(req, 'cartId')
    if (cartId !== undefined) return { cartId: /^\d{1,9}$/.test(cartId) ? Number(cartId) : Number.NaN }
    return { query: Object.fromEntries(cartSearchFields.filter((f) => f !== 'sort').flatMap((f) => (field(req, f) === undefined ? [] : [[f, field(req, f)]]))) }
  }
  /** The page the form is on (its action): the cart's page or the inventory's search. */
  const pageOf = (req: Request) => req.originalUrl

  const watchPost = [
    parse,
    async (req: Request, res: Response, next: NextFunction) => {
      if (field(req, 'form') !== 'watch') return next()
      try {
        checkOrigin(req)
        await caller(req).alert.watch({ email: field(req, 'email') ?? '', ...subject(req) })
        const page = pageOf(req)
        res.redirect(303, `${page}${page.includes('?') ? '&' : '?'}watch=sent#watch`)
      } catch (error) {
        next(error)
      }
    },
    async (error: unknown, req: Request, res: Response, _next: NextFunction) => {
      const refusal = errorAnswer(error, { mutation: true, method: req.method, path: req.path })
      logFailure(context.log, 'price alert form post failed', refusal)
      if (refusal.retryAfter !== undefined) res.set('Retry-After', String(refusal.retryAfter))
      const errors = Object.fromEntries(refusal.body.issues.map((issue) => [issue.path.split('.')[0]!, issue.message]))
      const message = refusal.body.issues.length > 0 ? undefined : refusal.body.message
      await answer(req, res, pageOf(req), { values: {}, errors: {}, watch: { email: field(req, 'email') ?? '', errors, message } }, refusal.status)
    },
  ]
  app.post(sitePaths.vehicle.replace('{slug}', ':slug'), ...watchPost)
  app.post(paths.inventory, ...watchPost)

  const linkPage = (req: Request, res: Response) => {
    res.set('Cache-Control', 'no-store').set('Referrer-Policy', 'no-referrer').set('X-Robots-Tag', 'noindex')
    return answer(req, res, req.originalUrl)
  }
  const token = (req: Request) => (typeof req.query.token === 'string' ? req.query.token : '')
  app.get([paths.watchConfirm, paths.watchStop], linkPage)

  /** A link's post refused (another site's form, a broken token) or failed: its page again, with the status. */
  const linkRefused = async (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const refusal = errorAnswer(error, { mutation: true, method: req.method, path: req.path })
    logFailure(context.log, 'price alert link post failed', refusal)
    res.status(refusal.status)
    res.set('Cache-Control', 'no-store').set('Referrer-Policy', 'no-referrer').set('X-Robots-Tag', 'noindex')
    await answer(req, res, req.originalUrl, undefined, refusal.status)
  }
  app.post(
    paths.watchConfirm,
    parse,
    async (req: Request, res: Response) => {
      checkOrigin(req)
      await caller(req).alert.confirm({ token: token(req) })
      // Back to the page, which now says the alert is on; reloading it asks nothing again.
      res.redirect(303, req.originalUrl)
    },
    linkRefused,
  )
  app.post(
    paths.watchStop,
    parse,
    async (req: Request, res: Response) => {
      checkOrigin(req)
      const ended = await caller(req).alert.unsubscribe({ token: token(req) })
      res.set('Cache-Control', 'no-store').set('Referrer-Policy', 'no-referrer').set('X-Robots-Tag', 'noindex')
      // 200 with the page, never a redirect (RFC 8058): the link's own page would find nothing now.
      await answer(req, res, req.originalUrl, { values: {}, errors: {}, watchLink: ended }, 200)
    },
    linkRefused,
  )
}
