import express, { type Request, type Response, Router } from 'express'
import type { Env } from '../config/env.ts'
import { sendError } from '../http/errors.ts'
import { describeError, type Logger } from '../log.ts'
import { twilioStatusPath } from '../leads/reply-delivery.ts'
import type { TextInbox } from './text-inbox.ts'
import { messagingAnswer, signedByTwilio } from './twilio.ts'

/** Where Twilio posts a text sent to the dealer's number (DEPLOY.md: the number's "A message comes in" webhook). */
export const twilioSmsPath = '/webhooks/twilio/sms'

/**
 * Twilio's webhooks (PRODUCT.md, "texting"): a text that came in, and what became of one we sent.
 * Each is read as the raw form-encoded body and its `X-Twilio-Signature` checked against `SITE_URL`
 * plus the path (the address Twilio was given) before anything else: 403 otherwise. Without
 * Twilio's settings there is nothing here (404).
 */
export function twilioWebhooks(options: { env: Env; texts: TextInbox; log: Logger }): Router {
  const { env, texts, log } = options
  const router = Router()
  const raw = express.raw({ type: () => true, limit: '64kb' })

  /** The posted fields if Twilio signed them; else the refusal is sent and undefined returned. */
  async function signedFields(req: Request, res: Response, path: string): Promise<Record<string, string> | undefined> {
    if (!env.twilio) {
      sendError(res, 404, 'Texting is not set up on this server')
      return undefined
    }
    const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : ''
    const fields = Object.fromEntries(new URLSearchParams(body))
    if (!(await signedByTwilio(env.twilio.authToken, req.get('x-twilio-signature'), `${env.siteUrl}${path}`, fields))) {
      sendError(res, 403, 'This request is not signed by Twilio')
      return undefined
    }
    return fields
  }

  router.post(twilioSmsPath, raw, async (req, res, next) => {
    try {
      const fields = await signedFields(req, res, twilioSmsPath)
      if (!fields) return
      if (!fields.MessageSid || !fields.From) return void sendError(res, 400, 'A text needs MessageSid and From')
      const result = await texts.receive({ sid: fields.MessageSid, from: fields.From, body: fields.Body ?? '' })
      if (result.leadId === null) log.info('text from a number no customer has', { sid: fields.MessageSid })
      res.type('text/xml').send(await messagingAnswer(result.reply))
    } catch (error) {
      log.warn('text not taken', { error: describeError(error) })
      next(error)
    }
  })

  router.post(twilioStatusPath, raw, async (req, res, next) => {
    try {
      const fields = await signedFields(req, res, twilioStatusPath)
      if (!fields) return
      if (fields.MessageSid && fields.MessageStatus) await texts.statusChanged(fields.MessageSid, fields.MessageStatus, fields.ErrorCode)
      res.status(204).end()
    } catch (error) {
      next(error)
    }
  })
  return router
}
