import express, { type Express, type NextFunction, type Request, type Response } from 'express'
import type { SiteContext } from '../../api/http/app.ts'
import { maxBodyBytes } from '../../api/http/body-limit.ts'
import { type ErrorAnswer, errorAnswer, logFailure } from '../../api/http/errors.ts'
import { OriginRefusedError, requestOriginVerdict } from '../../api/http/origin.ts'
import { requestInfo } from '../../api/http/request-info.ts'
import { createContextInner } from '../../api/trpc/context.ts'
import { createCaller } from '../../api/trpc/router.ts'
import { appointmentFormFields, type BookingReceipt, newJerseyDay } from '../../domain/appointments.ts'
import { paths, sitePaths, testDriveAnchor } from '../../domain/site-paths.ts'
import { consentTicked } from '../../domain/texting.ts'
import { type FormState, refusalOnForm } from '../form-state.ts'
import type { AnswerPage } from './watch-posts.ts'

/**
 * A booking's link page (host/pages/appointment-link.tsx) without JavaScript: opening it shows
 * the booking; its forms post here, `action=move` with `startsAt`, or `action=cancel`, through
 * `appointment.move` and `appointment.cancel` under the one origin rule. Done: back to the link's
 * page with `done=moved` or `done=cancelled`; refused (the time was just taken): the page again,
 * saying why. The page is never kept or indexed, and never sends its address (with the link's
 * signature) as a Referer.
 */
export function mountAppointmentPosts(app: Express, context: SiteContext, answer: AnswerPage) {
  const parse = express.urlencoded({ extended: false, limit: maxBodyBytes, parameterLimit: 20 })
  const privately = (res: Response) => res.set('Cache-Control', 'no-store').set('Referrer-Policy', 'no-referrer').set('X-Robots-Tag', 'noindex')
  const text = (value: unknown) => (typeof value === 'string' ? value : '')

  app.get(paths.appointmentManage, (req: Request, res: Response) => {
    privately(res)
    return answer(req, res, req.originalUrl)
  })

  app.post(
    paths.appointmentManage,
    parse,
    async (req: Request, res: Response) => {
      const verdict = requestOriginVerdict(req, context.env.allowedOrigins)
      if (!verdict.allowed) throw new OriginRefusedError(verdict)
      const link = { booking: text(req.query.booking), sig: text(req.query.sig) }
      const body = (req.body ?? {}) as Record<string, unknown>
      const caller = createCaller(createContextInner(context.services, requestInfo(req)))
      const back = paths.appointmentLink(Number(link.booking), link.sig)
      if (body.action === 'cancel') {
        await caller.appointment.cancel(link)
        return void res.redirect(303, `${back}&done=cancelled`)
      }
      await caller.appointment.move({ ...link, startsAt: text(body.startsAt) })
      res.redirect(303, `${back}&done=moved`)
    },
    async (error: unknown, req: Request, res: Response, _next: NextFunction) => {
      const refusal = errorAnswer(error, { mutation: true, method: req.method, path: req.path })
      logFailure(context.log, 'booking link post failed', refusal)
      privately(res)
      const form = refusalOnForm(refusal, {})
      const message = form.message ?? (Object.keys(form.errors).length > 0 && !form.errors.startsAt ? Object.values(form.errors)[0] : undefined)
      await answer(req, res, req.originalUrl, { values: {}, errors: {}, booking: { errors: form.errors, message } }, refusal.status)
    },
  )
}

/** A booking form's fields as posted without JavaScript, by name (the contact fields and the time). */
export function typedBooking(body: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(appointmentFormFields.map((name) => [name, typeof body[name] === 'string' ? body[name] : '']))
}

/** The contact fields and the time of a booking posted without JavaScript, as `appointment.book` takes them. */
export function bookingFields(typed: Record<string, string>) {
  return {
    startsAt: typed.startsAt ?? '',
    firstName: typed.firstName ?? '',
    lastName: typed.lastName ?? '',
    email: typed.email ?? '',
    phone: typed.phone || undefined,
    message: typed.message || undefined,
    textConsent: consentTicked(typed.textConsent ?? ''),
  }
}

