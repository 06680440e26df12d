import { business, formatHours } from '../../domain/business.ts'
import { formatPrice } from '../../domain/golf-cart.ts'
import { paths } from '../../domain/site-paths.ts'
import type { NotificationKind, StoredInquiry } from '../inquiries/inquiry-store.ts'
import { adfDocument } from './adf.ts'
import { interestLabel, newJerseyTime } from './lead-facts.ts'

/** An address with a display name, which the mail library encodes (quotes, backslashes, non-ASCII). */
export interface MailAddress {
  name: string
  address: string
}

export interface MailMessage {
  from: string
  to: string[]
  /** Never built by pasting text into a header: a name ending in "\\" once swallowed the address. */
  replyTo?: MailAddress | string
  subject: string
  text: string
  html?: string
  /** The same for every attempt, so a mail system that sees a retry can tell it is one. */
  messageId: string
}

export interface MailSettings {
  from: string
  leadsTo: string[]
  adfTo: string[]
  siteUrl: string
}

/** Builds the message an outbox row stands for. */
export function buildMessage(kind: NotificationKind, lead: StoredInquiry, settings: MailSettings): MailMessage {
  const messageId = `<lead-${lead.id}-${kind}@${new URL(settings.siteUrl).hostname}>`
  switch (kind) {
    case 'dealer-email':
      return { ...dealerEmail(lead, settings), messageId }
    case 'crm-adf':
      return {
        from: settings.from,
        to: settings.adfTo,
        subject: `ADF lead ${lead.id} from ${business.name} website`,
        text: adfDocument(lead, settings.siteUrl),
        messageId,
      }
    case 'visitor-confirmation':
      return { ...visitorConfirmation(lead, settings), messageId }
  }
}

function dealerEmail(lead: StoredInquiry, settings: MailSettings): Omit<MailMessage, 'messageId'> {
  const name = `${lead.firstName} ${lead.lastName}`
  const interest = interestLabel(lead)
  const cart = lead.cartTitle
    ? `${lead.cartTitle}${lead.cartPrice !== null ? ` (${formatPrice(lead.cartPrice)})` : ''}`
    : lead.cartSlug
      ? `${lead.cartSlug} (no longer listed)`
      : undefined
  const cartUrl = lead.cartSlug ? `${settings.siteUrl}${paths.vehicle(lead.cartSlug)}` : undefined
  const rows: [string, string | undefined][] = [
    ['Name', name],
    ['Email', lead.email],
    ['Phone', lead.phone ?? undefined],
    ['Interest', interest],
    ['Cart', cart && cartUrl ? `${cart} ${cartUrl}` : cart],
    ['Message', lead.message ?? undefined],
    ['Page', lead.sourceUrl ?? undefined],
    ['Source', lead.sourceLabel ?? undefined],
    ['Received', newJerseyTime(lead.createdAt)],
  ]
  const present = rows.filter((row): row is [string, string] => Boolean(row[1]))
  const subject = ['New lead', name, interest, lead.cartTitle ?? undefined].filter(Boolean).join(': ')
  return {
    from: settings.from,
    to: settings.leadsTo,
    replyTo: { name, address: lead.email },
    subject: subject.replace(/[\r\n]+/g, ' ').slice(0, 200),
    text: [
      `New inquiry #${lead.id} from the website. Reply to this email to answer ${lead.firstName} directly.`,
      '',
      ...present.map(([label, value]) => `${`${label}:`.padEnd(10)}${value}`),
      '',
      `Promise on the site: a reply within ${business.claims.replyWithinHours} hours.`,
    ].join('\n'),
    html: [
      `<p>New inquiry #${lead.id} from the website. Reply to this email to answer ${escape(lead.firstName)} directly.</p>`,
      '<table cellpadding="6" style="border-collapse:collapse;font-family:sans-serif">',
      ...present.map(
        ([label, value]) =>
          `<tr><th align="left" valign="top">${label}</th><td style="white-space:pre-wrap">${escape(value)}</td></tr>`,
      ),
      '</table>',
    ].join('\n'),
  }
}

function visitorConfirmation(lead: StoredInquiry, settings: MailSettings): Omit<MailMessage, 'messageId'> {
  return {
    from: settings.from,
    to: [lead.email],
    replyTo: business.email,
    subject: `We received your message - ${business.name}`,
    text: [
      `Hi ${lead.firstName},`,
      '',
      `Thanks for contacting ${business.name}. We received your message and will get back to you within ${business.claims.replyWithinHours} hours.`,
      '',
      `If it can't wait, call us at ${business.tollFree.display}.`,
      `Hours: ${business.hours.map(formatHours).join(', ')}.`,
      '',
      business.name,
      settings.siteUrl,
    ].join('\n'),
  }
}

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
}
