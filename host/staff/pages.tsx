import { cartPage, deleteCartPage, newCartPage } from './cart-form.tsx'
import { feedsPage } from './feeds.tsx'
import { inventoryImportPage } from './inventory-import.tsx'
import { inventoryPage, quickChangePage } from './inventory.tsx'
import { leadDashboardPage } from './leads/lead-dashboard.tsx'
import { leadInboxPage } from './leads/lead-inbox.tsx'
import { leadPage } from './leads/lead-page.tsx'
import type { ListedStaffPage } from './page.ts'

/**
 * Every page of the staff console, in the order of its navigation: a page with `nav` gets a link
 * there, the others are reached from a page. Adding a page is one entry here (docs/ARCHITECTURE.md,
 * "The staff console"); everything under `/staff` already needs a session (api/staff/http.ts).
 * The first address that matches wins, so fixed addresses come before patterns.
 */
export const staffPages: readonly ListedStaffPage[] = [
  inventoryPage,
  newCartPage,
  cartPage,
  quickChangePage,
  deleteCartPage,
  inventoryImportPage,
  leadInboxPage,
  leadDashboardPage,
  leadPage,
  feedsPage,
]
