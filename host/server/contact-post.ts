import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import { TRPCError } from '@trpc/server'
import { getHTTPStatusCodeFromError } from '@trpc/server/http'
import type { SiteContext } from '../../api/http/app.ts'
import { describeError } from '../../api/log.ts'
import { createContextInner } from '../../api/trpc/context.ts'
import { fieldIssues, internalErrorMessage } from '../../api/trpc/init.ts'
import { createCaller } from '../../api/trpc/router.ts'
import { visitorFieldNames } from '../../domain/inquiry.ts'
import type { PostedForm } from '../form-state.ts'
import { contactFormAnchor, paths } from '../../domain/site-paths.ts'

/**
 * The contact form without JavaScript (it loads after the page, or may fail to): an ordinary
 * form post, stored through the same procedure as every other lead. Success redirects to a
 * thank-you; a problem renders the page again with everything as typed and each problem beside
 * its field, so nothing is lost. The rate limit in front of it is the one the API uses.
 */
export function mountContactPost(
  app: Express,
  context: SiteContext,
  answer: (req: Request, res: Response, url: string, form: PostedForm, status: number) => Promise<void>,
) {
  const parse = express.urlencoded({ extended: false, limit: '100kb', parameterLimit: 50 })
  // Parsed before the rate limit, so a refused post still shows the visitor what they typed.
  app.post(
    paths.contact,
    parse,
    context.leadRateLimit,
    async (req: Request, res: Response, next: NextFunction) => {
      const post = readPost(req)
      try {
        const caller = createCaller(createContextInner(context.services, { referer: req.get('referer') }))
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
    // Refused by the procedure or by the rate limit: the page again, with nothing lost.
    async (error: unknown, req: Request, res: Response, next: NextFunction) => {
      if (!(error instanceof TRPCError)) return next(error)
      const post = readPost(req)
      const issues = fieldIssues(error.cause)
      const status = getHTTPStatusCodeFromError(error)
      // An unexpected failure is logged like any other; the visitor gets our sentence, never its text.
      if (status === 500) context.log.error('contact form post failed', { error: describeError(error.cause ?? error) })
      const form: PostedForm = {
        values: post.values,
        errors: Object.fromEntries(issues.map((i) => [i.path, i.message])),
        message: issues.length > 0 ? undefined : status === 500 ? internalErrorMessage : error.message,
      }
      await answer(req, res, post.back, form, status)
    },
  )
}

function readPost(req: Request) {
  const body = (req.body ?? {}) as Record<string, unknown>
  const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined)
  const cartSlug = text('cartSlug') || undefined
  return {
    text,
    cartSlug,
    values: Object.fromEntries(visitorFieldNames.map((f) => [f, text(f) ?? ''])),
    back: paths.quote(cartSlug),
  }
}
