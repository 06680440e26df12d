import { business, formatHours } from '../../domain/business.ts'
import { formatPrice } from '../../domain/golf-cart.ts'
import { paths } from '../../domain/site-paths.ts'
import { formatDollars } from '../../domain/rental-plans.ts'
import { callToConfirm } from '../../domain/rental-request.ts'
import { serviceCallToConfirm } from '../../domain/service-request.ts'
import { leadPaths, staffPaths } from '../../domain/staff-paths.ts'
import type { NotificationKind, StoredInquiry } from '../inquiries/inquiry-store.ts'
import type { StaffAlertKind } from './staff-alerts.ts'
import { visible } from '../terminal.ts'
import { adfDocument } from './adf.ts'
import { interestLabel, newJerseyTime, requestFacts } from './lead-facts.ts'

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

/**
 * What a visitor typed, for one line of an email (issue #26, point 7): a line break, a control
 * character, a bidi override or a zero-width character is shown (`␊`, `<U+202E>`), never obeyed,
 * so a name cannot forge lines in the body or reorder what the dealer reads.
 */
function line(text: string): string {
  return visible(text.trim())
}

/**
 * A paragraph (the message): its own lines kept, each after the first indented under its label,
 * so no line of it can pass for one of ours ("Email:", "Received:"); everything else as `line`.
 */
function paragraph(text: string, indent: number): string {
  return text
    .trim()
    .split(/\r\n|\r|\n/)
    .map((part, i) => (i === 0 ? '' : ' '.repeat(indent)) + visible(part))
    .join('\n')
}

/** Invisible characters (removed) and controls and line breaks (a space) in the one free text the visitor's own email carries. */
const hidden = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g
const breaking = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g

/**
 * The first name as the visitor's confirmation greets it: the only text an attacker chooses that
 * goes to the address they typed, so the confirmation cannot carry their words to someone else.
 * Invisible and control characters removed, spaces collapsed, at most 40 characters; a "name"
 * that reads like an address or a link is greeted as "there".
 */
export function greetingName(firstName: string): string {
  const cleaned = firstName.replace(hidden, '').replace(breaking, ' ').replace(/\s+/g, ' ').trim()
  if (cleaned === '' || /[/@:<>]|www\.|\.[a-z]{2,}\b/i.test(cleaned)) return 'there'
  const chars = [...cleaned]
  return chars.length > 40 ? chars.slice(0, 40).join('').trim() : cleaned
}

function dealerEmail(lead: StoredInquiry, settings: MailSettings): Omit<MailMessage, 'messageId'> {
  const name = line(`${lead.firstName} ${lead.lastName}`)
  const interest = interestLabel(lead)
  const cart = lead.cartTitle
    ? `${lead.cartTitle}${lead.cartPrice !== null ? ` (${formatPrice(lead.cartPrice)})` : ''}`
    : lead.cartSlug
      ? `${lead.cartSlug} (no longer listed)`
      : undefined
  const cartUrl = lead.cartSlug ? `${settings.siteUrl}${paths.vehicle(lead.cartSlug)}` : undefined
  const oneLine = (value: string | null | undefined) => (value ? line(value) : undefined)
  const rows: [string, string | undefined][] = [
    ['Name', name],
    ['Email', oneLine(lead.email)],
    ['Phone', oneLine(lead.phone)],
    ['Interest', interest],
    ['Cart', oneLine(cart && cartUrl ? `${cart} ${cartUrl}` : cart)],
    ...requestFacts(lead).map(([label, value]): [string, string] => [label, line(value)]),
    ...(lead.rental ? [['Calendar', `${settings.siteUrl}${staffPaths.rentals}?from=${lead.rental.startDate}`] as [string, string]] : []),
    ['Message', lead.message ? paragraph(lead.message, 10) : undefined],
    ['Page', oneLine(lead.sourceUrl)],
    ['Source', oneLine(lead.sourceLabel)],
    ['Received', newJerseyTime(lead.createdAt)],
  ]
  const present = rows.filter((row): row is [string, string] => Boolean(row[1]))
  const subject = ['New lead', name, interest, oneLine(lead.cartTitle)].filter(Boolean).join(': ')
  return {
    from: settings.from,
    to: settings.leadsTo,
    replyTo: { name, address: lead.email },
    subject: [...subject].slice(0, 200).join(''),
    text: [
      `New inquiry #${lead.id} from the website. Reply to this email to answer ${line(lead.firstName)} directly.`,
      '',
      ...present.map(([label, value]) => `${`${label}:`.padEnd(10)}${value}`),
      '',
      `Promise on the site: a reply within ${business.claims.replyWithinHours} hours.`,
      ...(lead.rental || lead.service ? ['The visitor was told we will call to confirm: please do.'] : []),
    ].join('\n'),
    html: [
      `<p>New inquiry #${lead.id} from the website. Reply to this email to answer ${escape(line(lead.firstName))} directly.</p>`,
      '<table cellpadding="6" style="border-collapse:collapse;font-family:sans-serif">',
      ...present.map(
        ([label, value]) =>
          `<tr><th align="left" valign="top">${label}</th><td style="white-space:pre-wrap">${escape(label === 'Message' ? value.replace(/\n {10}/g, '\n') : value)}</td></tr>`,
      ),
      '</table>',
    ].join('\n'),
  }
}

