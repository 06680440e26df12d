import { TRPCError } from '@trpc/server'
import { spamRules } from '../../../domain/inquiry.ts'
import { spamKeptDays } from '../../../domain/lead-status.ts'
import { leadPaths } from '../../../domain/staff-paths.ts'
import { type PostOutcome, type StaffPageContext, type StaffPageProps, staffPage } from '../page.ts'
import { dealerTime, inboxPageSize } from './inbox-filter.ts'
import { ContactLinks, LeadSource, MessagePreview, PageLinks, pageRange } from './lead-bits.tsx'

/**
 * `/staff/leads/spam`: what the spam rules caught (PRODUCT.md, "no lead silently lost"), each
 * with the rule that caught it. Nobody was emailed about these; "Not spam" moves one to the inbox
 * and sends its emails then. Each is deleted 30 days after it arrived.
 */
async function loadSpam(context: StaffPageContext) {
  const page = Math.max(1, Math.min(20_000, Number.parseInt(context.query.get('page') ?? '1', 10) || 1))
  const list = await context.caller.staff.lead.spam({ limit: inboxPageSize, offset: (page - 1) * inboxPageSize })
  const moved = Number.parseInt(context.query.get('moved') ?? '', 10)
  return { ...list, page, moved: Number.isSafeInteger(moved) && moved > 0 ? moved : undefined }
}

type SpamData = Awaited<ReturnType<typeof loadSpam>>

async function postSpam(context: StaffPageContext, form: Record<string, string>): Promise<PostOutcome> {
  const parsed = context.parse('staff.lead.notSpam')
  if (!parsed.ok) return parsed.refusal
  try {
    await context.caller.staff.lead.notSpam(parsed.value)
    return { redirect: `${leadPaths.spam}?moved=${parsed.value.id}` }
  } catch (error) {
    if (error instanceof TRPCError && error.code === 'NOT_FOUND') {
      return { status: 404, posted: { values: form, errors: {}, message: 'That lead is not in the Spam view any more: someone moved it already, or it was deleted.' } }
    }
    return context.refused(error, form)
  }
}

function SpamPage({ data, posted }: StaffPageProps<SpamData>) {
  const { leads, total, page } = data
  return (
    <>
      <p className="lead-back">
        <a href={leadPaths.inbox}>All leads</a>
      </p>
      <h1>Spam</h1>
      <p className="lead-spam__about">
        What the spam rules caught. The sender was told the message was sent, but nobody was emailed. If one is a real
        person, press <strong>Not spam</strong>: it moves to the inbox and its emails go out then. Each is deleted{' '}
        {spamKeptDays} days after it arrived.
      </p>
      {data.moved && !posted && (
        <p className="staff-alert staff-alert--done" role="status">
          Moved to the inbox, and its emails are on their way. <a href={leadPaths.lead(data.moved)}>Open the lead</a>
        </p>
      )}
      {posted?.message && (
        <p className="staff-alert staff-alert--error" role="alert">
          {posted.message}
        </p>
      )}
      <p className="staff-count" id="spam-count">
        {total === 0 ? 'Nothing caught in the last 30 days.' : pageRange(page, total, 'caught')}
      </p>
      {leads.length > 0 && (
        <table className="lead-table lead-spam" aria-describedby="spam-count">
          <caption className="staff-sr-only">Leads the spam rules caught</caption>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Sender</th>
              <th scope="col">Message</th>
              <th scope="col">Source</th>
              <th scope="col">Caught by</th>
              <th scope="col">
                <span className="staff-sr-only">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {leads.map((lead) => (
              <tr key={lead.id} data-lead-id={lead.id}>
                <td data-label="Received">
                  <div>
                    <time dateTime={lead.receivedAt}>{dealerTime(lead.receivedAt)}</time>
                  </div>
                </td>
                <td data-label="Sender">
                  <div>
                    <span className="lead-table__name">
                      {lead.firstName} {lead.lastName}
                    </span>
                    <ContactLinks lead={lead} />
                  </div>
                </td>
                <td data-label="Message" className="lead-table__message">
                  <div>
                    <MessagePreview lead={lead} />
                  </div>
                </td>
                <td data-label="Source">
                  <div>
                    <LeadSource lead={lead} />
                  </div>
                </td>
                <td data-label="Caught by">
                  <div>{spamRules[lead.rule]}</div>
                </td>
                <td data-label="Action">
                  <div>
                    <form method="post" action={leadPaths.spam}>
                      <input type="hidden" name="id" value={lead.id} />
                      <button type="submit" className="staff-button" aria-label={`Not spam: ${lead.firstName} ${lead.lastName}`}>
                        Not spam
                      </button>
                    </form>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PageLinks label="Pages of spam" page={page} total={total} href={(page) => `${leadPaths.spam}?page=${page}`} newer="Newer" older="Older" />
    </>
  )
}

export const leadSpamPage = staffPage<SpamData>({
  path: leadPaths.spam,
  roles: { get: ['manager', 'see the spam view'], post: ['manager', 'move a lead out of spam'] },
  title: () => 'Spam',
  load: loadSpam,
  Page: SpamPage,
  post: postSpam,
})
