import { formatPrice } from '../../domain/golf-cart.ts'
import type { Sql } from '../db/database.ts'
import { visible } from '../terminal.ts'
import { newJerseyTime } from './lead-facts.ts'
import { notificationKinds } from '../inquiries/inquiry-store.ts'
import { interestOptions } from '../../domain/inquiry.ts'
import { type LeadStatus, leadStatusLabels } from '../../domain/lead-status.ts'

/** One lead as staff read it (`npm run leads`), with how its notifications went. */
export interface LeadRow {
  id: number
  receivedAt: string
  firstName: string
  lastName: string
  email: string
  phone: string | null
  interest: string | null
  cart: string | null
  cartPrice: number | null
  message: string | null
  sourceUrl: string | null
  sourceLabel: string | null
  /** "sent", "queued", "retrying: <last error>", or "not queued". */
  delivery: string
  /** Where staff are with it (the inbox at /staff/leads), and who has it. */
  status: LeadStatus
  owner: string | null
}

/** Leads since a date, newest first; spam (honeypot, filled too fast) only when asked. */
export async function recentLeads(sql: Sql, since: Date, options: { spam?: boolean } = {}): Promise<LeadRow[]> {
  const rows = await sql<
    (Omit<LeadRow, 'receivedAt' | 'delivery'> & {
      createdAt: Date
      total: number
      sent: number
      lastError: string | null
      spamReason: string | null
    })[]
  >`
    select i.id, i.created_at, i.first_name, i.last_name, i.email, i.phone, i.interest,
           coalesce(i.cart_title, i.cart_slug) as cart, i.cart_price::float8 as cart_price,
           i.message, i.source_url, i.source_label,
           count(o.id)::int as total, count(o.sent_at)::int as sent,
           max(o.last_error) filter (where o.sent_at is null) as last_error, i.spam_reason,
           i.status, min(u.username) as owner
    from contact_inquiries i
    left join outbox_messages o on o.inquiry_id = i.id and o.kind in ${sql(notificationKinds)}
    left join users u on u.id = i.owner_id
    where i.created_at >= ${since} and (${options.spam ?? false} or i.spam_reason is null)
    group by i.id
    order by i.created_at desc, i.id desc
  `
  return rows.map(({ createdAt, total, sent, lastError, spamReason, ...row }) => ({
    ...row,
    receivedAt: createdAt.toISOString(),
    delivery: spamReason
      ? `spam (${spamReason}), not sent`
      : total === 0
        ? 'not queued'
        : sent === total
          ? 'sent'
          : lastError
            ? `retrying: ${lastError}`
            : 'queued',
  }))
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
