import { leadInterestOptions } from '../../../domain/inquiry.ts'
import { leadStatuses, leadStatusLabels, unknownSource } from '../../../domain/lead-status.ts'
import { leadPaths } from '../../../domain/staff-paths.ts'
import { type StaffPageContext, type StaffPageProps, staffPage } from '../page.ts'
import {
  dealerTime,
  type InboxFilter,
  inboxFilterFromSearch,
  inboxHref,
  interestLabel,
  isFiltered,
  listInput,
} from './inbox-filter.ts'
import { ContactLinks, DeliveryState, LeadCell, MessageAndSourceCells, PageLinks, pageRange, StatusBadge, LeadTable } from './lead-bits.tsx'
import { choices, Field } from '../form-kit.tsx'

/**
 * `/staff/leads`: every lead, newest first, filters and search in the address. The list is a
 * live region (`data-live`): the console's script asks for the page again every 5 seconds and
 * swaps it in (host/staff/leads/live-regions.ts, decision 0019), so a new lead or a colleague's
 * change appears without a reload, and "2 new leads arrived" is announced.
 */
async function loadInbox(context: StaffPageContext) {
  const filter = inboxFilterFromSearch(context.query.toString())
  const [list, choices] = await Promise.all([context.caller.staff.lead.list(listInput(filter)), context.caller.staff.lead.choices()])
  return { filter, ...list, choices }
}

type InboxData = Awaited<ReturnType<typeof loadInbox>>

function LeadInboxPage({ data, context }: StaffPageProps<InboxData>) {
  const { filter, leads, total } = data
  const newest = Math.max(0, ...leads.map((l) => l.id))
  return (
    <>
      <div className="staff-heading">
        <h1>Leads</h1>
        <span className="staff-heading__actions">
          {context.mayOpen(leadPaths.dashboard) && (
            <a className="staff-link-button" href={leadPaths.dashboard}>
              Dashboard
            </a>
          )}
          {context.mayOpen(leadPaths.spam) && (
            <a className="staff-link-button" href={leadPaths.spam}>
              Spam
            </a>
          )}
        </span>
      </div>
      <InboxFilters filter={filter} owners={data.choices.owners} sources={data.choices.sources} />
      <p className="lead-news" id="lead-news" role="status" />
      <div data-live="inbox" data-newest={newest}>
        <LeadTable
          countId="lead-count"
          count={total === 0 ? (isFiltered(filter) ? 'No leads match these filters.' : 'No leads yet.') : pageRange(filter.page, total, total === 1 ? 'lead' : 'leads')}
          rows={leads.length}
          caption="Leads; open one by its name to work it"
          columns={['Received', 'Visitor', 'Interest and cart', 'Message', 'Source', 'Emails', 'Owner']}
        >
          {leads.map((lead) => (
            <tr key={lead.id} data-lead-id={lead.id} className={`lead-table__row lead-table__row--${lead.status}`}>
              <LeadCell label="Received">
                <time dateTime={lead.receivedAt}>{dealerTime(lead.receivedAt)}</time> <StatusBadge status={lead.status} />
                {lead.repeatOf && (
                  <a className="lead-repeat" href={leadPaths.lead(lead.repeatOf.id)} title="Same email or phone as an earlier lead of the last 30 days">
                    Repeat
                  </a>
                )}
              </LeadCell>
              <LeadCell label="Visitor">
                <a href={leadPaths.lead(lead.id)} className="lead-table__name">
                  {lead.firstName} {lead.lastName}
                </a>
                <ContactLinks lead={lead} />
              </LeadCell>
              <LeadCell label="Interest">
                {lead.interest ? interestLabel(lead.interest) : <span className="staff-muted">None given</span>}
                {lead.cart && (
                  <a href={`/vehicle/${lead.cart.slug}`} className="lead-table__cart">
                    {lead.cart.title ?? lead.cart.slug}
                  </a>
                )}
              </LeadCell>
              <MessageAndSourceCells lead={lead} />
              <LeadCell label="Emails">
                <DeliveryState lead={lead} />
              </LeadCell>
              <LeadCell label="Owner">{lead.owner ? lead.owner.username : <span className="staff-muted">Nobody</span>}</LeadCell>
            </tr>
          ))}
                </LeadTable>
        <PageLinks
          label="Pages of leads"
          page={filter.page}
          total={total}
          href={(page) => inboxHref({ ...filter, page })}
          newer="Newer leads"
          older="Older leads"
        />
      </div>
    </>
  )
}

/** The filters: a plain GET form, so each filtered view has its own address. */
function InboxFilters(props: { filter: InboxFilter; owners: { id: number; username: string }[]; sources: string[] }) {
  const { filter } = props
  const value = (v: string | number | undefined) => (v === undefined ? '' : String(v))
  const sources = [...new Set([...props.sources, ...(filter.source && filter.source !== 'none' ? [filter.source] : [])])]
  return (
    <form className="staff-filters lead-filters" method="get" action={leadPaths.inbox} role="search" aria-label="Leads">
      <Field name="q" id="lead-q" label="Search" className="lead-filters__q" hint="Name, email or phone number" defaultValue={value(filter.q)}>
        {(control) => <input {...control} type="search" maxLength={100} />}
      </Field>
      <Field name="status" id="lead-status" label="Status" defaultValue={value(filter.status)}>
        {choices([{ value: '', label: 'Every status' }, ...leadStatuses.map((s) => ({ value: s, label: leadStatusLabels[s] }))])}
      </Field>
      <Field name="owner" id="lead-owner" label="Owner" defaultValue={value(filter.owner)}>
        {choices([
          { value: '', label: 'Anyone' },
          { value: 'me', label: 'Mine' },
          { value: 'none', label: 'Nobody' },
          ...props.owners.map((o) => ({ value: o.id, label: o.username })),
        ])}
      </Field>
      <Field name="interest" id="lead-interest" label="Interest" defaultValue={value(filter.interest)}>
        {choices([{ value: '', label: 'Any interest' }, ...leadInterestOptions, { value: 'none', label: 'None given' }])}
      </Field>
      <Field name="source" id="lead-source" label="Source" defaultValue={value(filter.source)}>
        {choices([{ value: '', label: 'Any source' }, ...sources.map((s) => ({ value: s, label: s })), { value: 'none', label: unknownSource }])}
      </Field>
      <Field name="from" id="lead-from" label="Received from" type="date" defaultValue={value(filter.from)} />
      <Field name="to" id="lead-to" label="Received to" type="date" defaultValue={value(filter.to)} />
      <div className="staff-filters__actions">
        <button className="staff-button" type="submit">
          Show leads
        </button>
        {isFiltered(filter) && (
          <a className="staff-link-button" href={leadPaths.inbox}>
            Clear
          </a>
        )}
      </div>
    </form>
  )
}

export const leadInboxPage = staffPage<InboxData>({
  path: leadPaths.inbox,
  roles: { get: ['sales', 'read leads'] },
  nav: { label: 'Leads', place: 30 },
  title: () => 'Leads',
  load: loadInbox,
  Page: LeadInboxPage,
})
