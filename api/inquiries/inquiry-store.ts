import type { Interest, InquiryReceipt, ValidInquiry } from '../../domain/inquiry.ts'
import type { Sql } from '../db/database.ts'

export interface StoredInquiry {
  id: number
  firstName: string
  lastName: string
  email: string
  phone: string | null
  interest: Interest | null
  message: string | null
  sourceUrl: string | null
  sourceLabel: string | null
  createdAt: Date
}

const blankToNull = (value: string | undefined) => (value ? value : null)

export function createInquiryStore(sql: Sql) {
  return {
    async add(inquiry: ValidInquiry): Promise<InquiryReceipt> {
      const [row] = await sql<{ id: number; createdAt: Date; interest: Interest | null }[]>`
        insert into contact_inquiries
          (first_name, last_name, email, phone, interest, message, source_url, source_label)
        values (
          ${inquiry.firstName}, ${inquiry.lastName}, ${inquiry.email}, ${blankToNull(inquiry.phone)},
          ${blankToNull(inquiry.interest)}, ${blankToNull(inquiry.message)},
          ${blankToNull(inquiry.sourceUrl)}, ${blankToNull(inquiry.sourceLabel)}
        )
        returning id, created_at, interest
      `
      return { id: row!.id, createdAt: row!.createdAt.toISOString(), interest: row!.interest }
    },

    async byId(id: number): Promise<StoredInquiry | undefined> {
      const [row] = await sql<StoredInquiry[]>`
        select id, first_name, last_name, email, phone, interest, message, source_url, source_label,
               created_at
        from contact_inquiries where id = ${id}
      `
      return row
    },
  }
}

export type InquiryStore = ReturnType<typeof createInquiryStore>
