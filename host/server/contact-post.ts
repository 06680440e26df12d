import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import type { SiteContext } from '../../api/http/app.ts'
import { errorAnswer, logFailure } from '../../api/http/errors.ts'
import { OriginRefusedError, requestOriginVerdict } from '../../api/http/origin.ts'
import { requestInfo } from '../../api/http/request-info.ts'
import { createContextInner } from '../../api/trpc/context.ts'
import { createCaller } from '../../api/trpc/router.ts'
import { visitorFieldNames } from '../../domain/inquiry.ts'
import type { PostedForm } from '../form-state.ts'
import { contactFormAnchor, paths } from '../../domain/site-paths.ts'

/**
 * The contact form without JavaScript (it loads after the page, or may fail to): an ordinary
 * form post, stored through the same procedure as every other lead, so the same rate limit
 * counts it. It obeys the same origin rule as the API (api/http/origin.ts): a form on another
 * site that posts here is refused. Success redirects to a thank-you; any refusal or failure
 * renders the page again with everything as typed, each problem beside its field and the rest
 * in the error boundary's words (api/http/errors.ts), so nothing is lost.
 */
export function mountContactPost(
  app: Express,
  context: SiteContext,
  answer: (req: Request, res: Response, url: string, form: PostedForm, status: number) => Promise<void>,
) {
  const parse = express.urlencoded({ extended: false, limit: '100kb', parameterLimit: 50 })
  app.post(
    paths.contact,
    // Parsed before anything can refuse it, so a refused post still shows what was typed.
    parse,
    async (req: Request, res: Response, next: NextFunction) => {
      const post = readPost(req)
      try {
        const verdict = requestOriginVerdict(req, context.env.allowedOrigins)
        if (!verdict.allowed) throw new OriginRefusedError(verdict)
        const caller = createCaller(createContextInner(context.services, requestInfo(req)))
        // Whatever the post holds goes to the procedure, whose schema judges it.
        await caller.inquiry.submit({
          ...post.values,
          cartSlug: post.cartSlug,
          website: post.text('website'),
          sourceLabel: post.text('sourceLabel') || 'dealer-site',
        } as Parameters<typeof caller.inquiry.submit>[0])
        res.redirect(303, `${post.back}${post.back.includes('?') ? '&' : '?'}sent=1#${contactFormAnchor}`)
      } catch (error) {
        next(error)
      }
    },
    // Refused (schema, rate limit, origin, a body that could not be read) or failed: the page
    // again, with nothing lost. A failure of ours is logged; the visitor gets our sentence.
    async (error: unknown, req: Request, res: Response, _next: NextFunction) => {
      const post = readPost(req)
      const refusal = errorAnswer(error, { mutation: true, method: req.method, path: req.path })
      logFailure(context.log, 'contact form post failed', refusal)
      if (refusal.retryAfter !== undefined) res.set('Retry-After', String(refusal.retryAfter))
      const { issues, message } = refusal.body
      const form: PostedForm = {
        values: post.values,
        errors: Object.fromEntries(issues.map((i) => [i.path, i.message])),
        message: issues.length > 0 ? undefined : message,
      }
      await answer(req, res, post.back, form, refusal.status)
    },
  )
}

function readPost(req: Request) {
  const body = (req.body ?? {}) as Record<string, unknown>
  const text = (name: string) => (typeof body[name] === 'string' ? body[name] : undefined)
  const cartSlug = text('cartSlug') || undefined
  return {
    text,
    cartSlug,
    values: Object.fromEntries(visitorFieldNames.map((f) => [f, text(f) ?? ''])),
    back: paths.quote(cartSlug),
  }
}
