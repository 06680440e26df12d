import * as z from 'zod/mini'
import type { Sql, TransactionSql } from '../db/database.ts'
import { readSetting } from '../staff/settings.ts'
import { defaultPushServiceHosts, pushEndpoint } from './push-endpoints.ts'
import { vapidKeys } from './web-push.ts'

/**
 * Staff alerts (PRODUCT.md, "lead alerts" and "escalation"): an email with a link to the lead and
 * a Web Push notification on every browser where the person turned alerts on. They are outbox
 * rows, one per account (the email) and one per browser (the push), queued in the transaction
 * that stores the lead (or, for escalation, marks it escalated), so the outbox worker sends each
 * once, after any crash or push service outage.
 */
export const staffAlertKinds = ['staff-alert', 'staff-push', 'escalation-alert', 'escalation-push', 'text-alert', 'text-push', 'task-alert', 'task-push'] as const
export type StaffAlertKind = (typeof staffAlertKinds)[number]
export const pushKinds: readonly StaffAlertKind[] = ['staff-push', 'escalation-push', 'text-push', 'task-push']

/**
 * Who takes leads: the active accounts the routing setting lists for any interest, or, when it
 * lists nobody, every active account (until the owner says otherwise, everyone does).
 */
async function leadTakers(tx: TransactionSql): Promise<number[]> {
  const listed = [...new Set(Object.values(await readSetting(tx, 'leadRouting')).flat())]
  const rows =
    listed.length > 0
      ? await tx<{ id: number }[]>`select id from users where id in ${tx(listed)} and not disabled`
      : await tx<{ id: number }[]>`select id from users where not disabled`
  return rows.map((row) => row.id)
}

/** Queues the alerts of a lead: to its owner, or to everyone who takes leads when it has none. */
export async function queueArrivalAlerts(tx: TransactionSql, inquiryId: number, ownerId: number | null): Promise<void> {
  await queueAlerts(tx, inquiryId, ownerId !== null ? [ownerId] : await leadTakers(tx), 'staff-alert', 'staff-push')
}

/** Queues a waiting lead's escalation to every active manager and owner. */
export async function queueEscalationAlerts(tx: TransactionSql, inquiryId: number): Promise<void> {
  const rows = await tx<{ id: number }[]>`select id from users where role in ('manager', 'owner') and not disabled`
  await queueAlerts(
    tx,
    inquiryId,
    rows.map((row) => row.id),
    'escalation-alert',
    'escalation-push',
  )
}

/**
 * Queues the alerts of a text the shopper sent (PRODUCT.md, "texting"): to the lead's owner, or,
 * unassigned, to everyone who takes leads, as a new lead's; one email and push per text.
 */
export async function queueTextAlerts(tx: TransactionSql, inquiryId: number, messageId: number, ownerId: number | null): Promise<void> {
  await queueAlerts(tx, inquiryId, ownerId !== null ? [ownerId] : await leadTakers(tx), 'text-alert', 'text-push', messageId)
}

/**
 * Queues a follow-up's alert (PRODUCT.md, "follow-ups"): to the lead's owner, or, unassigned, to
 * everyone who takes leads; one email and a push a browser, once per task.
 */
export async function queueTaskAlerts(tx: TransactionSql, inquiryId: number, taskId: number, ownerId: number | null): Promise<void> {
  await queueAlerts(tx, inquiryId, ownerId !== null ? [ownerId] : await leadTakers(tx), 'task-alert', 'task-push', null, taskId)
}

async function queueAlerts(
  tx: TransactionSql,
  inquiryId: number,
  userIds: readonly number[],
  email: StaffAlertKind,
  push: StaffAlertKind,
  messageId: number | null = null,
  taskId: number | null = null,
) {
  if (userIds.length === 0) return
  await tx`
    insert into outbox_messages (inquiry_id, kind, user_id, lead_message_id, task_id)
    select ${inquiryId}, ${email}, id, ${messageId}, ${taskId} from users where id in ${tx(userIds)} and email is not null and not disabled
    on conflict do nothing
  `
  await tx`
    insert into outbox_messages (inquiry_id, kind, user_id, push_subscription_id, lead_message_id, task_id)
    select ${inquiryId}, ${push}, s.user_id, s.id, ${messageId}, ${taskId} from push_subscriptions s
    join users u on u.id = s.user_id and not u.disabled
    where s.user_id in ${tx(userIds)}
    on conflict do nothing
  `
}

