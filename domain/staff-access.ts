/**
 * Who may do what in the staff console (PRODUCT.md, "Running the dealership": roles and what each
 * role may do). This file is the one place a staff procedure, a console page or post, or a plain
 * staff route says which role it needs; the server checks it on every call
 * (api/trpc/staff-procedure.ts for procedures, api/staff/access.ts for everything under `/staff`
 * and `/api/staff`), and anything not listed here is refused to everyone. The enumeration test
 * (api/staff/staff-access.test.ts) holds its own copy of PRODUCT.md's table and fails for a
 * procedure or route that is missing here or allows the wrong roles.
 *
 * Each rule is the least role that may do it (each role may do all that the one before it may,
 * PRODUCT.md: "all of that, plus") and what it does, as the refusal's sentence says it:
 * "Only managers and owners can delete carts."
 */
export const staffRoles = ['sales', 'manager', 'owner'] as const
export type StaffRole = (typeof staffRoles)[number]

export const roleLabels: Record<StaffRole, string> = { sales: 'Sales', manager: 'Manager', owner: 'Owner' }

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (staffRoles as readonly string[]).includes(value)
}

/** Whether `role` may do what needs at least `least`. */
export function roleAllows(role: StaffRole, least: StaffRole): boolean {
  return staffRoles.indexOf(role) >= staffRoles.indexOf(least)
}

/** The least role, and what it lets someone do (the end of "Only owners can ..."). */
export type AccessRule = readonly [least: StaffRole, action: string]

/** Every `staff.*` tRPC procedure, by its path. */
export const procedureAccess: Readonly<Record<string, AccessRule>> = {
  'staff.me': ['sales', 'use the staff console'],
  'staff.session.signOutEverywhere': ['sales', 'sign out everywhere'],

  'staff.cart.list': ['sales', 'see the inventory'],
  'staff.cart.get': ['sales', 'see a cart'],
  'staff.cart.save': ['sales', 'add and edit carts'],
  'staff.cart.setPrice': ['sales', 'change prices'],
  'staff.cart.setStatus': ['sales', 'change statuses'],
  'staff.cart.setFeatured': ['sales', 'change what is featured'],
  'staff.cart.saveRow': ['sales', 'change prices, statuses and what is featured'],
  'staff.cart.saveMany': ['sales', 'change statuses and what is featured'],
  'staff.cart.delete': ['manager', 'delete carts'],
  'staff.cart.deleteMany': ['manager', 'delete carts'],
  'staff.audit.forCart': ['sales', 'see a cart’s history'],
  'staff.photo.list': ['sales', 'see a cart’s photos'],
  'staff.photo.reorder': ['sales', 'change photos'],
  'staff.photo.setCover': ['sales', 'change photos'],
  'staff.photo.setAlt': ['sales', 'change photos'],
  'staff.photo.remove': ['sales', 'change photos'],
  'staff.feeds.report': ['manager', 'see the feeds page'],

  'staff.lead.list': ['sales', 'read leads'],
  'staff.lead.get': ['sales', 'read leads'],
  'staff.lead.choices': ['sales', 'read leads'],
  'staff.lead.setStatus': ['sales', 'set a lead’s status'],
  // Sales may only take a lead themselves: assigning to anyone else is `assignLeadsToAnyone`.
  'staff.lead.assign': ['sales', 'take a lead'],
  'staff.lead.addNote': ['sales', 'add notes to leads'],
  'staff.lead.resend': ['manager', 'send a lead’s emails again'],
  'staff.lead.dashboard': ['manager', 'see the lead dashboard'],
  'staff.lead.spam': ['manager', 'see the spam view'],
  'staff.lead.notSpam': ['manager', 'move a lead out of spam'],

  // The rental calendar (issue #33): everyone reads it and works its requests (they are leads);
  // the fleet's size is the manager's (PRODUCT.md: "the rental calendar's fleet").
  'staff.rental.calendar': ['sales', 'see the rental calendar'],
  'staff.rental.confirm': ['sales', 'confirm rental requests'],
  'staff.rental.decline': ['sales', 'decline rental requests'],
  'staff.rental.change': ['sales', 'change rental requests'],
  'staff.rental.setFleet': ['manager', 'change the rental fleet'],

  // Lead alerts on one's own browsers, and one's own count of new leads (issue #28).
  'staff.alerts.publicKey': ['sales', 'turn on lead alerts'],
  'staff.alerts.subscribe': ['sales', 'turn on lead alerts'],
  'staff.alerts.unsubscribe': ['sales', 'turn off lead alerts'],
  'staff.alerts.newLeads': ['sales', 'read leads'],
  // Each person's own account (issue #29): every role, and only their own.
  'staff.account.get': ['sales', 'see their own account'],
  'staff.account.setEmail': ['sales', 'change their own email address'],
  'staff.account.setPassword': ['sales', 'change their own password'],
  'staff.account.endSession': ['sales', 'sign their own browsers out'],
  'staff.account.endOtherSessions': ['sales', 'sign their own browsers out'],
  'staff.account.startAuthenticator': ['sales', 'add their own second step'],
  'staff.account.confirmAuthenticator': ['sales', 'add their own second step'],
  'staff.account.removeAuthenticator': ['sales', 'remove their own second step'],
  'staff.account.newRecoveryCodes': ['sales', 'renew their own recovery codes'],
  'staff.account.passkeyOptions': ['sales', 'add their own second step'],
  'staff.account.addPasskey': ['sales', 'add their own second step'],
  'staff.account.removePasskey': ['sales', 'remove their own second step'],
  // Every account (PRODUCT.md: "owner: ... plus accounts and settings").
  'staff.accounts.list': ['owner', 'see the accounts'],
  'staff.accounts.setRole': ['owner', 'change roles'],
  'staff.accounts.setDisabled': ['owner', 'disable accounts'],
  'staff.accounts.remove': ['owner', 'remove accounts'],
  'staff.accounts.invite': ['owner', 'invite people'],
  'staff.accounts.sendReset': ['owner', 'send password resets'],

  'staff.settings.get': ['owner', 'see the settings'],
  'staff.settings.save': ['owner', 'change the settings'],
}

