import type { Interest } from '../../domain/inquiry.ts'
import type { LeadStatus } from '../../domain/lead-status.ts'
import type { Sql } from '../db/database.ts'
import { type TimelineEntry, timelineOf } from '../leads/lead-timeline.ts'
import { consentOf } from '../texts/text-consents.ts'

/**
 * A customer's page (PRODUCT.md, "customers"; `/staff/customers/{id}`): the person, as their
 * latest lead names them, every address and number they gave with its consent to texts, every
 * lead, and everything that happened with any of them, newest first (api/leads/lead-timeline.ts).
 */
export interface CustomerLead {
  id: number
  receivedAt: string
  interest: Interest | null
  status: LeadStatus
  owner: string | null
  cartTitle: string | null
}

export interface CustomerDetail {
  id: number
  firstName: string
  lastName: string
  since: string
  emails: string[]
  phones: { key: string; textConsent: { given: boolean; at: string; wording: string } | null }[]
  /** Newest first. */
  leads: CustomerLead[]
  timeline: TimelineEntry[]
}

export class NoSuchCustomerError extends Error {
  override name = 'NoSuchCustomerError'
  constructor(readonly id: number) {
    super(`No customer has the id ${id}`)
  }
}

export function createCustomerStore(sql: Sql) {
  return {
    async get(id: number): Promise<CustomerDetail> {
      const [customer] = await sql<{ id: number; since: Date }[]>`select id, created_at as since from customers where id = ${id}`
      if (!customer) throw new NoSuchCustomerError(id)
      const [leads, keys] = await Promise.all([
        sql<(CustomerLead & { firstName: string; lastName: string })[]>`
          select i.id, to_json(i.created_at) #>> '{}' as received_at, i.interest, i.status, u.username as owner, i.cart_title,
                 i.first_name, i.last_name
          from contact_inquiries i left join users u on u.id = i.owner_id
          where i.customer_id = ${id} and i.spam_reason is null
          order by i.created_at desc, i.id desc
        `,
        sql<{ kind: 'email' | 'phone'; value: string }[]>`select kind, value from customer_keys where customer_id = ${id} order by kind, value`,
      ])
      const phones = keys.filter((key) => key.kind === 'phone').map((key) => key.value)
      const [consents, timeline] = await Promise.all([
        Promise.all(phones.map((key) => consentOf(sql, key))),
        timelineOf(sql, leads.map((lead) => lead.id)),
      ])
      const latest = leads[0]
      return {
        id,
        firstName: latest?.firstName ?? '',
        lastName: latest?.lastName ?? '',
        since: customer.since.toISOString(),
        emails: keys.filter((key) => key.kind === 'email').map((key) => key.value),
        phones: phones.map((key, i) => {
          const consent = consents[i]
          return { key, textConsent: consent ? { given: consent.given, at: consent.at.toISOString(), wording: consent.wording } : null }
        }),
        leads: leads.map(({ firstName: _first, lastName: _last, ...lead }) => lead),
        timeline,
      }
    },
  }
}

export type CustomerStore = ReturnType<typeof createCustomerStore>
