import type { Changes } from '../db/changes.ts'
import type { Sql } from '../db/database.ts'
import { createUserStore } from '../users/user-store.ts'
import { createSecondStep } from '../users/second-step.ts'
import { createPasskeys } from '../users/passkeys.ts'
import { type AccountMail, createAccountLinks } from '../users/account-links.ts'
import { type AuditEntity, cartHistory, historyOf } from './audit.ts'
import { createCartRecords } from './cart-records.ts'
import { createFeaturedOrder } from './featured-order.ts'
import { createInventory } from './inventory.ts'
import type { PhotoSourcePolicy } from '../carts/photo-sources.ts'
import { type DashboardRange, leadDashboard } from './lead-dashboard.ts'
import { createLeadInbox } from './lead-inbox.ts'
import { createLeadTasks } from './lead-tasks.ts'
import { createSpamBox } from './lead-spam.ts'
import { createStaffAlerts } from '../leads/staff-alerts.ts'
import { defaultPushServiceHosts } from '../leads/push-endpoints.ts'
import type { InquiryStoreOptions } from '../inquiries/inquiry-store.ts'
import { createSessionStore } from './sessions.ts'
import { createSettingsStore } from './settings.ts'
import { createSignIn, type SignInPolicy, signInPolicy } from './sign-in.ts'
import { createLeadReplies, type ReplyOptions } from '../leads/lead-replies.ts'
import { createReplyTemplates } from './reply-templates.ts'
import { createCustomerStore } from '../customers/customer-store.ts'

/**
 * What the staff side works with. A cart write tells this process's visitors' answers at once
 * (`changes.notify`), and every other process through the database's notice, so a price or a
 * sale shows on the site at once, whichever server visitors reach. "Send again now" on a lead
 * and "Not spam" wake this process's outbox worker (`leads.onQueued`); "Not spam" queues the
 * notifications every lead gets (`leads.notifications`).
 */
export function createStaffServices(
  sql: Sql,
  changes: Changes,
  policy: SignInPolicy = signInPolicy,
  photoPolicy: PhotoSourcePolicy = { siteUrl: 'http://localhost:3000', allowedHosts: [] },
  leads: InquiryStoreOptions = { notifications: [] },
  accountMail: AccountMail = { from: 'staff@localhost', siteUrl: photoPolicy.siteUrl },
  pushServiceHosts: readonly string[] = defaultPushServiceHosts,
  replies: ReplyOptions = {},
) {
  // An account notice (a changed address) is an email through the outbox: wake it, as a lead does.
  const accounts = createUserStore(sql, { siteUrl: accountMail.siteUrl, onQueued: () => leads.onQueued?.() })
  const sessions = createSessionStore(sql)
  // Passkeys belong to SITE_URL's host (api/users/passkeys.ts).
  const secondStep = createSecondStep(sql, Date.now, createPasskeys(sql, accountMail.siteUrl))
  return {
    accounts,
    sessions,
    /** The authenticator app, passkeys and recovery codes (api/users/second-step.ts). */
    secondStep,
    signIn: createSignIn(sql, accounts, sessions, secondStep, policy),
    /** Password reset and invitation links, by email (api/users/account-links.ts). */
    links: createAccountLinks(sql, accountMail),
    /** The owner's settings (domain/dealer-settings.ts). */
    settings: createSettingsStore(sql),
    cartRecords: createCartRecords(sql, () => changes.notify('golf_carts')),
    /** The order of the featured carts (migration 0035), which visitors' pages show. */
    featuredOrder: createFeaturedOrder(sql, () => changes.notify('featured_order')),
    inventory: createInventory(sql, () => changes.notify('cart_photos'), { photoPolicy }),
    leads: createLeadInbox(sql, { wakeOutbox: () => leads.onQueued?.() }),
    /** Follow-ups on leads (PRODUCT.md, "follow-ups"). */
    tasks: createLeadTasks(sql, { clock: replies.clock }),
    /** Replies by email and text, and calls logged (api/leads/lead-replies.ts). */
    replies: createLeadReplies(sql, replies),
    /** Reply templates, kept by managers (api/staff/reply-templates.ts). */
    templates: createReplyTemplates(sql),
    /** One record per person, every lead on it (api/customers/). */
    customers: createCustomerStore(sql),
    /** Lead alerts in the browser: the push key, this account's browsers, its new leads' count. */
    alerts: createStaffAlerts(sql, pushServiceHosts),
    spam: createSpamBox(sql, leads),
    leadDashboard: (range: DashboardRange) => leadDashboard(sql, range),
    history: (entity: AuditEntity, id: string | number, page: { limit: number; before?: number }) => historyOf(sql, entity, id, page),
    /** A cart's history with its photos' changes among its own. */
    cartHistory: (id: number, page: { limit: number; before?: number }) => cartHistory(sql, id, page),
  }
}

export type StaffServices = ReturnType<typeof createStaffServices>
