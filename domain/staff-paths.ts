/**
 * An address with one `{id}`: called with an id, that one's address (`staffPaths.cart(12)`);
 * its `pattern` is the path its page declares (host/staff/page.ts), so each is written once.
 */
function withId<Pattern extends `/staff/${string}{id}${string}`>(pattern: Pattern) {
  return Object.assign((id: number | string) => pattern.replace('{id}', encodeURIComponent(String(id))), { pattern })
}

/**
 * Every address of the staff console (docs/PRODUCT.md, "The dealer's staff"), each written once.
 * Nothing here is in the sitemap; everything under `/staff` is `noindex` and needs a session
 * (api/staff/http.ts). The console's pages declare their own addresses and links (host/staff/page.ts).
 */
export const staffPaths = {
  /** The console's home: the inventory table. */
  console: '/staff',
  login: '/staff/login',
  logout: '/staff/logout',
  newCart: '/staff/carts/new',
  cart: withId('/staff/carts/{id}'),
  /** The list's one-step change of price, status and featured for one cart. */
  quickChange: withId('/staff/carts/{id}/quick'),
  /** "Duplicate this cart": the new-cart form filled from a cart of the same model (issue #30). */
  duplicateCart: (id: number | string) => `/staff/carts/new?copy=${encodeURIComponent(String(id))}`,
  /** The list's bulk change of status or featured, and the sale's question (issue #30). */
  bulkChange: '/staff/carts/bulk',
  /** Deleting the carts selected in the list, asked first (managers and owners). */
  bulkDelete: '/staff/carts/bulk-delete',
  deleteCart: withId('/staff/carts/{id}/delete'),
  /** The featured carts in their order, each moved with a plain form post (issue #47). */
  featured: '/staff/featured',
  /** The rental calendar: the fleet, and per day the requests and reservations (issue #33). */
  rentals: '/staff/rentals',
  /** "Mark it sold?": the list's row asks before a sale (issue #30), as a page when there is no script. */
  confirmSold: withId('/staff/carts/{id}/sold'),
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
  /** "Forgot your password?": asks for a username or email; `/{token}` is the emailed link. */
  passwordReset: '/staff/password-reset',
  /** Each person's own account: email, password, sessions, second step (issue #29). */
  account: '/staff/account',
  /** Every account, for owners: roles, invitations, disabling (issue #29). */
  accounts: '/staff/accounts',
  /** The owner's settings (issue #29): one section each, domain/dealer-settings.ts. */
  settings: '/staff/settings',
  /** Reply templates with placeholders, kept by managers and owners, offered on a lead's page (issue #50). */
  templates: '/staff/templates',
  /** One person: every lead, message and call of theirs (issue #50). */
  customer: withId('/staff/customers/{id}'),
  /** Deposits paid online: refund, or mark the cart sold with the deposit counted (issue #52). */
  deposits: '/staff/deposits',
  /** "Refund this deposit?": the refund's confirm step, and its post. */
  depositRefund: withId('/staff/deposits/{id}/refund'),
  /** "Mark it sold to this shopper?": the sale's confirm step, the deposit counted, and its post. */
  depositSold: withId('/staff/deposits/{id}/sold'),
  /** Test drives and service drop-offs booked, by day and week per showroom (issue #51). */
  appointments: '/staff/appointments',
} as const

/**
 * A path back into the console, from a form's `back` field: anything else becomes the console.
 * Judged as the browser will read it, after URL normalisation: `/staff/..//evil.test` is
 * `//evil.test`, another site (issue #26), so the check runs on the normalised path, and the
 * normalised path is what is returned.
 */
export function consolePath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000 || /[\\\s]/.test(value) || !value.startsWith('/')) return staffPaths.console
  let url: URL
  try {
    url = new URL(value, 'http://console.invalid')
  } catch {
    return staffPaths.console
  }
  const sameSite = url.origin === 'http://console.invalid' && /^\/staff(?:\/|$)/.test(url.pathname) && !url.pathname.startsWith('//')
  return sameSite ? `${url.pathname}${url.search}${url.hash}` : staffPaths.console
}

/**
 * Where sign-in leads after it (PRODUCT.md, "alert links"): the console page a signed-out browser
 * asked for (a lead alert's link, opened in the morning), carried by the sign-in page as `next`.
 * Only a console path, judged by `consolePath`; anything else (another site, the sign-in itself)
 * is undefined, and sign-in leads to the console's home.
 */
export function signInReturn(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value) return undefined
  const path = consolePath(value)
  return path.replace(/\/+$/, '') === staffPaths.console || path.startsWith(staffPaths.login) || path.startsWith(staffPaths.logout) ? undefined : path
}

/** The sign-in page's address, carrying the page to return to when there is one. */
export function signInAddress(next: string | undefined, step = false): string {
  const query = new URLSearchParams({ ...(step ? { step: 'code' } : {}), ...(next ? { next } : {}) }).toString()
  return query ? `${staffPaths.login}?${query}` : staffPaths.login
}

/** The lead inbox's addresses (issue #18): the inbox, a lead's page, the dashboard and its CSV. */
export const leadPaths = {
  inbox: '/staff/leads',
  dashboard: '/staff/leads/dashboard',
  dashboardCsv: '/staff/leads/dashboard.csv',
  /** What the spam rules caught, with "Not spam" (issue #28). */
  spam: '/staff/leads/spam',
  lead: withId('/staff/leads/{id}'),
} as const
