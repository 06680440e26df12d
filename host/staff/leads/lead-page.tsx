import { dueWords, localInputValue, taskLimits } from '../../../domain/lead-tasks.ts'
import { TRPCError } from '@trpc/server'
import { RequestFacts } from './request-facts.tsx'
import type { AuditEntry } from '../../../api/staff/audit.ts'
import type { NotificationKind } from '../../../api/inquiries/inquiry-store.ts'
import { answerWithinMs, type LeadStatus, leadStatuses, leadStatusLabels } from '../../../domain/lead-status.ts'
import { leadPaths, staffPaths } from '../../../domain/staff-paths.ts'
import { abilityAccess, procedureAccess, roleAllows } from '../../../domain/staff-access.ts'
import {
  type PostOutcome,
  type ProcedureInput,
  type StaffPageContext,
  type StaffPageProps,
  StaffNotFound,
  staffPage,
  type StaffProcedure,
} from '../page.ts'
import { dealerTime, duration, interestLabel } from './inbox-filter.ts'
import { ContactLinks, DeliveryState, LeadSource, notificationLabels, StatusBadge } from './lead-bits.tsx'
import { LeadTimeline } from './lead-timeline.tsx'
import { ActionForm, choices, Field } from '../form-kit.tsx'
import { type OfferedTemplate, ReplyBox } from './reply-box.tsx'

/**
 * `/staff/leads/{id}`: one lead and the work on it: the answer to the shopper (an email or a text
 * from the reply box, with templates, or a call logged; host/staff/leads/reply-box.tsx), its
 * timeline, status, owner, notes, its emails with "Send again now", its history, and a link to
 * the customer's record. Every change is a plain form post (answered with a redirect back here);
 * the read-only parts are live regions, so a colleague's change or a text that came in shows
 * within 5 seconds (host/staff/leads/live-regions.ts).
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

/** The templates, each filled in for this lead and this person, as the reply box offers them. */
async function offeredTemplates(context: StaffPageContext, leadId: number): Promise<OfferedTemplate[]> {
  const templates = await context.caller.staff.template.list()
  const filled = await Promise.all(
    templates.map((t) =>
      context.caller.staff.template.render({ id: t.id, leadId }).then(
        ({ body }) => ({ id: t.id, name: t.name, body }),
        // A template removed since the list was read is left out; a lead that is not there is the page's 404.
        (error: unknown) => (error instanceof TRPCError && error.code === 'NOT_FOUND' && /template/.test(error.message) ? undefined : notFoundAsStaffNotFound(error)),
      ),
    ),
  )
  return filled.filter((t) => t !== undefined)
}

async function loadLead(context: StaffPageContext) {
  const id = leadId(context)
  const [lead, choices, templates, tasks] = await Promise.all([
    context.caller.staff.lead.get({ id }).catch(notFoundAsStaffNotFound),
    context.caller.staff.lead.choices(),
    offeredTemplates(context, id),
    context.caller.staff.task.forLead({ leadId: id }),
  ])
  return {
    lead,
    templates,
    chosen: templates.find((t) => String(t.id) === context.query.get('template')),
    mayKeepTemplates: roleAllows(context.role, procedureAccess['staff.template.save']![0]),
    tasks,
    owners: choices.owners,
    me: choices.owners.find((o) => o.username === context.username),
    // What this role may do here (domain/staff-access.ts); the procedures refuse the rest anyway.
    mayAssignAnyone: roleAllows(context.role, abilityAccess.assignLeadsToAnyone[0]),
    mayResend: roleAllows(context.role, procedureAccess['staff.lead.resend']![0]),
  }
}

type LeadData = Awaited<ReturnType<typeof loadLead>>

