/**
 * Every address of the staff console (docs/PRODUCT.md, "The dealer's staff"), each written once.
 * Nothing here is in the sitemap; everything under `/staff` is `noindex` and needs a session
 * (api/staff/http.ts). The console's pages and their navigation are listed in host/staff/pages.tsx.
 */
export const staffPaths = {
  /** The console's home: the inventory table. */
  console: '/staff',
  login: '/staff/login',
  logout: '/staff/logout',
  newCart: '/staff/carts/new',
  cart: (id: number | string) => `/staff/carts/${encodeURIComponent(String(id))}`,
  /** The list's one-step change of price, status and featured for one cart. */
  quickChange: (id: number | string) => `/staff/carts/${encodeURIComponent(String(id))}/quick`,
  deleteCart: (id: number | string) => `/staff/carts/${encodeURIComponent(String(id))}/delete`,
  /** The listing feeds: what each lists, and which carts it leaves out and why (issue #17). */
  feeds: '/staff/feeds',
  /** The inventory spreadsheet in the console: export, and import with a preview (issue #17). */
  inventoryImport: '/staff/inventory/import',
  /** The whole inventory as the import's spreadsheet (api/staff/inventory-uploads.ts). */
  inventoryExport: '/api/staff/inventory.csv',
  /** A file checked: every change it would make, or every problem; nothing written. */
  inventoryCheckApi: '/api/staff/inventory/check',
  /** The same file applied, if it still makes the change its preview showed (`?fingerprint=`). */
  inventoryImportApi: '/api/staff/inventory/import',
} as const

/** A path back into the console, from a form's `back` field: anything else becomes the console. */
export function consolePath(value: unknown): string {
  if (typeof value !== 'string') return staffPaths.console
  return /^\/staff(?:[/?#]|$)/.test(value) && !value.startsWith('//') && !/[\\\s]/.test(value) ? value : staffPaths.console
}

/** The lead inbox's addresses (issue #18): the inbox, a lead's page, the dashboard and its CSV. */
export const leadPaths = {
  inbox: '/staff/leads',
  dashboard: '/staff/leads/dashboard',
  dashboardCsv: '/staff/leads/dashboard.csv',
  lead: (id: number | string) => `/staff/leads/${encodeURIComponent(String(id))}`,
} as const
