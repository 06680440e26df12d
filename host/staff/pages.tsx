import { cartPage, deleteCartPage, newCartPage } from './cart-form.tsx'
import { feedsPage } from './feeds.tsx'
import { inventoryImportPage } from './inventory-import.tsx'
import { bulkChangePage, bulkDeletePage, confirmSoldPage, inventoryPage, quickChangePage } from './inventory.tsx'
import { leadDashboardPage } from './leads/lead-dashboard.tsx'
import { leadInboxPage } from './leads/lead-inbox.tsx'
import { leadPage } from './leads/lead-page.tsx'
import { leadSpamPage } from './leads/lead-spam.tsx'
import type { ListedStaffPage } from './page.ts'
import { rentalsPage } from './rentals.tsx'
import { settingsPage } from './settings.tsx'
import { accountPage } from './account.tsx'
import { accountsPage } from './accounts.tsx'

/**
 * Every page of the staff console, in the order of its navigation: a page with `nav` gets a link
 * there, the others are reached from a page. Adding a page is one entry here (docs/ARCHITECTURE.md,
 * "The staff console") and its rule in domain/staff-access.ts (`routeAccess`: the least role for
 * its GET and for its post); everything under `/staff` needs a session and that role
 * (api/staff/http.ts), and a page without a rule is not there for anyone.
 * The first address that matches wins, so fixed addresses come before patterns.
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
  inventoryImportPage,
  leadInboxPage,
  leadDashboardPage,
  leadSpamPage,
  leadPage,
  rentalsPage,
  feedsPage,
  accountsPage,
  settingsPage,
  accountPage,
]
