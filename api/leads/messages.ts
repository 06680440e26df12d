import { business, formatHours } from '../../domain/business.ts'
import { formatPrice } from '../../domain/golf-cart.ts'
import { paths } from '../../domain/site-paths.ts'
import { formatDollars } from '../../domain/dollars.ts'
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
  /** The dealer's sending address; a reply's carries the salesperson's name. */
  from: string | MailAddress
  to: string[]
  /** Never built by pasting text into a header: a name ending in "\\" once swallowed the address. */
  replyTo?: MailAddress | string
  subject: string
  text: string
  html?: string
  /** The same for every attempt, so a mail system that sees a retry can tell it is one. */
  messageId: string
  /** Headers of our own (a watcher's `List-Unsubscribe`, api/alerts/alert-messages.ts). */
  headers?: Record<string, string>
  /** Files sent with it (a booking's `.ics` invitation, api/appointments/appointment-messages.ts). */
  attachments?: { filename: string; content: string; contentType: string }[]
}

export interface MailSettings {
  from: string
  leadsTo: string[]
  adfTo: string[]
  siteUrl: string
  /** This installation's random mark (`installation.mark`), in every Message-ID: see `messageId`. */
  mark: string
}

/**
 * A message's Message-ID: what it is (`lead-12-dealer-email`), this installation's random mark and
 * the site's host. The same for every attempt of one message; never the same for two
 * installations, or a database made anew, whose leads are numbered from 1 again (issue #48).
 */
/** What an email of the outbox came to: sent, or where it failed (the outbox's retry says which). */
export type MailOutcome = { sent: true } | { failed: 'reading the lead' | 'mail server'; error: unknown }

/**
 * One email of the outbox: `compose` builds it from what the database holds now (a failure there
 * is "reading the lead"; it may instead end the row with an outcome of its own, `{ outcome }`, as
 * a superseded booking or a refund does), then the mail server takes it ("mail server").
 */
export async function composeAndSend<Other>(
  send: ((message: MailMessage) => Promise<unknown>) | undefined,
  compose: () => Promise<MailMessage | { outcome: Other }>,
): Promise<MailOutcome | Other> {
  let message: MailMessage
  try {
    const composed = await compose()
    if ('outcome' in composed) return composed.outcome
    message = composed
  } catch (error) {
    return { failed: 'reading the lead', error }
  }
  try {
    if (!send) throw new Error('no mail server configured')
    await send(message)
  } catch (error) {
    return { failed: 'mail server', error }
  }
  return { sent: true }
}

export function messageId(settings: Pick<MailSettings, 'siteUrl' | 'mark'>, what: string): string {
  return `<${what}.${settings.mark}@${new URL(settings.siteUrl).hostname}>`
}