/**
 * Every console page and post and every plain staff route, as `METHOD /address`, parameters as
 * `{name}` (one path segment). A HEAD is checked as its GET. Fixed addresses win over patterns.
 */
export const routeAccess: Readonly<Record<string, AccessRule>> = {
  'GET /staff': ['sales', 'see the inventory'],
  'GET /staff/carts/new': ['sales', 'add carts'],
  'POST /staff/carts/new': ['sales', 'add carts'],
  'GET /staff/carts/{id}': ['sales', 'see a cart'],
  'POST /staff/carts/{id}': ['sales', 'edit carts'],
  'POST /staff/carts/{id}/quick': ['sales', 'change prices, statuses and what is featured'],
  'GET /staff/carts/{id}/sold': ['sales', 'mark carts sold'],
  'GET /staff/carts/bulk': ['sales', 'change statuses and what is featured'],
  'POST /staff/carts/bulk': ['sales', 'change statuses and what is featured'],
  'GET /staff/carts/bulk-delete': ['manager', 'delete carts'],
  'POST /staff/carts/bulk-delete': ['manager', 'delete carts'],
  'GET /staff/carts/{id}/delete': ['manager', 'delete carts'],
  'POST /staff/carts/{id}/delete': ['manager', 'delete carts'],
  'POST /api/staff/carts/{id}/photos': ['sales', 'add photos'],

  'GET /staff/inventory/import': ['manager', 'import and export the inventory'],
  'POST /api/staff/inventory/check': ['manager', 'import the inventory'],
  'POST /api/staff/inventory/import': ['manager', 'import the inventory'],
  'GET /api/staff/inventory.csv': ['manager', 'export the inventory'],
  'GET /staff/feeds': ['manager', 'see the feeds page'],

  'GET /staff/leads': ['sales', 'read leads'],
  'GET /staff/leads/{id}': ['sales', 'read leads'],
  'POST /staff/leads/{id}': ['sales', 'work leads'],
  'GET /staff/leads/dashboard': ['manager', 'see the lead dashboard'],
  'GET /staff/leads/dashboard.csv': ['manager', 'download the lead dashboard'],
  'GET /staff/leads/spam': ['manager', 'see the spam view'],
  'POST /staff/leads/spam': ['manager', 'move a lead out of spam'],

  // The rental calendar (issue #33): its page, and its forms (confirm, decline, change; the
  // fleet's form also posts here, and staff.rental.setFleet refuses it below a manager).
  'GET /staff/rentals': ['sales', 'see the rental calendar'],
  'POST /staff/rentals': ['sales', 'work rental requests'],

  'GET /staff/account': ['sales', 'see their own account'],
  'POST /staff/account': ['sales', 'change their own account'],
  'GET /staff/accounts': ['owner', 'see the accounts'],
  'POST /staff/accounts': ['owner', 'change accounts'],

  'GET /staff/settings': ['owner', 'see the settings'],
  'POST /staff/settings': ['owner', 'change the settings'],
}

