import { textAddress } from '../../domain/phone-number.ts'
import { textSendTime } from '../../domain/texting.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { textRefusal } from '../leads/lead-replies.ts'
import { queueTaskAlerts } from '../leads/staff-alerts.ts'
import { bookingLink, reminderText } from './appointment-messages.ts'
import { type AppointmentFacts, bookingFacts, type LinkSigner, queueAppointmentMessage } from './appointment-store.ts'

/** How long before a booking its reminder goes. */
export const reminderAheadMs = 86_400_000

/** Who a reminder text is from on the lead's timeline. */
export const reminderAuthor = 'Appointment reminder'

/**
 * Timed work of bookings and follow-ups (PRODUCT.md, "confirmations and reminders", "follow-ups"),
 * run by every process (api/leads/lead-upkeep.ts), each item claimed by a conditional update in
 * the transaction that queues its messages, so however many processes look at once, and after any
 * crash (`kill -9` included), one queues them, once:
 *
 * - 24 hours before a booking, its reminder: an email, and a text where texting is configured and
 *   the number agreed to texts (a text of the lead's timeline, sent as replies are: consent checked
 *   again when it goes, held until 08:00 outside texting hours);
 * - at a follow-up's due time, its alert to the lead's owner (else whoever wrote the task, else
 *   everyone who takes leads): an email and a push a browser.
 *
 * Time is given, not read, so tests stand where they need.
 */
export function createFollowUpUpkeep(
  sql: Sql,
  options: { links: LinkSigner; siteUrl: string; textFrom?: string; onQueued?(): void },
) {
  async function remind(tx: TransactionSql, id: number, now: Date, link: string): Promise<boolean> {
    const [claimed] = await tx<{ id: number }[]>`
      update appointments set reminded_at = ${now}
      where id = ${id} and status = 'booked' and reminded_at is null and starts_at > ${now}
      returning id
    `
    if (!claimed) return false
    const [booking] = await tx<(Pick<AppointmentFacts, 'leadId' | 'revision' | 'firstName' | 'phone'>)[]>`
      select a.inquiry_id as lead_id, a.revision, i.first_name, i.phone from appointments a join contact_inquiries i on i.id = a.inquiry_id where a.id = ${id}
    `
    await queueAppointmentMessage(tx, booking!.leadId, 'appointment-reminder', id, booking!.revision)
    if (options.textFrom && !(await textRefusal(tx, booking!))) {
      const facts = await bookingFacts(tx, id)
      const body = reminderText(facts!, link)
      const sendAt = textSendTime(now)
      const waiting = sendAt.getTime() > now.getTime()
      const [message] = await tx<[{ id: number }]>`
        insert into lead_messages (inquiry_id, channel, direction, body, author_id, author, address, status, at)
        values (${booking!.leadId}, 'sms', 'out', ${body}, null, ${reminderAuthor}, ${textAddress(booking!.phone)}, ${waiting ? 'waiting' : 'queued'}, ${now})
        returning id
      `
      // Outside texting hours it waits until 08:00; inside, it is due at once.
      await tx`
        insert into outbox_messages (inquiry_id, kind, lead_message_id, next_attempt_at)
        values (${booking!.leadId}, 'reply-sms', ${message.id}, ${waiting ? sendAt : tx`now()`})
      `
    }
    return true
  }

  async function alertTask(tx: TransactionSql, id: number, now: Date): Promise<boolean> {
    const [task] = await tx<{ inquiryId: number; ownerId: number | null }[]>`
      with claimed as (
        update lead_tasks set alerted_at = ${now}
        where id = ${id} and alerted_at is null and done_at is null and due_at <= ${now}
        returning inquiry_id, author_id
      )
      select c.inquiry_id, coalesce(i.owner_id, (select u.id from users u where u.id = c.author_id and not u.disabled)) as owner_id
      from claimed c join contact_inquiries i on i.id = c.inquiry_id
    `
    if (!task) return false
    await queueTaskAlerts(tx, task.inquiryId, id, task.ownerId)
    return true
  }

  return {
    async run(now: Date): Promise<{ reminded: number[]; alerted: number[] }> {
      const reminded: number[] = []
      const alerted: number[] = []
      const soon = await sql<{ id: number }[]>`
        select id from appointments
        where status = 'booked' and reminded_at is null and starts_at > ${now} and starts_at <= ${new Date(now.getTime() + reminderAheadMs)}
        order by starts_at limit 500
      `
      for (const { id } of soon) {
        // Signed before the transaction: the key may need a read of its own (the embedded database has one connection).
        const link = bookingLink(options.siteUrl, id, await options.links.sign(id))
        if (await sql.begin((tx) => remind(tx, id, now, link))) reminded.push(id)
      }
      const due = await sql<{ id: number }[]>`
        select id from lead_tasks where done_at is null and alerted_at is null and due_at <= ${now} order by due_at limit 500
      `
      for (const { id } of due) if (await sql.begin((tx) => alertTask(tx, id, now))) alerted.push(id)
      if (reminded.length > 0 || alerted.length > 0) options.onQueued?.()
      return { reminded, alerted }
    },
  }
}

export type FollowUpUpkeep = ReturnType<typeof createFollowUpUpkeep>
