import express, { type Request } from 'express'
import { cartSearchFields } from '../../domain/cart-query.ts'
import { createContextInner } from '../trpc/context.ts'
import type { Services } from '../services.ts'
import type { InquiryInput } from '../../domain/inquiry.ts'
import type { DepositInput } from '../../domain/deposits.ts'
import type { WatchInput } from '../../domain/cart-alerts-schema.ts'
import type { AppointmentInput, SlotsInput } from '../../domain/appointments.ts'
import { createCaller } from '../trpc/router.ts'
import { maxBodyBytes } from './body-limit.ts'
import { sendError } from './errors.ts'
import { requestInfo } from './request-info.ts'

/**
 * The documented REST paths (docs/CONTRACTS.md, "REST API"). Each calls the same tRPC procedure the
 * widgets use, so validation, errors and data are one implementation with two doors.
 */
export function restRoutes(services: Services) {
  const routes = express.Router()
  const call = (req: Request) => createCaller(createContextInner(services, requestInfo(req)))

  routes.get('/golf-carts/featured', async (req, res) => {
    res.json(await call(req).cart.featured({ limit: optionalNumber(req.query.limit) }))
  })

  routes.get('/golf-carts', async (req, res) => {
    // The search's fields go to the procedure as text; its one reader (domain/cart-query.ts)
    // judges them, so the API and the page accept the same values.
    const search = Object.fromEntries(cartSearchFields.map((field) => [field, req.query[field]]))
    const { carts, total } = await call(req).cart.list({
      ...(search as Record<(typeof cartSearchFields)[number], string | undefined>),
      limit: optionalNumber(req.query.limit),
      offset: optionalNumber(req.query.offset),
    })
    // The contract's answer is a bare array; the total for paging rides in a header.
    res.set('X-Total-Count', String(total)).json(carts)
  })

  routes.get('/golf-carts/slug/:slug', async (req, res) => {
    res.json(await call(req).cart.bySlug({ slug: req.params.slug }))
  })

  routes.post('/contact', requireJson, express.json({ limit: maxBodyBytes, strict: false }), async (req, res) => {
    res.status(201).json(await call(req).inquiry.submit(req.body as InquiryInput))
  })

  // A Stripe Checkout Session for a cart (PRODUCT.md, "holding a cart"): 404 without Stripe's settings.
  routes.post('/deposits', requireJson, express.json({ limit: maxBodyBytes, strict: false }), async (req, res) => {
    res.status(201).json(await call(req).deposit.start(req.body as DepositInput))
  })

  // Accepted, not done: the watch starts once the shopper follows the link the email brings.
  routes.post('/alerts', requireJson, express.json({ limit: maxBodyBytes, strict: false }), async (req, res) => {
    res.status(202).json(await call(req).alert.watch(req.body as WatchInput))
  })

  // The free slots of a showroom and kind; `days` as text, judged by the procedure's schema.
  routes.get('/appointments/slots', async (req, res) => {
    // A repeated parameter arrives as a list: given as it is, for the schema to refuse.
    const text = (value: unknown) => value
    res.json(
      await call(req).appointment.slots({
        showroom: text(req.query.showroom),
        kind: text(req.query.kind),
        from: text(req.query.from),
        days: optionalNumber(req.query.days),
      } as SlotsInput),
    )
  })

  // A booking: 201, or 409 when the slot filled meanwhile.
  routes.post('/appointments', requireJson, express.json({ limit: maxBodyBytes, strict: false }), async (req, res) => {
    res.status(201).json(await call(req).appointment.book(req.body as AppointmentInput))
  })

  for (const [path, allow] of [
    ['/golf-carts/featured', 'GET, HEAD'],
    ['/golf-carts', 'GET, HEAD'],
    ['/golf-carts/slug/:slug', 'GET, HEAD'],
    ['/contact', 'POST'],
    ['/deposits', 'POST'],
    ['/alerts', 'POST'],
    ['/appointments/slots', 'GET, HEAD'],
    ['/appointments', 'POST'],
  ] as const) {
    routes.all(path, (req, res) => {
      res.set('Allow', allow)
      sendError(res, 405, `${req.method} is not allowed here; use ${allow.replace(', HEAD', '')}`)
    })
  }

  routes.use((req, res) => sendError(res, 404, `No API endpoint at ${req.method} ${req.baseUrl}${req.path}`))
  return routes
}

/** Query values arrive as text; a number the schema can judge (NaN for "abc" or a repeat). */
function optionalNumber(value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined
  return typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN
}

const requireJson: express.RequestHandler = (req, res, next) => {
  if (req.is('application/json')) return next()
  sendError(res, 415, 'Send the request as JSON with the header Content-Type: application/json')
}
