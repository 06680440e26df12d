import { Fragment } from 'react'
import { rentalRequestFacts, type RentalRequestDetails } from '../../../domain/rental-request.ts'
import { staffPaths } from '../../../domain/staff-paths.ts'
import { serviceRequestFacts, type ServiceRequestDetails } from '../../../domain/service-request.ts'

/**
 * A rental or service request's details on a lead's page (issue #33), in the words of the
 * dealer's email (domain/rental-request.ts, domain/service-request.ts), as more terms of the
 * lead's list of facts, so they sit with what the visitor asked; a rental's links to its days in
 * the rental calendar (/staff/rentals), where it is confirmed, declined or changed.
 */
export function RequestFacts({ lead }: { lead: { rental: RentalRequestDetails | null; service: ServiceRequestDetails | null } }) {
  const facts = lead.rental ? rentalRequestFacts(lead.rental) : lead.service ? serviceRequestFacts(lead.service) : []
  return (
    <>
      {facts.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
      {lead.rental && (
        <>
          <dt>Calendar</dt>
          <dd>
            <a href={`${staffPaths.rentals}?from=${lead.rental.startDate}`}>Confirm, decline or change it in the rental calendar</a>
          </dd>
        </>
      )}
    </>
  )
}
