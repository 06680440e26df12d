import { cartPage, deleteCartPage, newCartPage } from './cart-form.tsx'
import { depositRefundPage, depositSoldPage, depositsPage } from './deposits.tsx'
import { featuredPage } from './featured.tsx'
import { feedsPage } from './feeds.tsx'
import { inventoryImportPage } from './inventory-import.tsx'
import { bulkChangePage, bulkDeletePage, confirmSoldPage, inventoryPage, quickChangePage } from './inventory.tsx'
import { leadDashboardPage } from './leads/lead-dashboard.tsx'
import { leadInboxPage } from './leads/lead-inbox.tsx'
import { leadPage } from './leads/lead-page.tsx'
import { leadSpamPage } from './leads/lead-spam.tsx'
import { customerPage } from './leads/customer-page.tsx'
import type { ListedStaffPage } from './page.ts'
import { rentalsPage } from './rentals.tsx'
import { appointmentsPage } from './appointments.tsx'
import { settingsPage } from './settings.tsx'
import { templatesPage } from './templates.tsx'
import { accountPage } from './account.tsx'
import { accountsPage } from './accounts.tsx'

/**
 * Every page of the staff console, in the order of its navigation: a page with `nav` gets a link
 * there, the others are reached from a page. Each page declares its address and its roles in its
 * own module (host/staff/page.ts); the guard's table (`consoleRoutes`, host/staff/render.tsx), the
 * navigation and the role test are made from these. Adding a page is its module, its entry here
 * and its procedure (docs/ARCHITECTURE.md, "The staff console").
 */
export const staffPages: readonly ListedStaffPage[] = [
  inventoryPage,
  newCartPage,
  bulkChangePage,
  bulkDeletePage,
  cartPage,
  quickChangePage,
  confirmSoldPage,
  deleteCartPage,
  featuredPage,
  inventoryImportPage,
  leadInboxPage,
  leadDashboardPage,
  leadSpamPage,
  leadPage,
  customerPage,
  templatesPage,
  appointmentsPage,
  rentalsPage,
  depositsPage,
  depositRefundPage,
  depositSoldPage,
  feedsPage,
  accountsPage,
  settingsPage,
  accountPage,
]
