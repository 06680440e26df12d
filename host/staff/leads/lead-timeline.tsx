import type { MessageStatus, TimelineEntry } from '../../../api/leads/lead-timeline.ts'
import { callOutcomeLabels } from '../../../domain/lead-replies.ts'
import { type LeadStatus, leadStatusLabels } from '../../../domain/lead-status.ts'
import { readablePhone } from '../../../domain/phone-number.ts'
import { sendTimeWords } from '../../../domain/texting.ts'
import { leadPaths } from '../../../domain/staff-paths.ts'
import { dealerTime } from './inbox-filter.ts'

/**
 * A lead's timeline, or a customer's (api/leads/lead-timeline.ts): every email and text in and
 * out, call, note, status change and change of owner, each with who and when, newest first, so
 * the last word is the first thing read on a phone, under the reply box. On a customer's page
 * each entry names the lead it belongs to (`leadLinks`).
 */
const messageStates: Record<MessageStatus, string> = {
  queued: 'going out now',
  waiting: 'waiting for texting hours',
  sent: 'sent',
  delivered: 'delivered',
  undelivered: 'not delivered',
  failed: 'failed',
  'not-sent': 'not sent',
  received: 'received',
}

const statusWord = (value: string | null) => (value === null ? 'nobody' : (leadStatusLabels[value as LeadStatus] ?? value))

/** What happened, in a few words after who did it: "emailed tess@example.com". */
function headline(entry: TimelineEntry): string {
  switch (entry.kind) {
    case 'arrived':
      return 'sent the request'
    case 'message': {
      const address = entry.channel === 'email' ? entry.address : readablePhone(entry.address)
      if (entry.direction === 'in') return entry.channel === 'email' ? `emailed from ${address}` : `texted from ${address}`
      return entry.channel === 'email' ? `emailed ${address}` : `texted ${address}`
    }
    case 'call':
      return `called: ${callOutcomeLabels[entry.outcome].toLowerCase()}`
    case 'note':
      return 'added a note'
    case 'status':
      return `changed the status from ${statusWord(entry.before)} to ${statusWord(entry.after)}`
    case 'owner':
      return entry.after === null ? `took the lead away from ${entry.before ?? 'nobody'}` : `gave the lead to ${entry.after}`
  }
}

function MessageState({ entry }: { entry: Extract<TimelineEntry, { kind: 'message' }> }) {
  if (entry.direction === 'in') return null
  const bad = entry.status === 'failed' || entry.status === 'undelivered' || entry.status === 'not-sent'
  return (
    <p className={`lead-timeline__state lead-timeline__state--${bad ? 'bad' : entry.status}`}>
      {entry.status === 'waiting' && entry.waitsUntil
        ? `Waits until ${sendTimeWords(new Date(entry.waitsUntil))}, New Jersey time (no texts between 9 PM and 8 AM).`
        : `${messageStates[entry.status][0]!.toUpperCase()}${messageStates[entry.status].slice(1)}.`}
      {entry.statusDetail && ` ${entry.statusDetail}`}
    </p>
  )
}

function body(entry: TimelineEntry): string | null {
  switch (entry.kind) {
    case 'arrived':
      return entry.message
    case 'message':
    case 'note':
      return entry.body
    case 'call':
      return entry.note
    default:
      return null
  }
}

export function LeadTimeline(props: { entries: readonly TimelineEntry[]; leadLinks?: boolean }) {
  if (props.entries.length === 0) return <p className="staff-muted">Nothing has happened yet.</p>
  return (
    <ol className="lead-timeline">
      {props.entries.map((entry) => {
        const text = body(entry)
        const channel = entry.kind === 'message' ? ` lead-timeline__item--${entry.channel}-${entry.direction}` : ''
        return (
          <li key={entry.key} className={`lead-timeline__item lead-timeline__item--${entry.kind}${channel}`}>
            <p className="lead-timeline__meta">
              <strong>{entry.who}</strong> {headline(entry)}
              <span className="lead-timeline__when">
                {', '}
                <time dateTime={entry.at}>{dealerTime(entry.at)}</time>
                {props.leadLinks && (
                  <>
                    {', '}
                    <a href={leadPaths.lead(entry.leadId)}>lead {entry.leadId}</a>
                  </>
                )}
              </span>
            </p>
            {text && <p className="lead-timeline__body">{text}</p>}
            {entry.kind === 'message' && <MessageState entry={entry} />}
          </li>
        )
      })}
    </ol>
  )
}
