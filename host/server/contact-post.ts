import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import type { SiteContext } from '../../api/http/app.ts'
import { maxBodyBytes } from '../../api/http/body-limit.ts'
import { errorAnswer, logFailure } from '../../api/http/errors.ts'
import { OriginRefusedError, requestOriginVerdict } from '../../api/http/origin.ts'
import { requestInfo } from '../../api/http/request-info.ts'
import { createContextInner } from '../../api/trpc/context.ts'
import { createCaller } from '../../api/trpc/router.ts'
import { countyByValue } from '../../domain/counties.ts'
import { inquiryLimits, visitorFieldNames } from '../../domain/inquiry.ts'
import { rentalLeadInput, rentalRequestFieldNames } from '../../domain/rental-request.ts'
import { serviceLeadInput, serviceRequestFieldNames } from '../../domain/service-request.ts'
import { type PostedForm, refusalOnForm } from '../form-state.ts'
import type { AppointmentInput } from '../../domain/appointments.ts'
import { showroomByKey } from '../../domain/business.ts'
import { bookedAddress, bookingFields, refusedBookingAddress, typedBooking } from './appointment-posts.ts'
import { contactFormAnchor, paths, requestFormAnchor } from '../../domain/site-paths.ts'

/**
 * A lead form posted without JavaScript (the contact form, the rental request and the service
 * request: PRODUCT.md): where it posts, the lead its fields make, and the page it comes back to.
 */
interface LeadForm {
  path: string
  anchor: string
  /** Whatever the post holds goes to the procedure, whose schema judges it. */
  input(post: Post): Record<string, unknown>
  /** The page the form is on, to render again or to thank the visitor on. */
  back(post: Post): string
  /** Where a sent lead thanks the visitor, when not `back`: a sent quote leaves its cart behind. */
  thanks?: string
  /** The request's own fields as typed (by their posted names), to show again. */
  request?(post: Post): Record<string, string | string[]>
  /**
   * With a time chosen (the service form's drop-off, docs/decisions/0046): the booking the post
   * makes instead, through `appointment.book`, carrying the request: one lead.
   */
  booking?(post: Post): AppointmentInput | undefined
  /** Where a booking made thanks the shopper. */
  booked?(post: Post): string
}

const leadForms: readonly LeadForm[] = [
  {
    path: paths.contact,
    anchor: contactFormAnchor,
    input: (post) => ({ ...post.values, cartSlug: post.cartSlug, website: post.text('website'), sourceLabel: post.text('sourceLabel') || 'dealer-site' }),
    back: (post) => {
      // The address to come back to names the cart as the schema keeps it (trimmed, within its
      // limit): an untrimmed 100 kB value made a Location header no client would read.
      const kept = post.cartSlug?.trim()
      return paths.quote(kept && kept.length <= inquiryLimits.cartSlug ? kept : undefined)
    },
    // The quote is sent: the form on the thank-you page is a fresh one, about no cart.
    thanks: paths.contact,
  },
  {
    path: paths.rentalRequest,
    anchor: requestFormAnchor,
    input: (post) =>
      rentalLeadInput(Object.fromEntries(rentalRequestFieldNames.map((name) => [name, post.text(name) ?? ''])), {
        website: post.text('website'),
        sourceLabel: post.text('sourceLabel') || 'dealer-site',
      }),
    back: (post) => {
      const county = countyByValue(post.text('county') ?? '')?.value
      return county ? `${paths.rentalRequest}?county=${county}` : paths.rentalRequest
    },
    request: (post) => post.fields(rentalRequestFieldNames),
  },
  {
    path: paths.serviceRequest,
    anchor: requestFormAnchor,
    input: (post) =>
      serviceLeadInput(
        { ...post.values, ...post.fields(serviceRequestFieldNames) },
        { website: post.text('website'), sourceLabel: post.text('sourceLabel') || 'dealer-site' },
      ),
    // With a drop-off's showroom chosen, its free times come back with the page (and the posted day's).
    back: (post) => {
      const showroom = showroomByKey(post.text('showroom') ?? '') ? post.text('showroom') : undefined
      if (!showroom) return paths.serviceRequest
      return post.text('startsAt') ? refusedBookingAddress(`${paths.serviceRequest}?showroom=${showroom}`, typedBooking(post.body)) : `${paths.serviceRequest}?showroom=${showroom}`
    },
    // Sent without a time: the thank-you on the plain page (no free times to show).
    thanks: paths.serviceRequest,
    request: (post) => ({ ...post.fields(serviceRequestFieldNames), ...post.fields(['startsAt']) }),
    booking: (post) => {
      // A filled trap is the lead path's to judge (it stores nothing and says sent).
      if (!post.text('startsAt') || post.text('website')) return undefined
      const { interest: _interest, website: _website, ...lead } = serviceLeadInput(
        { ...post.values, ...post.fields(serviceRequestFieldNames) },
        { website: post.text('website'), sourceLabel: post.text('sourceLabel') || 'dealer-site' },
      )
      return { ...lead, ...bookingFields(typedBooking(post.body)), service: lead.service as AppointmentInput['service'], showroom: post.text('showroom') ?? '', kind: 'service' }
    },
    booked: (post) => `${paths.serviceRequest}?showroom=${encodeURIComponent(post.text('showroom') ?? '')}`,
  },
]

