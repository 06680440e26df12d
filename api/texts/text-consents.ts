import { phoneKey } from '../../domain/phone-number.ts'
import { textConsentWording } from '../../domain/texting.ts'
import type { Sql, TransactionSql } from '../db/database.ts'

/**
 * Consent to texts, per phone number (PRODUCT.md, "consent to texts"; table `text_consents`,
 * migration 0036): every time it was given or withdrawn, with the words and the time. A number's
 * consent is its latest row; a form's consent counts only while its lead is not spam.
 */
export interface TextConsent {
  given: boolean
  at: Date
  /** The box's words as the shopper saw them, or the keyword they texted. */
  wording: string
}

/** A lead form's ticked box, in the lead's transaction: consent for the lead's phone, in the words shown. */
export async function recordFormConsent(tx: TransactionSql, inquiryId: number, phone: string | null | undefined): Promise<void> {
  const key = phoneKey(phone)
  if (!key) return
  await tx`insert into text_consents (phone_key, given, wording, inquiry_id) values (${key}, true, ${textConsentWording}, ${inquiryId})`
}

/** A keyword the shopper texted: STOP and its synonyms withdraw consent, START gives it again. */
export async function recordTextedConsent(sql: Sql | TransactionSql, key: string, given: boolean, keyword: string): Promise<void> {
  await sql`insert into text_consents (phone_key, given, wording) values (${key}, ${given}, ${`Texted “${keyword}”`})`
}

/** A number's consent as it stands, or undefined when it was never given nor withdrawn. */
export async function consentOf(sql: Sql | TransactionSql, key: string): Promise<TextConsent | undefined> {
  const [row] = await sql<TextConsent[]>`
    select c.given, c.at, c.wording from text_consents c
    left join contact_inquiries i on i.id = c.inquiry_id
    where c.phone_key = ${key} and (c.inquiry_id is null or i.spam_reason is null)
    order by c.id desc limit 1
  `
  return row
}
