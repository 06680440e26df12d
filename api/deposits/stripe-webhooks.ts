import express, { Router } from 'express'
import { paths } from '../../domain/site-paths.ts'
import type { Env } from '../config/env.ts'
import { sendError } from '../http/errors.ts'
import { describeError, type Logger } from '../log.ts'
import type { DepositStore, StripeEventFacts } from './deposit-store.ts'
import { rentalDepositPath, type RentalDeposits } from './rental-deposits.ts'
import type { StripeEvent } from './stripe.ts'

/** Where Stripe posts events (DEPLOY.md: the webhook endpoint made in Stripe's Dashboard). */
export const stripeWebhookPath = '/webhooks/stripe'

/** What the deposit store reads of an event: its id, type and, for a completed Checkout, the Session. */
function factsOf(event: StripeEvent): StripeEventFacts {
  if (event.type !== 'checkout.session.completed') return { id: event.id, type: event.type }
  const session = event.data.object
  const intent = session.payment_intent
  return {
    id: event.id,
    type: event.type,
    session: {
      id: session.id,
      paymentStatus: session.payment_status,
      paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
      amountTotal: session.amount_total,
    },
  }
}

/**
 * Stripe's side of deposits (PRODUCT.md, "holding a cart"). `POST /webhooks/stripe`: the raw body
 * and its `Stripe-Signature` are checked with the webhook secret before anything else (400
 * otherwise, which Stripe shows on the endpoint's page); a signed event is handled once
 * (api/deposits/deposit-store.ts) and answered 200, so Stripe stops sending it; a failure to
 * store it is a 500, so Stripe sends it again. `GET /deposits/pay/{id}/{signature}`: a renter's
 * deposit link, which opens Stripe's page. Without Stripe's settings neither is here (404).
 */
export function stripeRoutes(options: { env: Env; deposits: DepositStore; rentalDeposits: RentalDeposits; log: Logger }): Router {
  const { env, deposits, rentalDeposits, log } = options
  const router = Router()
  if (!deposits.offer()) return router

  router.post(stripeWebhookPath, express.raw({ type: () => true, limit: '512kb' }), async (req, res, next) => {
    let event: StripeEvent
    try {
      event = await deposits.verify(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), req.get('stripe-signature'))
    } catch (error) {
      log.warn('stripe event refused', { error: describeError(error).slice(0, 200) })
      return sendError(res, 400, 'This request is not signed by Stripe with this endpoint’s secret')
    }
    try {
      const outcome = await deposits.handleEvent(factsOf(event))
      log.info('stripe event', { event: event.id, type: event.type, outcome })
      res.json({ received: true })
    } catch (error) {
      next(error)
    }
  })

  router.get(`${rentalDepositPath}/:id/:signature`, async (req, res, next) => {
    try {
      const id = Number(req.params.id)
      const answer = Number.isSafeInteger(id) && id > 0 ? await rentalDeposits.checkoutFor(id, req.params.signature) : undefined
      if (!answer) return sendError(res, 404, 'This deposit link is not valid. Call us and we will send a new one.')
      res.set('Cache-Control', 'no-store')
      res.redirect(303, 'url' in answer ? answer.url : `${env.siteUrl}${paths.rentals}?deposit=paid`)
    } catch (error) {
      next(error)
    }
  })
  return router
}
