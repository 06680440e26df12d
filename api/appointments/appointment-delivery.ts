import { composeAndSend, type MailMessage, type MailOutcome, type MailSettings } from '../leads/messages.ts'
import { appointmentEmail, bookingLink } from './appointment-messages.ts'
import { type AppointmentFacts, type AppointmentMessageKind, appointmentMessageKinds, type LinkSigner } from './appointment-store.ts'

/**
 * What the outbox does with a booking's row (api/leads/outbox-worker.ts): the shopper's email,
 * built from the booking as it is now. A confirmation or reminder of an earlier revision (the
 * booking moved again before it went) is superseded by the one its move queued: not sent.
 */
export type AppointmentOutcome = MailOutcome | { superseded: true }

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

    deliver(kind: AppointmentMessageKind, appointmentId: number, revision: number): Promise<AppointmentOutcome> {
      return composeAndSend(options.send, async () => {
        const booking = await options.facts(appointmentId)
        if (!booking) throw new Error(`appointment ${appointmentId} no longer exists`)
        if (kind !== 'appointment-cancelled' && (booking.revision > revision || booking.status === 'cancelled')) return { outcome: { superseded: true as const } }
        const link = bookingLink(options.settings.siteUrl, booking.id, await options.links.sign(booking.id))
        return appointmentEmail(kind, booking, link, options.settings, new Date())
      })
    },
  }
}

export type AppointmentDelivery = ReturnType<typeof createAppointmentDelivery>
