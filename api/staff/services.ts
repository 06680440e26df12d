import { announceChange, type Changes } from '../db/changes.ts'
import type { Sql } from '../db/database.ts'
import { createUserStore } from '../users/user-store.ts'
import { type AuditEntity, cartHistory, historyOf } from './audit.ts'
import { createCartRecords } from './cart-records.ts'
import { createInventory } from './inventory.ts'
import type { PhotoSourcePolicy } from '../carts/photo-sources.ts'
import { type DashboardRange, leadDashboard } from './lead-dashboard.ts'
import { createLeadInbox } from './lead-inbox.ts'
import { createSessionStore } from './sessions.ts'
import { createSignIn, type SignInPolicy, signInPolicy } from './sign-in.ts'

/**
 * What the staff side works with. A cart write tells this process's visitors' answers at once
 * (`changes.notify`), and every other process through the database's notice, so a price or a
 * sale shows on the site at once, whichever server visitors reach. "Send again now" on a lead
 * wakes this process's outbox worker (`wakeOutbox`).
 */
export function createStaffServices(
  sql: Sql,
  changes: Changes,
  policy: SignInPolicy = signInPolicy,
  photoPolicy: PhotoSourcePolicy = { siteUrl: 'http://localhost:3000', allowedHosts: [] },
  wakeOutbox?: () => void,
) {
  const accounts = createUserStore(sql)
  const sessions = createSessionStore(sql)
  return {
    accounts,
    sessions,
    signIn: createSignIn(sql, accounts, sessions, policy),
    cartRecords: createCartRecords(sql, () => changes.notify()),
    inventory: createInventory(sql, () => announceChange(sql, changes, 'cart_photos'), { photoPolicy }),
    leads: createLeadInbox(sql, { wakeOutbox }),
    leadDashboard: (range: DashboardRange) => leadDashboard(sql, range),
    history: (entity: AuditEntity, id: string | number, page: { limit: number; before?: number }) => historyOf(sql, entity, id, page),
    /** A cart's history with its photos' changes among its own. */
    cartHistory: (id: number, page: { limit: number; before?: number }) => cartHistory(sql, id, page),
  }
}

export type StaffServices = ReturnType<typeof createStaffServices>
