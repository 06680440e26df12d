import { business } from '../../domain/business.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import type { TransactionSql } from '../db/database.ts'
import { newJerseyTime } from '../leads/lead-facts.ts'

/**
 * Emails about an account itself (PRODUCT.md, "changes that need the password"), queued in the
 * outbox in the transaction that makes the change, so a change is never made without its notice.
 * Unlike reset links they carry no secret, so the outbox may keep them.
 */
export const accountNoticeKind = 'account-notice'

export interface AccountNotice {
  to: string[]
  subject: string
  text: string
}

/** The email telling an account's old address that the account's address changed. */
export function emailChangedNotice(username: string, before: string, after: string | null, at: Date, siteUrl: string): AccountNotice {
  return {
    to: [before],
    subject: `The email address of your ${business.name} staff account was changed`,
    text: [
      `The email address of the staff account "${username}" was changed on ${newJerseyTime(at)}`,
      after ? `from ${before} to ${after}.` : `from ${before} to none.`,
      '',
      'Password reset links and lead alerts no longer come to this address.',
      '',
      'If it was you, there is nothing to do. If it was not, someone who knows your password changed it:',
      `tell the dealership's owner at once, and sign in to change your password and the address back:`,
      new URL(staffPaths.login, siteUrl).href,
    ].join('\n'),
  }
}

export async function queueAccountNotice(tx: TransactionSql, userId: number, notice: AccountNotice): Promise<void> {
  await tx`insert into outbox_messages (kind, user_id, notice) values (${accountNoticeKind}, ${userId}, ${tx.json(notice as never)})`
}
