import type { ReactNode } from 'react'
import type { LeadDelivery } from '../../../api/leads/lead-read-model.ts'
import type { LeadSummary } from '../../../api/staff/lead-inbox.ts'
import { type LeadStatus, leadStatusLabels } from '../../../domain/lead-status.ts'
import { type Column, StaffTable } from '../staff-table.tsx'
import { dealerTime, inboxPageSize, pageHost, telHref } from './inbox-filter.ts'

/** Small pieces the inbox, the Spam view and a lead's page share. */

export function StatusBadge(props: { status: LeadStatus }) {
  return <span className={`lead-status lead-status--${props.status}`}>{leadStatusLabels[props.status]}</span>
}

export const notificationLabels: Record<LeadDelivery['kind'], string> = {
  'dealer-email': "Dealer's email",
  'crm-adf': 'CRM lead (ADF)',
  'visitor-confirmation': "Visitor's confirmation",
}

const deliveryWords: Record<LeadSummary['delivery'], string> = {
  sent: 'Sent',
  queued: 'Queued',
  sending: 'Sending',
  failed: 'Failed',
  none: 'Not queued',
}

/** The notifications' joint state in a word; a failure says when the next attempt is. */
export function DeliveryState(props: { lead: Pick<LeadSummary, 'delivery' | 'deliveries'> }) {
  const failed = props.lead.deliveries.find((d) => d.state === 'failed')
  return (
    <span className={`lead-delivery lead-delivery--${props.lead.delivery}`}>
      {deliveryWords[props.lead.delivery]}
      {failed?.nextAttemptAt && <span className="lead-delivery__retry">, retry {dealerTime(failed.nextAttemptAt)}</span>}
    </span>
  )
}

/**
 * One-click ways to reach the visitor. On the lead's page (`large`) the email is written in the
 * reply box, so the product sees it (PRODUCT.md, "replies from the console"): the link goes there.
 */
export function ContactLinks(props: { lead: Pick<LeadSummary, 'email' | 'phone' | 'firstName'>; large?: boolean }) {
  const { lead } = props
  const subject = encodeURIComponent('Your golf cart inquiry')
  return (
    <span className={props.large ? 'lead-contact lead-contact--large' : 'lead-contact'}>
      {lead.phone && (
        <a href={telHref(lead.phone)} className={props.large ? 'staff-button' : undefined}>
          {props.large ? `Call ${lead.phone}` : lead.phone}
        </a>
      )}
      {props.large ? (
        <a href="#reply" className="staff-link-button">
          Email or text {lead.firstName}
        </a>
      ) : (
        <a href={`mailto:${lead.email}?subject=${subject}`}>{lead.email}</a>
      )}
    </span>
  )
}

/** Where the lead came from: the embed's label and the page's host, linked to the page. */
export function LeadSource(props: { lead: Pick<LeadSummary, 'sourceLabel' | 'sourceUrl'> }) {
  const host = pageHost(props.lead.sourceUrl)
  if (!props.lead.sourceLabel && !host) return <span className="muted">Not given</span>
  return (
    <span className="lead-source">
      {props.lead.sourceLabel && <span className="lead-source__label">{props.lead.sourceLabel}</span>}
      {host && (
        <a href={props.lead.sourceUrl!} rel="noopener noreferrer nofollow" target="_blank" className="lead-source__page">
          {host}
        </a>
      )}
    </span>
  )
}

/** A list's message: its first 300 characters, an ellipsis when there was more. */
export function MessagePreview(props: { lead: Pick<LeadSummary, 'message' | 'messageCut'> }) {
  const { message, messageCut } = props.lead
  return message ? `${message}${messageCut ? '…' : ''}` : <span className="staff-muted">No message</span>
}

/** Which of `total` a page of 50 shows: "51–100 of 230 leads, newest first". */
export function pageRange(page: number, total: number, noun: string): string {
  const first = (page - 1) * inboxPageSize
  const count = (n: number) => n.toLocaleString('en-US')
  return `${count(first + 1)}–${count(Math.min(first + inboxPageSize, total))} of ${count(total)} ${noun}, newest first`
}

/** Links to the newer and the older page of a list of 50 a page, and which page this is; nothing for one page. */
export function PageLinks(props: { label: string; page: number; total: number; href: (page: number) => string; newer: string; older: string }) {
  const { page, total } = props
  if (total <= inboxPageSize) return null
  return (
    <nav className="staff-pages" aria-label={props.label}>
      {page > 1 ? <a href={props.href(page - 1)}>{props.newer}</a> : <span />}
      <span>
        Page {page.toLocaleString('en-US')} of {Math.ceil(total / inboxPageSize).toLocaleString('en-US')}
      </span>
      {page * inboxPageSize < total ? <a href={props.href(page + 1)}>{props.older}</a> : <span />}
    </nav>
  )
}

/** A cell of a lead list: its column's name for the card each row becomes on a phone (`data-label`). */
export function LeadCell(props: { label: string; className?: string; children: ReactNode }) {
  return (
    <td data-label={props.label} className={props.className}>
      <div>{props.children}</div>
    </td>
  )
}

/** The columns the inbox and the Spam view show alike: what the lead wrote, and where. */
export function MessageAndSourceCells(props: { lead: Pick<LeadSummary, 'message' | 'messageCut' | 'sourceLabel' | 'sourceUrl'> }) {
  return (
    <>
      <LeadCell label="Message" className="lead-table__message">
        <MessagePreview lead={props.lead} />
      </LeadCell>
      <LeadCell label="Source">
        <LeadSource lead={props.lead} />
      </LeadCell>
    </>
  )
}

/**
 * A list of leads (the inbox, Spam): the line that counts them (`countId`, read with the table),
 * then, when there are any, the table whose rows turn into cards on a phone (`LeadCell`).
 */
export function LeadTable(props: { countId: string; count: ReactNode; rows: number; className?: string; caption: string; columns: readonly Column[]; children: ReactNode }) {
  return (
    <>
      <p className="staff-count" id={props.countId}>
        {props.count}
      </p>
      {props.rows > 0 && (
        <StaffTable className={`lead-table ${props.className ?? ''}`.trim()} wrap={false} describedBy={props.countId} caption={props.caption} columns={props.columns}>
          {props.children}
        </StaffTable>
      )}
    </>
  )
}
