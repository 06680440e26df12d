import type { ServiceRequest, ServiceRequestDetails } from '../../domain/service-request.ts'
import type { Sql, TransactionSql } from '../db/database.ts'

/** A service request's details (PRODUCT.md, "service requests"), stored in its lead's transaction. */
export type StoredServiceRequest = ServiceRequestDetails

export async function insertServiceRequest(tx: TransactionSql, inquiryId: number, service: ServiceRequest): Promise<void> {
  await tx`
    insert into service_requests (inquiry_id, make, model, year, needs, preferred_days, pickup)
    values (${inquiryId}, ${service.make}, ${service.model || null}, ${service.year ? Number(service.year) : null},
      ${service.needs}, ${service.preferredDays}, ${service.pickup ?? false})
  `
}

export async function serviceRequestOf(sql: Sql, inquiryId: number): Promise<StoredServiceRequest | null> {
  const [row] = await sql<StoredServiceRequest[]>`
    select make, model, year, needs, preferred_days, pickup from service_requests where inquiry_id = ${inquiryId}
  `
  return row ?? null
}
