import { TRPCError } from '@trpc/server'
import { RequestFacts } from './request-facts.tsx'
import type { AuditEntry } from '../../../api/staff/audit.ts'
import type { NotificationKind } from '../../../api/inquiries/inquiry-store.ts'
import { answerWithinMs, type LeadStatus, leadStatuses, leadStatusLabels } from '../../../domain/lead-status.ts'
import { leadPaths } from '../../../domain/staff-paths.ts'
import { abilityAccess, procedureAccess, roleAllows } from '../../../domain/staff-access.ts'
import { type PostOutcome, type StaffPageContext, type StaffPageProps, StaffNotFound, staffPage } from '../page.ts'
import { dealerTime, duration, interestLabel } from './inbox-filter.ts'
import { ContactLinks, DeliveryState, LeadSource, notificationLabels, StatusBadge } from './lead-bits.tsx'

/**
 * `/staff/leads/{id}`: one lead and the work on it: call or email in one click, status, owner,
 * notes, its emails with "Send again now", its history. Every change is a plain form post
 * (answered with a redirect back here); the read-only parts are live regions, so a colleague's
 * change shows within 5 seconds (host/staff/leads/live-regions.ts).
 */
const leadId = (context: StaffPageContext) => {
  const id = context.params.id ?? ''
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) throw new StaffNotFound(`No lead at ${id}`)
  return Number(id)
}

const notFoundAsStaffNotFound = (error: unknown): never => {
  if (error instanceof TRPCError && error.code === 'NOT_FOUND') throw new StaffNotFound(error.message)
  throw error
}

const doneMessages = {
  status: 'Status saved.',
  owner: 'Owner saved.',
  note: 'Note added.',
  resend: 'Sending again now.',
} as const
type Done = keyof typeof doneMessages

async function loadLead(context: StaffPageContext) {
  const id = leadId(context)
  const [lead, choices] = await Promise.all([
    context.caller.staff.lead.get({ id }).catch(notFoundAsStaffNotFound),
    context.caller.staff.lead.choices(),
  ])
  const done = context.query.get('done')
  return {
    lead,
    owners: choices.owners,
    me: choices.owners.find((o) => o.username === context.username),
    // What this role may do here (domain/staff-access.ts); the procedures refuse the rest anyway.
    mayAssignAnyone: roleAllows(context.role, abilityAccess.assignLeadsToAnyone[0]),
    mayResend: roleAllows(context.role, procedureAccess['staff.lead.resend']![0]),
    done: done && done in doneMessages ? (done as Done) : undefined,
  }
}

type LeadData = Awaited<ReturnType<typeof loadLead>>

async function postLead(context: StaffPageContext, form: Record<string, string>): Promise<PostOutcome> {
  const id = leadId(context)
  const lead = context.caller.staff.lead
  const back = (done: Done, anchor: string) => ({ redirect: `${leadPaths.lead(id)}?done=${done}#${anchor}` })
  try {
    switch (form.action) {
      case 'status':
        await lead.setStatus({ id, status: form.status as LeadStatus })
        return back('status', 'work')
      case 'assign':
        await lead.assign({ id, ownerId: form.owner ? Number(form.owner) : null })
        return back('owner', 'work')
      case 'note':
        await lead.addNote({ id, text: form.text ?? '' })
        return back('note', 'notes')
      case 'resend':
        await lead.resend({ id, kind: form.kind as NotificationKind })
        return back('resend', 'emails')
      default:
        return { status: 400, posted: { values: form, errors: {}, message: 'That is not something this page can do.' } }
    }
  } catch (error) {
    if (error instanceof TRPCError && error.code === 'NOT_FOUND' && /lead/.test(error.message)) throw new StaffNotFound(error.message)
    return context.refused(error, form)
  }
}

