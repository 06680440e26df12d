import { formatPrice } from '../../domain/golf-cart.ts'
import type { Sql } from '../db/database.ts'
import { visible } from '../terminal.ts'
import { newJerseyTime } from './lead-facts.ts'
import { type DeliveredLead, type Lead, leadFields, readLeads, withDeliveries } from './lead-read-model.ts'
import { interestOptions } from '../../domain/inquiry.ts'
import { leadStatusLabels } from '../../domain/lead-status.ts'

const reportFields = ['id', 'firstName', 'lastName', 'email', 'phone', 'interest', 'message', 'sourceUrl', 'sourceLabel', 'status'] as const

/**
 * One lead as staff read it (`npm run leads`): the lead (api/leads/lead-read-model.ts) flat, as a
 * spreadsheet wants it, with how its notifications went.
 */
export type LeadRow = Pick<Lead, (typeof reportFields)[number]> & {
  /** ISO 8601 in UTC, to the millisecond. */
  receivedAt: string
  /** The cart's title, else its slug. */
  cart: string | null
  cartPrice: number | null
  /** "sent", "queued", "retrying: <last error>", or "not queued". */
  delivery: string
  /** Who has it (where staff are with it is `status`, as the inbox at /staff/leads shows it). */
  owner: string | null
}

/** Leads since a date, newest first; spam (honeypot, filled too fast) only when asked. */
export async function recentLeads(sql: Sql, since: Date, options: { spam?: boolean } = {}): Promise<LeadRow[]> {
  const leads = await readLeads(sql, sql`i.created_at >= ${since} and (${options.spam ?? false} or i.spam_reason is null)`)
  return (await withDeliveries(sql, leads)).map((lead) => ({
    ...leadFields(lead, reportFields),
    receivedAt: new Date(lead.receivedAt).toISOString(),
    cart: lead.cart && (lead.cart.title ?? lead.cart.slug),
    cartPrice: lead.cart?.price ?? null,
    delivery: deliveryWords(lead),
    owner: lead.owner?.username ?? null,
  }))
}

/** The notifications' delivery in words; an error of one not sent yet is the one a retry is about. */
function deliveryWords(lead: DeliveredLead): string {
  if (lead.spamReason) return `spam (${lead.spamReason}), not sent`
  if (lead.deliveries.length === 0) return 'not queued'
  const unsent = lead.deliveries.filter((d) => d.state !== 'sent')
  if (unsent.length === 0) return 'sent'
  const lastError = unsent.flatMap((d) => (d.lastError ? [d.lastError] : [])).sort().at(-1)
  return lastError ? `retrying: ${lastError}` : 'queued'
}

/** "7d", "24h", "30m" or a date ("2026-11-01"). */
export function parseSince(text: string, now = new Date()): Date {
  const relative = /^(\d+)\s*([mhdw])$/i.exec(text.trim())
  if (relative) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[relative[2]!.toLowerCase() as 'm']
    return new Date(now.getTime() - Number(relative[1]) * unit)
  }
  const date = new Date(text)
  if (Number.isNaN(date.getTime())) throw new Error(`--since takes 7d, 24h, 30m or a date like 2026-11-01, not "${text}"`)
  return date
}

export function leadsAsText(rows: readonly LeadRow[]): string {
  if (rows.length === 0) return 'No leads in that period.'
  const label = (value: string | null) => interestOptions.find((o) => o.value === value)?.label
  return rows
    .map((lead) =>
      [
        `#${lead.id}  ${newJerseyTime(new Date(lead.receivedAt))}`,
        `  ${lead.firstName} ${lead.lastName} <${lead.email}>${lead.phone ? `  ${lead.phone}` : ''}`,
        ...(lead.interest ? [`  Interest: ${label(lead.interest) ?? lead.interest}`] : []),
        ...(lead.cart ? [`  Cart: ${lead.cart}${lead.cartPrice !== null ? ` (${formatPrice(lead.cartPrice)})` : ''}`] : []),
        // A message's own line breaks read as " / "; every other control character is shown.
        ...(lead.message ? [`  Message: ${lead.message.replace(/[ \t]*(\r\n|\r|\n)[ \t]*/g, ' / ')}`] : []),
        ...(lead.sourceUrl || lead.sourceLabel ? [`  From: ${[lead.sourceLabel, lead.sourceUrl].filter(Boolean).join('  ')}`] : []),
        `  Status: ${leadStatusLabels[lead.status] ?? lead.status}${lead.owner ? `, owner ${lead.owner}` : ', nobody owns it'}`,
        `  Delivery: ${lead.delivery}`,
      ]
        .map((line) => visible(line))
        .join('\n'),
    )
    .join('\n\n')
}

const csvColumns: (keyof LeadRow)[] = [
  'id', 'receivedAt', 'firstName', 'lastName', 'email', 'phone', 'interest', 'cart', 'cartPrice',
  'message', 'sourceUrl', 'sourceLabel', 'delivery', 'status', 'owner',
]

/**
 * One CSV cell for a spreadsheet. A cell that starts with = + - @, a tab or a carriage return is
 * prefixed with an apostrophe, so a visitor cannot plant a formula that runs when staff open the
 * file; a cell with a comma, a semicolon (the separator of spreadsheets in many locales, where
 * `x;=HYPERLINK(...)` would otherwise become a live second cell), a quote or a line break is
 * quoted. Control characters other than line breaks and tabs are shown, as in the text output.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = visible(value === null || value === undefined ? '' : String(value), '\r\n\t')
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** RFC 4180 CSV for a spreadsheet, every cell made safe by `csvCell`. */
export function leadsAsCsv(rows: readonly LeadRow[]): string {
  return [csvColumns.join(','), ...rows.map((row) => csvColumns.map((c) => csvCell(row[c])).join(','))].join('\r\n') + '\r\n'
}
