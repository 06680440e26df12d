import { TRPCError } from '@trpc/server'
import { spamRules } from '../../../domain/inquiry.ts'
import { spamKeptDays } from '../../../domain/lead-status.ts'
import { leadPaths } from '../../../domain/staff-paths.ts'
import { type PostOutcome, type StaffPageContext, type StaffPageProps, staffPage } from '../page.ts'
import { dealerTime, inboxPageSize } from './inbox-filter.ts'
import { ContactLinks, LeadCell, MessageAndSourceCells, PageLinks, pageRange, LeadTable } from './lead-bits.tsx'
import { Notice } from '../form-kit.tsx'

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
      <Notice>
        {data.moved && !posted && (
          <>
            Moved to the inbox, and its emails are on their way. <a href={leadPaths.lead(data.moved)}>Open the lead</a>
          </>
        )}
      </Notice>
      <Notice tone="error">{posted?.message}</Notice>
      <LeadTable
        countId="spam-count"
        count={total === 0 ? 'Nothing caught in the last 30 days.' : pageRange(page, total, 'caught')}
        rows={leads.length}
        className="lead-spam"
        caption="Leads the spam rules caught"
        columns={['Received', 'Sender', 'Message', 'Source', 'Caught by', { hidden: 'Action' }]}
      >
        {leads.map((lead) => (
          <tr key={lead.id} data-lead-id={lead.id}>
            <LeadCell label="Received">
              <time dateTime={lead.receivedAt}>{dealerTime(lead.receivedAt)}</time>
            </LeadCell>
            <LeadCell label="Sender">
              <span className="lead-table__name">
                {lead.firstName} {lead.lastName}
              </span>
              <ContactLinks lead={lead} />
            </LeadCell>
            <MessageAndSourceCells lead={lead} />
            <LeadCell label="Caught by">{spamRules[lead.rule]}</LeadCell>
            <LeadCell label="Action">
              <form method="post" action={leadPaths.spam}>
                <input type="hidden" name="id" value={lead.id} />
                <button type="submit" className="staff-button" aria-label={`Not spam: ${lead.firstName} ${lead.lastName}`}>
                  Not spam
                </button>
              </form>
            </LeadCell>
          </tr>
        ))}
            </LeadTable>
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