/** Builds the message an outbox row stands for. */
export function buildMessage(kind: NotificationKind, lead: StoredInquiry, settings: MailSettings): MailMessage {
  const id = messageId(settings, `lead-${lead.id}-${kind}`)
  switch (kind) {
    case 'dealer-email':
      return { ...dealerEmail(lead, settings), messageId: id }
    case 'crm-adf':
      return {
        from: settings.from,
        to: settings.adfTo,
        subject: `ADF lead ${lead.id} from ${business.name} website`,
        text: adfDocument(lead, settings.siteUrl),
        messageId: id,
      }
    case 'visitor-confirmation':
      return { ...visitorConfirmation(lead, settings), messageId: id }
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
  // The shared mailbox's reader works the lead in the console, as an assignee's alert does (PRODUCT.md, "alert links").
  const leadLink = `${settings.siteUrl}${leadPaths.lead(lead.id)}`
  return {
    from: settings.from,
    to: settings.leadsTo,
    replyTo: { name, address: lead.email },
    subject: [...subject].slice(0, 200).join(''),
    text: [
      `New inquiry #${lead.id} from the website. Reply to this email to answer ${line(lead.firstName)} directly.`,
      `Open it in the console: ${leadLink}`,
      '',
      ...present.map(([label, value]) => `${`${label}:`.padEnd(10)}${value}`),
      '',
      `Promise on the site: a reply within ${business.claims.replyWithinHours} hours.`,
      ...(lead.rental || lead.service ? ['The visitor was told we will call to confirm: please do.'] : []),
    ].join('\n'),
    html: [
      `<p>New inquiry #${lead.id} from the website. Reply to this email to answer ${escape(line(lead.firstName))} directly.</p>`,
      `<p><a href="${escape(leadLink)}">Open lead #${lead.id} in the console</a></p>`,
      '<table cellpadding="6" style="border-collapse:collapse;font-family:sans-serif">',
      ...present.map(
        ([label, value]) =>
          `<tr><th align="left" valign="top">${label}</th><td style="white-space:pre-wrap">${escape(label === 'Message' ? value.replace(/\n {10}/g, '\n') : value)}</td></tr>`,
      ),
      '</table>',
    ].join('\n'),
  }
}

/** A text the shopper sent, which a `text-alert` or `text-push` is about. */
export interface TextIn {
  body: string
}

/** A follow-up a `task-alert` or `task-push` is about. */
export interface TaskDue {
  id: number
  note: string
  dueAt: Date
}

/** The words of a staff alert: what happened, and whom it is about. */
function alertWords(kind: StaffAlertKind, lead: StoredInquiry, text?: TextIn, task?: TaskDue): { title: string; body: string } {
  // What the visitor typed shows its line breaks and invisible characters, as in the dealer email.
  const name = line(`${lead.firstName} ${lead.lastName}`)
  const about = [interestLabel(lead), lead.cartTitle ? line(lead.cartTitle) : undefined].filter(Boolean).join(', ')
  const cut = (words: string) => [...words].slice(0, 200).join('')
  if (kind === 'text-alert' || kind === 'text-push') {
    const said = [...line((text?.body ?? '').replace(/\s+/g, ' '))]
    return {
      title: cut(`Text from ${name} (lead #${lead.id})`),
      body: `“${said.slice(0, 300).join('')}${said.length > 300 ? '…' : ''}” Open the lead to answer.`,
    }
  }
  if (kind === 'task-alert' || kind === 'task-push') {
    const note = [...line((task?.note ?? '').replace(/\s+/g, ' '))]
    return {
      title: cut(`Follow up now: ${name} (lead #${lead.id})`),
      body: `“${note.slice(0, 300).join('')}${note.length > 300 ? '…' : ''}”${lead.phone ? ` Call ${line(lead.phone)} or open` : ' Open'} the lead.`,
    }
  }
  if (kind === 'escalation-alert' || kind === 'escalation-push') {
    return {
      title: cut(`Still waiting: lead #${lead.id}, ${name}`),
      body: `Nobody has answered ${line(lead.firstName)} yet${about ? ` (${about})` : ''}. Open the lead to call or email.`,
    }
  }
  // A repeat says so, and of which lead (PRODUCT.md, "customers"): it went to whoever has the shopper.
  const repeat = lead.repeatOf !== null ? `A repeat of lead #${lead.repeatOf}: ${line(lead.firstName)} wrote before. ` : ''
  return {
    title: cut(lead.repeatOf !== null ? `Repeat lead #${lead.id} (after #${lead.repeatOf}): ${name}` : `New lead #${lead.id}: ${name}`),
    body: `${repeat}${about ? `${about}. ` : ''}${lead.phone ? `Call ${line(lead.phone)} or open` : 'Open'} the lead to answer.`,
  }
}

/**
 * The email alert to one staff member (PRODUCT.md, "lead alerts"): a lead for them, one still
 * waiting (escalation), or a text its shopper sent, with a direct link to the lead in the console.
 */
export function buildStaffAlert(kind: StaffAlertKind, lead: StoredInquiry, to: string[], settings: MailSettings, text?: TextIn & { id: number }, task?: TaskDue): MailMessage {
  const link = `${settings.siteUrl}${leadPaths.lead(lead.id)}`
  const { title, body } = alertWords(kind, lead, text, task)
  const what = text ? `${kind}-${text.id}` : task ? `${kind}-${task.id}` : kind
  return {
    from: settings.from,
    to,
    subject: title,
    text: [body, '', link, '', `Received ${newJerseyTime(lead.createdAt)}.`].join('\n'),
    html: `<p>${escape(body)}</p>\n<p><a href="${escape(link)}">Open lead #${lead.id} in the console</a></p>\n<p>Received ${escape(newJerseyTime(lead.createdAt))}.</p>`,
    messageId: messageId(settings, `lead-${lead.id}-${what}-${to.join(',').replace(/[^\w.-]/g, '_').slice(0, 60)}`),
  }
}

/** A push notification's payload, which the console's service worker shows; tapping it opens the lead. */
export function pushPayload(kind: StaffAlertKind, lead: StoredInquiry, text?: TextIn, task?: TaskDue): string {
  return JSON.stringify({ ...alertWords(kind, lead, text, task), url: leadPaths.lead(lead.id), tag: task ? `task-${task.id}` : `lead-${lead.id}` })
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