async function postLead(context: StaffPageContext, form: Record<string, string>): Promise<PostOutcome> {
  const id = leadId(context)
  const lead = context.caller.staff.lead
  const back = (notice: string, anchor: string) => ({ redirect: `${leadPaths.lead(id)}#${anchor}`, notice })
  // Each form read by its procedure's own schema, this lead's id set from the address, then done.
  const step = async <Path extends StaffProcedure>(
    procedure: Path,
    call: (input: ProcedureInput<Path>) => Promise<unknown>,
    then: PostOutcome,
    fixed: Record<string, string | number> = { id },
  ): Promise<PostOutcome> => {
    const parsed = context.parse(procedure, fixed)
    if (!parsed.ok) return parsed.refusal
    await call(parsed.value)
    return then
  }
  try {
    switch (form.action) {
      case 'status':
        return await step('staff.lead.setStatus', (input) => lead.setStatus(input), back('Status saved.', 'work'))
      case 'assign':
        return await step('staff.lead.assign', (input) => lead.assign(input), back('Owner saved.', 'work'))
      case 'note':
        return await step('staff.lead.addNote', (input) => lead.addNote(input), back('Note added.', 'notes'))
      case 'task':
        return await step('staff.task.create', (input) => context.caller.staff.task.create(input), back('Follow-up added: its owner is alerted at its time.', 'follow-ups'), { leadId: id })
      case 'task-done':
        // The task's own id, posted as `task` (the address's id is the lead's).
        return await step('staff.task.done', (input) => context.caller.staff.task.done(input), back('Follow-up done.', 'follow-ups'), { id: form.task ?? '' })
      case 'resend':
        return await step('staff.lead.resend', (input) => lead.resend(input), back('Sending again now.', 'emails'))
      case 'reply': {
        const parsed = context.parse('staff.lead.reply', { id })
        if (!parsed.ok) return parsed.refusal
        const receipt = await lead.reply(parsed.value)
        return { redirect: `${leadPaths.lead(id)}#reply`, notice: receipt.notice }
      }
      case 'call':
        return await step('staff.lead.logCall', (input) => lead.logCall(input), back('Call logged.', 'timeline'))
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
      {lead.customerId !== null && (
        <p className="lead-page__customer">
          <a href={staffPaths.customer(lead.customerId)}>
            {lead.firstName}’s customer record: every lead, message and call
          </a>
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
              <ActionForm key={status} to={leadPaths.lead(lead.id)} action="status">
                <input type="hidden" name="status" value={status} />
                <button type="submit" className="lead-status-button" aria-pressed={lead.status === status}>
                  {leadStatusLabels[status]}
                </button>
              </ActionForm>
            ))}
          </div>
          <p className="lead-label">
            Owner: <strong data-live="owner">{lead.owner?.username ?? 'nobody'}</strong>
          </p>
          {data.mayAssignAnyone && (
            <ActionForm to={leadPaths.lead(lead.id)} action="assign" className="lead-owner">
              <Field name="ownerId" id="lead-owner" label="Give the lead to" hiddenLabel defaultValue={lead.owner?.id ?? ''}>
                {choices([{ value: '', label: 'Nobody' }, ...data.owners.map((o) => ({ value: o.id, label: o.username }))])}
              </Field>
              <button type="submit" className="staff-link-button">
                Assign
              </button>
            </ActionForm>
          )}
          {data.me && lead.owner?.id !== data.me.id && (
            <ActionForm to={leadPaths.lead(lead.id)} action="assign" className="lead-take">
              <input type="hidden" name="ownerId" value={data.me.id} />
              <button type="submit" className="staff-button">
                Take it
              </button>
            </ActionForm>
          )}
        </section>
      </div>

      <div className="lead-page__conversation">
        <ReplyBox lead={lead} templates={data.templates} chosen={data.chosen} mayKeepTemplates={data.mayKeepTemplates} posted={posted} />
        <section aria-labelledby="timeline-heading" className="lead-panel" id="timeline">
          <h2 id="timeline-heading">Timeline</h2>
          <p className="staff-hint">Emails and texts in and out, calls, notes and changes, newest first.</p>
          <div data-live="timeline">
            <LeadTimeline entries={lead.timeline} />
          </div>
        </section>
      </div>

      <FollowUps leadId={lead.id} tasks={data.tasks} posted={posted} />

      <section aria-labelledby="notes-heading" className="lead-panel" id="notes">
        <h2 id="notes-heading">Notes</h2>
        <p className="staff-hint">For the team: a note is not an answer to the shopper and does not count as the first response.</p>
        <ActionForm to={`${leadPaths.lead(lead.id)}#notes`} action="note" className="staff-form lead-note-form">
          <Field name="text" id="lead-note" label="Add a note" posted={posted?.values.action === 'note' ? posted : undefined}>
            {(control) => <textarea {...control} rows={3} maxLength={5000} />}
          </Field>
          <button type="submit" className="staff-button">
            Add note
          </button>
        </ActionForm>
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
                    <ActionForm to={leadPaths.lead(lead.id)} action="resend">
                      <input type="hidden" name="kind" value={d.kind} />
                      <button type="submit" className="staff-link-button">
                        Send again now
                      </button>
                    </ActionForm>
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
  path: leadPaths.lead.pattern,
  roles: { get: ['sales', 'read leads'], post: ['sales', 'work leads'] },
  title: (data) => `${data.lead.firstName} ${data.lead.lastName}`,
  load: loadLead,
  Page: LeadPage,
  post: postLead,
})

/** Follow-ups on the lead (PRODUCT.md, "follow-ups"): open ones with Done, and a form to add one. */
function FollowUps({ leadId, tasks, posted }: { leadId: number; tasks: LeadData['tasks']; posted?: StaffPageProps<LeadData>['posted'] }) {
  const open = tasks.filter((t) => !t.doneAt)
  const done = tasks.filter((t) => t.doneAt).slice(0, 5)
  const now = Date.now()
  const typed = posted?.values.action === 'task' ? posted : undefined
  return (
    <section aria-labelledby="follow-ups-heading" className="lead-panel" id="follow-ups">
      <h2 id="follow-ups-heading">Follow-ups</h2>
      {open.length === 0 ? (
        <p className="staff-muted">No follow-up planned.</p>
      ) : (
        <ul className="staff-tasks">
          {open.map((task) => (
            <li key={task.id} className={`staff-task${task.dueAt.getTime() < now ? ' staff-task--overdue' : ''}`}>
              <span className="staff-task__what">
                <strong>{dueWords(task.dueAt)}</strong>
                {task.dueAt.getTime() < now ? ' (overdue)' : ''}: {task.note}
              </span>
              <ActionForm to={`${leadPaths.lead(leadId)}#follow-ups`} action="task-done">
                <input type="hidden" name="task" value={task.id} />
                <button type="submit" className="staff-button staff-button--small">
                  Done
                </button>
              </ActionForm>
            </li>
          ))}
        </ul>
      )}
      {done.length > 0 && (
        <p className="staff-muted">
          Done lately: {done.map((t) => t.note).join('; ')}
        </p>
      )}
      <ActionForm to={`${leadPaths.lead(leadId)}#follow-ups`} action="task" className="staff-form">
        <Field
          name="dueAt"
          id="task-due"
          label="When (New Jersey time)"
          type="datetime-local"
          required
          posted={typed}
          defaultValue={localInputValue(new Date(now + 86_400_000))}
        />
        <Field name="note" id="task-note" label="What to do" posted={typed}>
          {(control) => <textarea {...control} rows={2} maxLength={taskLimits.note} required />}
        </Field>
        <button type="submit" className="staff-button">
          Add follow-up
        </button>
      </ActionForm>
    </section>
  )
}
