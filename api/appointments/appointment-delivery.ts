import type { MailMessage, MailSettings } from '../leads/messages.ts'
import { appointmentEmail, bookingLink } from './appointment-messages.ts'
import { type AppointmentFacts, type AppointmentMessageKind, appointmentMessageKinds, type LinkSigner } from './appointment-store.ts'

/**
 * What the outbox does with a booking's row (api/leads/outbox-worker.ts): the shopper's email,
 * built from the booking as it is now. A confirmation or reminder of an earlier revision (the
 * booking moved again before it went) is superseded by the one its move queued: not sent.
 */
export type AppointmentOutcome = { sent: true } | { superseded: true } | { failed: 'reading the lead' | 'mail server'; error: unknown }

export function createAppointmentDelivery(options: {
  send?: (message: MailMessage) => Promise<unknown>
  links: LinkSigner
  settings: MailSettings
  facts(id: number): Promise<AppointmentFacts | undefined>
}) {
  return {
    /** Which kinds this process sends: all of them with a mail server, none without. */
    kinds(): AppointmentMessageKind[] {
      return options.send ? [...appointmentMessageKinds] : []
    },

    async deliver(kind: AppointmentMessageKind, appointmentId: number, revision: number): Promise<AppointmentOutcome> {
      let message: MailMessage
      try {
        const booking = await options.facts(appointmentId)
        if (!booking) throw new Error(`appointment ${appointmentId} no longer exists`)
        if (kind !== 'appointment-cancelled' && (booking.revision > revision || booking.status === 'cancelled')) return { superseded: true }
        const link = bookingLink(options.settings.siteUrl, booking.id, await options.links.sign(booking.id))
        message = appointmentEmail(kind, booking, link, options.settings, new Date())
      } catch (error) {
        return { failed: 'reading the lead', error }
      }
      try {
        if (!options.send) throw new Error('no mail server configured')
        await options.send(message)
      } catch (error) {
        return { failed: 'mail server', error }
      }
      return { sent: true }
    },
  }
}

export type AppointmentDelivery = ReturnType<typeof createAppointmentDelivery>
