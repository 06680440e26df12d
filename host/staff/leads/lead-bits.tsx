import type { LeadDelivery, LeadSummary } from '../../../api/staff/lead-inbox.ts'
import { type LeadStatus, leadStatusLabels } from '../../../domain/lead-status.ts'
import { dealerTime, pageHost, telHref } from './inbox-filter.ts'

/** Small pieces the inbox and a lead's page share. */

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

/** One-click ways to reach the visitor. */
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
      <a href={`mailto:${lead.email}?subject=${subject}`} className={props.large ? 'staff-link-button' : undefined}>
        {props.large ? `Email ${lead.email}` : lead.email}
      </a>
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
