import express, { type Request } from 'express'
import { cartSearchFields } from '../../domain/cart-query.ts'
import { createContextInner } from '../trpc/context.ts'
import type { Services } from '../services.ts'
import type { InquiryInput } from '../../domain/inquiry.ts'
import { createCaller } from '../trpc/router.ts'
import { maxBodyBytes } from './body-limit.ts'
import { sendError } from './errors.ts'
import { requestInfo } from './request-info.ts'

/**
 * The four documented REST paths (docs/CONTRACTS.md, "REST API"). Each calls the same tRPC procedure the
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

  for (const [path, allow] of [
    ['/golf-carts/featured', 'GET, HEAD'],
    ['/golf-carts', 'GET, HEAD'],
    ['/golf-carts/slug/:slug', 'GET, HEAD'],
    ['/contact', 'POST'],
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
  sendError(res, 415, 'Send the inquiry as JSON with the header Content-Type: application/json')
}