/** The words of a staff alert: what happened, and whom it is about. */
function alertWords(kind: StaffAlertKind, lead: StoredInquiry): { title: string; body: string } {
  // What the visitor typed shows its line breaks and invisible characters, as in the dealer email.
  const name = line(`${lead.firstName} ${lead.lastName}`)
  const about = [interestLabel(lead), lead.cartTitle ? line(lead.cartTitle) : undefined].filter(Boolean).join(', ')
  const escalation = kind === 'escalation-alert' || kind === 'escalation-push'
  return {
    title: [...(escalation ? `Still waiting: lead #${lead.id}, ${name}` : `New lead #${lead.id}: ${name}`)].slice(0, 200).join(''),
    body: escalation
      ? `Nobody has answered ${line(lead.firstName)} yet${about ? ` (${about})` : ''}. Open the lead to call or email.`
      : `${about ? `${about}. ` : ''}${lead.phone ? `Call ${line(lead.phone)} or open` : 'Open'} the lead to answer.`,
  }
}

/**
 * The email alert to one staff member (PRODUCT.md, "lead alerts"): a lead for them, or one still
 * waiting (escalation), with a direct link to the lead in the console.
 */
export function buildStaffAlert(kind: StaffAlertKind, lead: StoredInquiry, to: string[], settings: MailSettings): MailMessage {
  const link = `${settings.siteUrl}${leadPaths.lead(lead.id)}`
  const { title, body } = alertWords(kind, lead)
  return {
    from: settings.from,
    to,
    subject: title,
    text: [body, '', link, '', `Received ${newJerseyTime(lead.createdAt)}.`].join('\n'),
    html: `<p>${escape(body)}</p>\n<p><a href="${escape(link)}">Open lead #${lead.id} in the console</a></p>\n<p>Received ${escape(newJerseyTime(lead.createdAt))}.</p>`,
    messageId: `<lead-${lead.id}-${kind}-${to.join(',').replace(/[^\w.-]/g, '_').slice(0, 60)}@${new URL(settings.siteUrl).hostname}>`,
  }
}

/** A push notification's payload, which the console's service worker shows; tapping it opens the lead. */
export function pushPayload(kind: StaffAlertKind, lead: StoredInquiry): string {
  return JSON.stringify({ ...alertWords(kind, lead), url: leadPaths.lead(lead.id), tag: `lead-${lead.id}` })
}

/**
 * The request as the visitor's confirmation repeats it: only what they chose from our lists (cart,
 * plan, dates, showroom, needs, days), never what they typed (a street, a town, a make or model),
 * which an attacker could otherwise send to any address through us.
 */
function confirmationFacts(lead: StoredInquiry): [string, string][] {
  if (lead.rental) {
    return requestFacts(lead).map(([label, value]): [string, string] =>
      label === 'Delivery'
        ? [label, `To the address you gave${lead.rental!.deliveryFee !== null ? `, estimated fee ${formatDollars(lead.rental!.deliveryFee)}` : ''}`]
        : [label, value],
    )
  }
  return requestFacts(lead).filter(([label]) => label !== 'Service for')
}

function visitorConfirmation(lead: StoredInquiry, settings: MailSettings): Omit<MailMessage, 'messageId'> {
  const request = confirmationFacts(lead)
  const what = lead.rental ? 'rental request' : lead.service ? 'service request' : 'message'
  return {
    from: settings.from,
    to: [lead.email],
    replyTo: business.email,
    subject: `We received your ${what} - ${business.name}`,
    text: [
      `Hi ${greetingName(lead.firstName)},`,
      '',
      `Thanks for contacting ${business.name}. We received your ${what} and will get back to you within ${business.claims.replyWithinHours} hours.`,
      ...(request.length > 0
        ? ['', lead.rental ? callToConfirm : serviceCallToConfirm, '', ...request.map(([label, value]) => `${`${label}:`.padEnd(13)}${value}`)]
        : []),
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