/**
 * The lead forms without JavaScript (it loads after the page, or may fail to; the service form
 * has none): an ordinary form post, stored through the same procedure as every other lead, so the
 * same rate limit counts it. It obeys the same origin rule as the API (api/http/origin.ts): a
 * form on another site that posts here is refused. Success redirects to a thank-you; any refusal
 * or failure renders the page again with everything as typed, each problem beside its field and
 * the rest in the error boundary's words (api/http/errors.ts), so nothing is lost.
 */
export function mountContactPost(
  app: Express,
  context: SiteContext,
  answer: (req: Request, res: Response, url: string, form: PostedForm, status: number) => Promise<void>,
) {
  const parse = express.urlencoded({ extended: false, limit: maxBodyBytes, parameterLimit: 50 })
  for (const leadForm of leadForms) {
    app.post(
      leadForm.path,
      // Parsed before anything can refuse it, so a refused post still shows what was typed.
      parse,
      async (req: Request, res: Response, next: NextFunction) => {
        const post = readPost(req)
        try {
          const verdict = requestOriginVerdict(req, context.env.allowedOrigins)
          if (!verdict.allowed) throw new OriginRefusedError(verdict)
          const caller = createCaller(createContextInner(context.services, requestInfo(req)))
          const booking = leadForm.booking?.(post)
          if (booking) {
            const receipt = await caller.appointment.book(booking)
            return void res.redirect(303, bookedAddress(leadForm.booked!(post), receipt, leadForm.anchor))
          }
          await caller.inquiry.submit(leadForm.input(post) as Parameters<typeof caller.inquiry.submit>[0])
          const back = leadForm.thanks ?? leadForm.back(post)
          res.redirect(303, `${back}${back.includes('?') ? '&' : '?'}sent=1#${leadForm.anchor}`)
        } catch (error) {
          next(error)
        }
      },
      // Refused (schema, rate limit, origin, a body that could not be read) or failed: the page
      // again, with nothing lost. A failure of ours is logged; the visitor gets our sentence.
      async (error: unknown, req: Request, res: Response, _next: NextFunction) => {
        const post = readPost(req)
        const refusal = errorAnswer(error, { mutation: true, method: req.method, path: req.path })
        logFailure(context.log, leadForm.path === paths.contact ? 'contact form post failed' : `${leadForm.path} form post failed`, refusal)
        if (refusal.retryAfter !== undefined) res.set('Retry-After', String(refusal.retryAfter))
        const refused = refusalOnForm(refusal, post.values)
        // The drop-off's time just taken (409): said beside the times, as the booking forms say it.
        const taken = leadForm.booking?.(post) && refusal.status === 409 && refused.message
        const form: PostedForm = { ...refused, ...(taken && { message: undefined, errors: { ...refused.errors, startsAt: taken } }), request: leadForm.request?.(post) }
        await answer(req, res, leadForm.back(post), form, refusal.status)
      },
    )
  }
}

type Post = ReturnType<typeof readPost>

function readPost(req: Request) {
  const body = (req.body ?? {}) as Record<string, unknown>
  const text = (name: string) => (typeof body[name] === 'string' ? body[name] : undefined)
  /** Fields as posted: text, or a list of texts where several boxes of one name were checked. */
  const fields = (names: readonly string[]) =>
    Object.fromEntries(
      names.flatMap((name): [string, string | string[]][] => {
        const value = body[name]
        if (typeof value === 'string') return [[name, value]]
        if (Array.isArray(value)) return [[name, value.filter((v): v is string => typeof v === 'string')]]
        return []
      }),
    ) as Record<string, string | string[]>
  return {
    body,
    text,
    fields,
    cartSlug: text('cartSlug') || undefined,
    values: Object.fromEntries(visitorFieldNames.map((f) => [f, text(f) ?? ''])),
  }
}