/** The addresses under `/staff` that need no session: signing in and out, the app's manifest and worker. */
export const publicStaffRoutes: readonly string[] = [
  'GET /staff/login',
  'POST /staff/login',
  'POST /staff/logout',
  // The installable console's manifest and service worker (issue #28): browsers fetch them
  // without the session cookie; they hold nothing private.
  'GET /staff/manifest.webmanifest',
  'GET /staff/sw.js',
  // Setting a password through an emailed link (issue #29): asking for one, and using it.
  'GET /staff/password-reset',
  'POST /staff/password-reset',
  'GET /staff/password-reset/{token}',
  'POST /staff/password-reset/{token}',
]

/** Whether a request under `/staff` is one of `publicStaffRoutes` (a HEAD as its GET). */
export function isPublicStaffRoute(method: string, path: string): boolean {
  const verb = method === 'HEAD' ? 'GET' : method
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  return publicStaffRoutes.some((route) => {
    const [ruleMethod, address] = route.split(' ') as [string, string]
    if (ruleMethod !== verb) return false
    const pattern = address.replace(/\{\w+\}/g, '[A-Za-z0-9_-]{1,100}')
    return new RegExp(`^${pattern}$`).test(trimmed)
  })
}

/**
 * What a procedure allows only some of its callers: checked inside it, declared here with the rest.
 */
export const abilityAccess = {
  /** `staff.lead.assign` to someone other than oneself, or to nobody (PRODUCT.md: managers). */
  assignLeadsToAnyone: ['manager', 'assign leads to someone else'],
} as const satisfies Record<string, AccessRule>

export type StaffAbility = keyof typeof abilityAccess

/** The sentence a refusal says: who may do it, and what the person's own role is. */
export function refusalMessage([least, action]: AccessRule, role: StaffRole): string {
  const who = least === 'owner' ? 'owners' : least === 'manager' ? 'managers and owners' : 'signed-in staff'
  return `Only ${who} can ${action}; your account’s role is ${roleLabels[role].toLowerCase()}.`
}

/**
 * The rule for a request under `/staff` or `/api/staff`, or undefined when none is listed (refused
 * to everyone). `path` is the path alone, as the browser sent it.
 */
export function routeRule(method: string, path: string): { key: string; rule: AccessRule } | undefined {
  const verb = method === 'HEAD' ? 'GET' : method
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path
  const exact = routeAccess[`${verb} ${trimmed}`] ?? routeAccess[`${verb} ${trimmed.toLowerCase()}`]
  if (exact) return { key: `${verb} ${trimmed.toLowerCase()}`, rule: exact }
  for (const { key, method: ruleMethod, pattern } of routePatterns) {
    if (ruleMethod === verb && pattern.test(trimmed)) return { key, rule: routeAccess[key]! }
  }
  return undefined
}

const routePatterns = Object.keys(routeAccess)
  .filter((key) => key.includes('{'))
  .map((key) => {
    const [method, address] = key.split(' ') as [string, string]
    const source = address
      .split(/\{\w+\}/)
      .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')
    return { key, method, pattern: new RegExp(`^${source}$`, 'i') }
  })

/**
 * What an account may still use while the owner requires a second step and it has none (issue
 * #29): its own account, to add one, and signing out. Everything else sends it there.
 */
export const secondStepNeeded = {
  message: 'The owner requires a second step for every account: add a passkey or an authenticator app on Your account first.',
  procedure: (path: string) => path === 'staff.me' || path.startsWith('staff.account.'),
  page: '/staff/account',
}