function LeadPage({ data, posted }: StaffPageProps<LeadData>) {
  const { lead } = data
  return (
    <div className="lead-page">
      <p className="lead-back">
        <a href={leadPaths.inbox}>All leads</a>
      </p>
      <div className="staff-heading">
        <h1>
          {lead.firstName} {lead.lastName}
        </h1>
        <span data-live="status-badge">
          <StatusBadge status={lead.status} />
        </span>
      </div>
      <p className="lead-page__received" data-live="received">
        Received <time dateTime={lead.receivedAt}>{dealerTime(lead.receivedAt)}</time>. <FirstResponse lead={lead} />
      </p>
      <ContactLinks lead={lead} large />
      {data.done && !posted && (
        <p className="staff-alert staff-alert--done" role="status">
          {doneMessages[data.done]}
        </p>
      )}
      {posted?.message && (
        <p className="staff-alert staff-alert--error" role="alert">
          {posted.message}
        </p>
      )}
      <div className="lead-page__columns">
        <section aria-labelledby="lead-asked" className="lead-panel">
          <h2 id="lead-asked">What they asked</h2>
          <dl className="lead-facts">
            <dt>Interest</dt>
            <dd>{interestLabel(lead.interest)}</dd>
            <dt>Cart</dt>
            <dd>
              {lead.cart ? <a href={`/vehicle/${lead.cart.slug}`}>{lead.cart.title ?? lead.cart.slug}</a> : <span className="staff-muted">None</span>}
            </dd>
            <RequestFacts lead={lead} />
            <dt>Source</dt>
            <dd>
              <LeadSource lead={lead} />
            </dd>
            {lead.sourceUrl && (
              <>
                <dt>Page</dt>
                <dd className="lead-facts__url">{lead.sourceUrl}</dd>
              </>
            )}
            <dt>Message</dt>
            <dd className="lead-facts__message">{lead.message ?? <span className="staff-muted">No message</span>}</dd>
            {lead.repeatOf && (
              <>
                <dt>Repeat</dt>
                <dd>
                  Same email or phone as an <a href={leadPaths.lead(lead.repeatOf.id)}>earlier lead</a> of{' '}
                  <time dateTime={lead.repeatOf.receivedAt}>{dealerTime(lead.repeatOf.receivedAt)}</time>
                </dd>
              </>
            )}
            {lead.repeats.length > 0 && (
              <>
                <dt>Wrote again</dt>
                <dd>
                  <ul className="lead-repeats">
                    {lead.repeats.map((later) => (
                      <li key={later.id}>
                        <a href={leadPaths.lead(later.id)}>
                          <time dateTime={later.receivedAt}>{dealerTime(later.receivedAt)}</time>
                        </a>
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
          </dl>
        </section>
        <section aria-labelledby="work-heading" className="lead-panel" id="work">
          <h2 id="work-heading">Work the lead</h2>
          <p id="status-label" className="lead-label">
            Status
          </p>
          <div className="lead-status-forms" role="group" aria-labelledby="status-label" data-live="status-buttons">
            {leadStatuses.map((status) => (
              <form key={status} method="post" action={leadPaths.lead(lead.id)}>
                <input type="hidden" name="action" value="status" />
                <input type="hidden" name="status" value={status} />
                <button type="submit" className="lead-status-button" aria-pressed={lead.status === status}>
                  {leadStatusLabels[status]}
                </button>
              </form>
            ))}
          </div>
          <p className="lead-label">
            Owner: <strong data-live="owner">{lead.owner?.username ?? 'nobody'}</strong>
          </p>
          {data.mayAssignAnyone && (
            <form method="post" action={leadPaths.lead(lead.id)} className="lead-owner">
              <input type="hidden" name="action" value="assign" />
              <label htmlFor="lead-owner" className="staff-sr-only">
                Give the lead to
              </label>
              <select id="lead-owner" name="owner" defaultValue={String(lead.owner?.id ?? '')}>
                <option value="">Nobody</option>
                {data.owners.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.username}
                  </option>
                ))}
              </select>
              <button type="submit" className="staff-link-button">
                Assign
              </button>
            </form>
          )}
          {data.me && lead.owner?.id !== data.me.id && (
            <form method="post" action={leadPaths.lead(lead.id)} className="lead-take">
              <input type="hidden" name="action" value="assign" />
              <input type="hidden" name="owner" value={data.me.id} />
              <button type="submit" className="staff-button">
                Take it
              </button>
            </form>
          )}
        </section>
      </div>

      <section aria-labelledby="notes-heading" className="lead-panel" id="notes">
        <h2 id="notes-heading">Notes</h2>
        <div data-live="notes">
          {lead.notes.length === 0 ? (
            <p className="staff-muted">No notes yet.</p>
          ) : (
            <ol className="lead-notes">
              {lead.notes.map((note) => (
                <li key={note.id}>
                  <p className="lead-notes__meta">
                    {note.author}, <time dateTime={note.at}>{dealerTime(note.at)}</time>
                  </p>
                  <p className="lead-notes__body">{note.body}</p>
                </li>
              ))}
            </ol>
          )}
        </div>
        <form method="post" action={`${leadPaths.lead(lead.id)}#notes`} className="staff-form lead-note-form">
          <input type="hidden" name="action" value="note" />
          <div className="staff-field">
            <label htmlFor="lead-note">Add a note</label>
            <textarea
              id="lead-note"
              name="text"
              rows={3}
              maxLength={5000}
              defaultValue={posted?.values.action === 'note' ? posted.values.text : undefined}
              aria-invalid={posted?.errors.text ? true : undefined}
              aria-describedby={posted?.errors.text ? 'lead-note-problem' : undefined}
            />
            {posted?.errors.text && (
              <p className="staff-error" id="lead-note-problem">
                {posted.errors.text}
              </p>
            )}
          </div>
          <button type="submit" className="staff-button">
            Add note
          </button>
        </form>
      </section>

      <section aria-labelledby="emails-heading" className="lead-panel" id="emails">
        <div data-live="emails">
          <h2 id="emails-heading">
            Emails: <DeliveryState lead={lead} />
          </h2>
          {lead.deliveries.length === 0 ? (
            <p className="staff-muted">No emails were queued for this lead.</p>
          ) : (
            <ul className="lead-deliveries">
              {lead.deliveries.map((d) => (
                <li key={d.kind} className={`lead-deliveries__item lead-deliveries__item--${d.state}`}>
                  <p>
                    <strong>{notificationLabels[d.kind]}</strong>:{' '}
                    {d.state === 'sent' && d.sentAt ? (
                      <>
                        sent <time dateTime={d.sentAt}>{dealerTime(d.sentAt)}</time>
                      </>
                    ) : d.state === 'sending' ? (
                      'being sent now'
                    ) : d.state === 'failed' ? (
                      <>
                        failed {d.attempts} time{d.attempts === 1 ? '' : 's'}; next attempt{' '}
                        <time dateTime={d.nextAttemptAt ?? undefined}>{d.nextAttemptAt ? dealerTime(d.nextAttemptAt) : 'soon'}</time>
                      </>
                    ) : (
                      'queued, going out shortly'
                    )}
                  </p>
                  {d.lastError && <p className="lead-deliveries__error">Why: {d.lastError}</p>}
                  {d.state === 'failed' && data.mayResend && (
                    <form method="post" action={leadPaths.lead(lead.id)}>
                      <input type="hidden" name="action" value="resend" />
                      <input type="hidden" name="kind" value={d.kind} />
                      <button type="submit" className="staff-link-button">
                        Send again now
                      </button>
                    </form>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>

      <section aria-labelledby="history-heading" className="lead-panel">
        <h2 id="history-heading">History</h2>
        <div data-live="history">
          {lead.history.length === 0 ? (
            <p className="staff-muted">Nobody has worked this lead yet.</p>
          ) : (
            <ol className="lead-history">
              {lead.history.map((entry) => (
                <li key={entry.id}>
                  <time dateTime={entry.at}>{dealerTime(entry.at)}</time>: {entry.actor} {describeChange(entry)}
                </li>
              ))}
            </ol>
          )}
        </div>
      </section>
    </div>
  )
}

function FirstResponse({ lead }: { lead: LeadData['lead'] }) {
  if (!lead.firstResponseAt) return <span className="lead-page__unanswered">Not answered yet.</span>
  const ms = Date.parse(lead.firstResponseAt) - Date.parse(lead.receivedAt)
  return (
    <span className={ms <= answerWithinMs ? 'lead-page__answered' : 'lead-page__late'}>First response after {duration(ms)}.</span>
  )
}

/** An audit entry in words: "changed the status from New to Contacted". */
export function describeChange(entry: Pick<AuditEntry, 'field' | 'before' | 'after'>): string {
  // Status and owner entries hold names (api/staff/lead-inbox.ts): a status, a username, or null.
  const shown = (value: unknown) =>
    typeof value !== 'string' ? 'nobody' : (leadStatusLabels[value as LeadStatus] ?? value)
  switch (entry.field) {
    case 'note':
      return 'added a note'
    case 'spam':
      return 'said it is not spam and moved it to the inbox'
    case 'delivery': {
      const kind = (entry.after as { kind?: NotificationKind } | null)?.kind
      return `asked to send the ${kind ? notificationLabels[kind].toLowerCase() : 'email'} again now`
    }
    case 'status':
      return `changed the status from ${shown(entry.before)} to ${shown(entry.after)}`
    case 'owner':
      return entry.after === null ? `took the lead away from ${shown(entry.before)}` : `gave the lead to ${shown(entry.after)}`
    default:
      return `changed ${entry.field ?? 'the lead'}`
  }
}

export const leadPage = staffPage<LeadData>({
  path: '/staff/leads/{id}',
  title: (data) => `${data.lead.firstName} ${data.lead.lastName}`,
  load: loadLead,
  Page: LeadPage,
  post: postLead,
})