/** A browser's subscription as the Push API gives it (`PushSubscription.toJSON()`). */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https$/, error: 'endpoint must be an https URL' }).check(z.maxLength(2000)),
  keys: z.object({
    p256dh: z.string().check(z.regex(/^[\w-]+=*$/, 'keys.p256dh must be base64url'), z.minLength(20), z.maxLength(200)),
    auth: z.string().check(z.regex(/^[\w-]+=*$/, 'keys.auth must be base64url'), z.minLength(8), z.maxLength(100)),
  }),
})
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>

/** How many browsers one account's alerts go to at most: a new one past it replaces the oldest. */
export const browsersPerAccount = 10

/** A subscription refused: its endpoint is not a push service's, or is another account's. */
export class PushEndpointRefused extends Error {
  override name = 'PushEndpointRefused'
}

export const takenEndpointMessage =
  'Another account takes alerts on this browser. Sign in as that account and turn its alerts off here first.'

/** The console's side of alerts: the key browsers subscribe with, their subscriptions, the count. */
export function createStaffAlerts(sql: Sql, pushServiceHosts: readonly string[] = defaultPushServiceHosts) {
  return {
    /** The server's VAPID public key (base64url), which a browser's subscription is tied to. */
    async publicKey(): Promise<string> {
      return (await vapidKeys(sql)).publicKey
    },

    /**
     * This browser takes this account's alerts from now on (PRODUCT.md, "push endpoints"): only
     * on a push service of `PUSH_SERVICE_HOSTS`, never an endpoint another account has (that
     * account's alerts would go to this browser's holder), and at most `browsersPerAccount`
     * browsers an account, the one subscribed longest ago going first.
     */
    async subscribe(userId: number, subscription: PushSubscriptionInput): Promise<{ browsers: number }> {
      const checked = pushEndpoint(subscription.endpoint, pushServiceHosts)
      if ('problem' in checked) throw new PushEndpointRefused(checked.problem)
      await sql.begin(async (tx) => {
        // One subscription at a time per account, so browsers added at once keep the bound.
        await tx`select id from users where id = ${userId} for update`
        const [mine] = await tx<{ id: number }[]>`
          insert into push_subscriptions (user_id, endpoint, p256dh, auth)
          values (${userId}, ${checked.endpoint}, ${subscription.keys.p256dh}, ${subscription.keys.auth})
          on conflict (endpoint) do update set p256dh = excluded.p256dh, auth = excluded.auth, created_at = now()
          where push_subscriptions.user_id = excluded.user_id
          returning id
        `
        if (!mine) throw new PushEndpointRefused(takenEndpointMessage)
        await tx`
          delete from push_subscriptions where user_id = ${userId} and id not in (
            select id from push_subscriptions where user_id = ${userId} order by created_at desc, id desc limit ${browsersPerAccount}
          )
        `
      })
      return this.browsers(userId)
    },

    async unsubscribe(userId: number, endpoint: string): Promise<{ browsers: number }> {
      const checked = pushEndpoint(endpoint, pushServiceHosts)
      const stored = 'endpoint' in checked ? checked.endpoint : endpoint
      await sql`delete from push_subscriptions where user_id = ${userId} and endpoint = ${stored}`
      return this.browsers(userId)
    },

    /** How many browsers take this account's alerts. */
    async browsers(userId: number): Promise<{ browsers: number }> {
      const [row] = await sql<[{ n: number }]>`select count(*)::int as n from push_subscriptions where user_id = ${userId}`
      return { browsers: row?.n ?? 0 }
    },

    /** New leads for this account: status New, not spam, and its own or nobody's. */
    async newLeadCount(userId: number): Promise<number> {
      const [row] = await sql<[{ n: number }]>`
        select count(*)::int as n from contact_inquiries
        where status = 'new' and spam_reason is null and (owner_id = ${userId} or owner_id is null)
      `
      return row?.n ?? 0
    },
  }
}

export type StaffAlerts = ReturnType<typeof createStaffAlerts>
