import express, { type Express, type Request, type Response } from 'express'
import { TRPCError } from '@trpc/server'
import type { SiteContext } from '../../api/server.ts'
import { createContextInner } from '../../api/trpc/context.ts'
import { fieldIssues } from '../../api/trpc/init.ts'
import { createCaller } from '../../api/trpc/router.ts'
import type { Field } from '../../widgets/contact-form/contact-form.tsx'
import type { PostedForm } from '../form-state.ts'
import { paths } from '../paths.ts'

const fields: Field[] = ['firstName', 'lastName', 'email', 'phone', 'message']

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
  app.post(paths.contact, context.leadRateLimit, parse, async (req, res, next) => {
    const body = (req.body ?? {}) as Record<string, unknown>
    const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined)
    const values = Object.fromEntries(fields.map((f) => [f, text(f) ?? ''])) as PostedForm['values']
    const cartSlug = text('cartSlug') || undefined
    const back = cartSlug ? `${paths.contact}?cart=${encodeURIComponent(cartSlug)}` : paths.contact
    try {
      const caller = createCaller(createContextInner(context.services, { referer: req.get('referer') }))
      // Whatever the post holds goes to the procedure, whose schema judges it.
      await caller.inquiry.submit({
        ...values,
        interest: text('interest') ?? '',
        cartSlug,
        website: text('website'),
        sourceLabel: text('sourceLabel') || 'dealer-site',
      } as Parameters<typeof caller.inquiry.submit>[0])
      res.redirect(303, `${back}${back.includes('?') ? '&' : '?'}sent=1`)
    } catch (error) {
      if (!(error instanceof TRPCError)) return next(error)
      const issues = fieldIssues(error.cause)
      const form: PostedForm = {
        values,
        interest: text('interest'),
        errors: Object.fromEntries(issues.map((i) => [i.path, i.message])),
        message: issues.length > 0 ? undefined : error.message,
      }
      const status = error.code === 'BAD_REQUEST' ? 400 : error.code === 'SERVICE_UNAVAILABLE' ? 503 : 500
      await answer(req, res, back, form, status)
    }
  })
}
