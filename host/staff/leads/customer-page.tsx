import { TRPCError } from '@trpc/server'
import { readablePhone } from '../../../domain/phone-number.ts'
import { leadPaths, staffPaths } from '../../../domain/staff-paths.ts'
import { type StaffCaller, type StaffPageContext, type StaffPageProps, StaffNotFound, staffPage } from '../page.ts'
import { dealerTime, interestLabel } from './inbox-filter.ts'
import { StatusBadge } from './lead-bits.tsx'
import { LeadTimeline } from './lead-timeline.tsx'

/**
 * `/staff/customers/{id}` (PRODUCT.md, "customers"): one person, as every lead with the same
 * email or phone makes them: their addresses and numbers with each number's consent to texts,
 * every lead (a deposit is a lead of interest "deposit", with its owner and status), and one
 * timeline of everything on any of them, newest first (api/leads/lead-timeline.ts). Read only:
 * the work happens on a lead's page, which links here.
 */
type CustomerData = Awaited<ReturnType<StaffCaller['staff']['customer']['get']>>

async function loadCustomer(context: StaffPageContext): Promise<CustomerData> {
  const id = context.params.id ?? ''
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) throw new StaffNotFound(`No customer at ${id}`)
  try {
    return await context.caller.staff.customer.get({ id: Number(id) })
  } catch (error) {
    if (error instanceof TRPCError && error.code === 'NOT_FOUND') throw new StaffNotFound(error.message)
    throw error
  }
}

const consentDay = (iso: string) => new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', dateStyle: 'medium' }).format(new Date(iso))

function ConsentWords({ consent }: { consent: CustomerData['phones'][number]['textConsent'] }) {
  if (!consent) return <span className="staff-muted">no consent to texts</span>
  return consent.given ? (
    <span className="customer-consent customer-consent--given">agreed to texts on {consentDay(consent.at)}</span>
  ) : (
    <span className="customer-consent customer-consent--withdrawn">opted out of texts on {consentDay(consent.at)}</span>
  )
}

function CustomerPage({ data }: StaffPageProps<CustomerData>) {
  const name = `${data.firstName} ${data.lastName}`.trim() || `Customer ${data.id}`
  return (
    <div className="lead-page customer-page">
      <p className="lead-back">
        <a href={leadPaths.inbox}>All leads</a>
      </p>
      <h1>{name}</h1>
      <p className="lead-page__received">
        Customer since <time dateTime={data.since}>{dealerTime(data.since)}</time>; {data.leads.length} lead{data.leads.length === 1 ? '' : 's'}.
      </p>
      <section aria-labelledby="customer-reach" className="lead-panel">
        <h2 id="customer-reach">How to reach them</h2>
        <dl className="lead-facts">
          <dt>Email</dt>
          <dd>
            {data.emails.length === 0 ? (
              <span className="staff-muted">None</span>
            ) : (
              <ul className="customer-list">
                {data.emails.map((email) => (
                  <li key={email}>{email}</li>
                ))}
              </ul>
            )}
          </dd>
          <dt>Phone</dt>
          <dd>
            {data.phones.length === 0 ? (
              <span className="staff-muted">None</span>
            ) : (
              <ul className="customer-list">
                {data.phones.map((phone) => {
                  const shown = readablePhone(`+1${phone.key}`)
                  return (
                    <li key={phone.key}>
                      <a href={`tel:+1${phone.key}`}>{shown}</a>: <ConsentWords consent={phone.textConsent} />
                    </li>
                  )
                })}
              </ul>
            )}
          </dd>
        </dl>
      </section>
      <section aria-labelledby="customer-leads" className="lead-panel">
        <h2 id="customer-leads">Leads, newest first</h2>
        <ol className="customer-leads">
          {data.leads.map((lead) => (
            <li key={lead.id}>
              <a href={leadPaths.lead(lead.id)} className="customer-leads__link">
                Lead {lead.id}: {lead.interest ? interestLabel(lead.interest) : 'no interest given'}
              </a>{' '}
              <StatusBadge status={lead.status} />
              <p className="customer-leads__facts">
                <time dateTime={lead.receivedAt}>{dealerTime(lead.receivedAt)}</time>
                {lead.cartTitle && <>; {lead.cartTitle}</>}; owner {lead.owner ?? 'nobody'}
              </p>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="customer-timeline" className="lead-panel">
        <h2 id="customer-timeline">Timeline</h2>
        <p className="staff-hint">Every lead’s emails and texts in and out, calls, notes and changes, newest first.</p>
        <div data-live="timeline">
          <LeadTimeline entries={data.timeline} leadLinks />
        </div>
      </section>
    </div>
  )
}

export const customerPage = staffPage<CustomerData>({
  path: staffPaths.customer.pattern,
  roles: { get: ['sales', 'read customers'] },
  title: (data) => `${data.firstName} ${data.lastName}`.trim() || `Customer ${data.id}`,
  load: loadCustomer,
  Page: CustomerPage,
})