/** Made: the page again (a redirect, so a reload books nothing twice) saying when, `?booked=&ends=`. */
export function bookedAddress(page: string, receipt: BookingReceipt, anchor: string): string {
  return `${page}${page.includes('?') ? '&' : '?'}booked=${encodeURIComponent(receipt.startsAt)}&ends=${encodeURIComponent(receipt.endsAt)}#${anchor}`
}

/** The page to render a refused booking on: the posted time's day, so its times are there again. */
export function refusedBookingAddress(page: string, typed: Record<string, string>): string {
  const at = Date.parse(typed.startsAt ?? '')
  return `${page}${page.includes('?') ? '&' : '?'}day=${Number.isNaN(at) ? '' : newJerseyDay(at)}`
}

/**
 * A refused booking as its form shows it: each problem beside its field; the slot just taken
 * (409) or no time chosen beside the times, as the island says it.
 */
export function bookingRefusal(refusal: ErrorAnswer, typed: Record<string, string>): FormState {
  const form = refusalOnForm(refusal, typed)
  if (refusal.status === 409 && form.message) return { values: typed, errors: { ...form.errors, startsAt: form.message } }
  if (!typed.startsAt && form.errors.startsAt) return { ...form, errors: { ...form.errors, startsAt: 'Choose a time' } }
  return form
}

/**
 * The vehicle page's "Book a test drive" without JavaScript (docs/decisions/0046): the island's
 * form rendered by the server posts to the page with `form=book`, through `appointment.book` (the
 * same schema, capacity and lead as the island's), under the one origin rule. Made: back to the
 * page saying when; refused: the page again on the posted day, everything as typed.
 */
export function mountBookingForms(app: Express, context: SiteContext, answer: AnswerPage) {
  const parse = express.urlencoded({ extended: false, limit: maxBodyBytes, parameterLimit: 30 })
  // The pages showing free times (`?day=`, the service form's `?showroom=`) or a booking made
  // (`?booked=`) are rendered for each request and never kept: a time taken meanwhile, or one
  // that has passed, must not be offered from a kept page.
  const live = (...names: string[]) => (req: Request, res: Response, next: NextFunction) => {
    if (!names.some((name) => req.query[name] !== undefined)) return next()
    res.set('Cache-Control', 'no-store').set('X-Robots-Tag', 'noindex')
    return answer(req, res, req.originalUrl)
  }
  app.get(sitePaths.vehicle.replace('{slug}', ':slug'), live('day', 'booked'))
  app.get(paths.serviceRequest, live('showroom', 'booked'))
  app.post(
    sitePaths.vehicle.replace('{slug}', ':slug'),
    parse,
    async (req: Request, res: Response, next: NextFunction) => {
      const body = (req.body ?? {}) as Record<string, unknown>
      if (body.form !== 'book') return next()
      try {
        const verdict = requestOriginVerdict(req, context.env.allowedOrigins)
        if (!verdict.allowed) throw new OriginRefusedError(verdict)
        const caller = createCaller(createContextInner(context.services, requestInfo(req)))
        const cartId = typeof body.cartId === 'string' && /^\d{1,9}$/.test(body.cartId) ? Number(body.cartId) : undefined
        const receipt = await caller.appointment.book({
          ...bookingFields(typedBooking(body)),
          showroom: typeof body.showroom === 'string' ? body.showroom : '',
          kind: 'test-drive',
          cartId,
          sourceLabel: 'vehicle-page',
        })
        res.redirect(303, bookedAddress(paths.vehicle(String(req.params.slug)), receipt, testDriveAnchor))
      } catch (error) {
        next(error)
      }
    },
    async (error: unknown, req: Request, res: Response, _next: NextFunction) => {
      const typed = typedBooking((req.body ?? {}) as Record<string, unknown>)
      const refusal = errorAnswer(error, { mutation: true, method: req.method, path: req.path })
      logFailure(context.log, 'vehicle page booking post failed', refusal)
      if (refusal.retryAfter !== undefined) res.set('Retry-After', String(refusal.retryAfter))
      await answer(req, res, refusedBookingAddress(paths.vehicle(String(req.params.slug)), typed), { values: {}, errors: {}, book: bookingRefusal(refusal, typed) }, refusal.status)
    },
  )
}
