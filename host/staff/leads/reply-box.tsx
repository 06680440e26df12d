import type { TextingState } from '../../../api/leads/lead-replies.ts'
import { callOutcomeLabels, callOutcomes, replyLimits } from '../../../domain/lead-replies.ts'
import { staffPaths, leadPaths } from '../../../domain/staff-paths.ts'
import { sendTimeWords } from '../../../domain/texting.ts'
import type { PostedState } from '../page.ts'
import { ActionForm, Field, Notice } from '../form-kit.tsx'
import { telHref } from './inbox-filter.ts'

/**
 * The lead page's answer to the shopper (PRODUCT.md, "replies from the console", "templates"):
 * one message sent as an email or a text, a template to start from, and a call logged with its
 * outcome. Plain forms (decision 0016): choosing a template is a GET of this page with
 * `?template=ID`, which comes back with the message filled in for this lead; with the console's
 * script the choice fills it at once (host/staff/leads/reply-box-client.ts). "Send text" is
 * disabled, with the reason beside it, when this number may not be texted or texting is not set
 * up; at night it says the text will wait.
 */
export interface OfferedTemplate {
  id: number
  name: string
  /** Filled in for this lead and the person replying (staff.template.render). */
  body: string
}

export interface ReplyBoxProps {
  lead: { id: number; firstName: string; phone: string | null; email: string; texting: TextingState }
  templates: OfferedTemplate[]
  /** The template chosen with "Use template" (no script), filled in. */
  chosen?: OfferedTemplate
  /** Whether this person keeps the templates (a link to them when there are none). */
  mayKeepTemplates: boolean
  posted?: PostedState
}

function FieldProblem({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p className="staff-error" id={id}>
      {error}
    </p>
  ) : null
}

export function ReplyBox({ lead, templates, chosen, mayKeepTemplates, posted }: ReplyBoxProps) {
  const reply = posted?.values.action === 'reply' ? posted : undefined
  const call = posted?.values.action === 'call' ? posted : undefined
  const here = leadPaths.lead(lead.id)
  const { texting } = lead
  const textWhy = !texting.available
    ? texting.reason
    : texting.waitsUntil
      ? `No texts between 9 PM and 8 AM in New Jersey: a text written now waits until ${sendTimeWords(new Date(texting.waitsUntil))}.`
      : `A text goes from the dealer’s number to ${lead.phone}; at most ${replyLimits.sms} characters.`
  return (
    <section aria-labelledby="reply-heading" className="lead-panel lead-reply" id="reply">
      <h2 id="reply-heading">Answer {lead.firstName}</h2>
      <Notice tone="error">{reply?.message}</Notice>
      {templates.length > 0 ? (
        <form method="get" action={`${here}#reply`} className="lead-reply__templates" data-reply-templates="reply-body">
          <Field name="template" id="reply-template" label="Start from a template" defaultValue={chosen ? String(chosen.id) : ''}>
            {(control) => (
              <select {...control}>
                <option value="">Choose a template</option>
                {templates.map((template) => (
                  <option key={template.id} value={template.id} data-body={template.body}>
                    {template.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <button type="submit" className="staff-link-button" data-use-template>
            Use template
          </button>
        </form>
      ) : (
        <p className="staff-hint">
          No reply templates yet
          {mayKeepTemplates ? (
            <>
              : <a href={staffPaths.templates}>add some</a>
            </>
          ) : (
            ': a manager can add some'
          )}
          .
        </p>
      )}
      <ActionForm to={`${here}#reply`} action="reply" className="staff-form lead-reply__form">
        <Field name="body" id="reply-body" label="Message" posted={reply} defaultValue={reply ? '' : chosen?.body}>
          {(control) => <textarea {...control} rows={6} maxLength={replyLimits.email} required />}
        </Field>
        <div className="lead-reply__send">
          <div>
            <button type="submit" name="channel" value="email" className="staff-button" aria-describedby="reply-email-why">
              Send email
            </button>
            <p className="staff-hint" id="reply-email-why">
              To {lead.email}, from the dealer’s address in your name; the answer comes to your email.
            </p>
          </div>
          <div>
            <button type="submit" name="channel" value="sms" className="staff-button" disabled={!texting.available} aria-describedby="reply-text-why">
              Send text
            </button>
            <p className={texting.available && !texting.waitsUntil ? 'staff-hint' : 'staff-hint lead-reply__why'} id="reply-text-why">
              {textWhy}
            </p>
          </div>
        </div>
      </ActionForm>

      <form method="post" action={`${here}#call`} className="staff-form lead-call" id="call" aria-labelledby="call-heading">
        <h3 id="call-heading">Log a call</h3>
        <Notice tone="error">{call?.message}</Notice>
        {lead.phone && (
          <p className="lead-call__dial">
            <a href={telHref(lead.phone)} className="staff-link-button" data-call-link>
              Call {lead.phone}
            </a>
            <span className="staff-hint" aria-live="polite" data-call-prompt />
          </p>
        )}
        <input type="hidden" name="action" value="call" />
        <fieldset className="lead-call__outcomes" aria-describedby={call?.errors.outcome ? 'call-outcome-problem' : undefined}>
          <legend>How did it go?</legend>
          {callOutcomes.map((outcome) => (
            <label key={outcome} className="lead-call__outcome">
              <input type="radio" name="outcome" value={outcome} required defaultChecked={call?.values.outcome === outcome} />
              {callOutcomeLabels[outcome]}
            </label>
          ))}
          <FieldProblem id="call-outcome-problem" error={call?.errors.outcome} />
        </fieldset>
        <Field
          name="note"
          id="call-note"
          label={
            <>
              Note <span className="staff-optional">(optional)</span>
            </>
          }
          posted={call}
        >
          {(control) => <textarea {...control} rows={2} maxLength={replyLimits.callNote} />}
        </Field>
        <button type="submit" className="staff-button lead-call__save">
          Log call
        </button>
      </form>
    </section>
  )
}
