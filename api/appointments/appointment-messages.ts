import { appointmentKindLabels, slotWhen } from '../../domain/appointments.ts'
import { business, formatAddress, mapsSearchUrl, showroomByKey } from '../../domain/business.ts'
import { paths } from '../../domain/site-paths.ts'
import { greetingName, type MailMessage, type MailSettings, messageId } from '../leads/messages.ts'
import type { AppointmentFacts, AppointmentMessageKind } from './appointment-store.ts'
import { calendarInvitation } from './ics.ts'

/**
 * What a booking's shopper is sent (PRODUCT.md, "confirmations and reminders"): the confirmation
 * (again after a move), the reminder a day before, the cancellation; each with the time, the place,
 * a maps link, the `.ics` invitation and the signed link to move or cancel. Words only; the outbox
 * sends them (api/appointments/appointment-delivery.ts). The shopper's own words are never echoed
 * back but the first name, as every confirmation greets.
 */
export function appointmentEmail(kind: AppointmentMessageKind, booking: AppointmentFacts, link: string, settings: MailSettings, now: Date): MailMessage {
  const showroom = showroomByKey(booking.showroom)
  const place = showroom?.address ? `${business.name} ${showroom.name}, ${formatAddress(showroom.address)}` : business.name
  const what = appointmentKindLabels[booking.kind]
  const when = slotWhen(booking.startsAt)
  const host = new URL(settings.siteUrl).hostname
  const cancelled = kind === 'appointment-cancelled'
  const subject =
    kind === 'appointment-reminder'
      ? `Reminder: your ${what.toLowerCase()} tomorrow, ${when} - ${business.name}`
      : cancelled
        ? `Your ${what.toLowerCase()} on ${when} is cancelled - ${business.name}`
        : `${booking.revision > 1 ? 'Moved: ' : ''}your ${what.toLowerCase()} on ${when} - ${business.name}`
  const opening = cancelled
    ? [`Your ${what.toLowerCase()} on ${when} is cancelled, as you asked. Nobody will wait for you.`, '', `Book another time on ${settings.siteUrl}, or call ${business.tollFree.display}.`]
    : [
        kind === 'appointment-reminder'
          ? `A reminder: we expect you tomorrow.`
          : booking.revision > 1
            ? 'Your booking is moved. We expect you:'
            : 'Thank you for booking. We expect you:',
        '',
        `What:   ${what}${booking.cartTitle && booking.kind === 'test-drive' ? `, the ${booking.cartTitle}` : ''}`,
        `When:   ${when} (New Jersey time, ${booking.minutes} minutes)`,
        `Where:  ${place}`,
        ...(showroom ? [`Map:    ${mapsSearchUrl(showroom)}`, `Phone:  ${showroom.phone.display}`] : []),
        '',
        `To move or cancel it (no account needed): ${link}`,
        '',
        'The calendar invitation is attached.',
      ]
  const invitation = calendarInvitation({
    uid: `appointment-${booking.id}@${host}`,
    revision: booking.revision,
    startsAt: booking.startsAt,
    minutes: booking.minutes,
    summary: `${what} at ${business.name}${showroom ? ` ${showroom.name}` : ''}`,
    location: place,
    geo: showroom?.geo,
    description: `${what} at ${place}. ${showroom ? `Call ${showroom.phone.display}. ` : ''}To move or cancel it: ${link}`,
    url: link,
    organizer: { name: business.name, email: business.email },
    attendee: { name: `${booking.firstName} ${booking.lastName}`, email: booking.email },
    cancelled,
    stamp: now,
  })
  return {
    from: settings.from,
    to: [booking.email],
    replyTo: business.email,
    subject,
    text: [`Hi ${greetingName(booking.firstName)},`, '', ...opening, '', `Questions? Call us at ${business.tollFree.display}.`, '', business.name, settings.siteUrl].join('\n'),
    messageId: messageId(settings, `appointment-${booking.id}-${kind}-${booking.revision}`),
    attachments: [
      {
        filename: cancelled ? 'cancelled.ics' : 'appointment.ics',
        content: invitation,
        contentType: `text/calendar; charset=utf-8; method=${cancelled ? 'CANCEL' : 'REQUEST'}`,
      },
    ],
  }
}

/** The reminder by text (with consent): short, with the place and the link. */
export function reminderText(booking: AppointmentFacts, link: string): string {
  const showroom = showroomByKey(booking.showroom)
  return (
    `${business.name}: reminder of your ${appointmentKindLabels[booking.kind].toLowerCase()} ${slotWhen(booking.startsAt)} ` +
    `at ${showroom?.address ? `${showroom.name}, ${formatAddress(showroom.address)}` : 'our showroom'}. Move or cancel: ${link}`
  )
}

/** The link in every message about a booking. */
export const bookingLink = (siteUrl: string, id: number, signature: string) => `${siteUrl}${paths.appointmentLink(id, signature)}`
