/**
 * Who may do what in the staff console (PRODUCT.md, "Running the dealership": roles and what each
 * role may do). This file is the one place a staff procedure or a plain staff route says which
 * role it needs (a console page says it in its own module, host/staff/page.ts); the server checks
 * it on every call (api/trpc/staff-procedure.ts for procedures, api/staff/access.ts for everything
 * under `/staff` and `/api/staff`), and anything not declared is refused to everyone. The enumeration test
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
  'staff.cart.featured': ['sales', 'see what is featured'],
  'staff.cart.setFeaturedOrder': ['sales', 'change the order of what is featured'],
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
  // Answering the shopper (issue #50): sales reply to every lead they can read, and log calls.
  'staff.lead.reply': ['sales', 'reply to leads'],
  'staff.lead.logCall': ['sales', 'log calls'],
  // Reply templates: everyone who reads leads uses them; managers and owners keep them.
  'staff.template.list': ['sales', 'use reply templates'],
  'staff.template.render': ['sales', 'use reply templates'],
  'staff.template.save': ['manager', 'manage reply templates'],
  'staff.template.remove': ['manager', 'manage reply templates'],
  // A customer's record: every lead and message of one person, as their leads are.
  'staff.customer.get': ['sales', 'read customers'],
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
  // A renter's deposit link goes with confirming, which sales do (issue #52).
  'staff.rental.sendDepositLink': ['sales', 'ask renters for deposits'],
  // Deposits paid online (issue #52; PRODUCT.md "after the hold": `/staff/deposits` is the managers').
  'staff.deposit.list': ['manager', 'see deposits'],
  'staff.deposit.get': ['manager', 'see deposits'],
  'staff.deposit.refund': ['manager', 'refund deposits'],
  'staff.deposit.markSold': ['manager', 'count deposits toward sales'],
  // Appointments and follow-ups (issue #51): everyone who works leads sees the bookings, marks
  // who came and keeps tasks on leads; the bookings' figures are the dashboard's (managers).
  'staff.appointment.list': ['sales', 'see the appointments'],
  'staff.appointment.mark': ['sales', 'mark who came to appointments'],
  'staff.appointment.summary': ['manager', 'see the lead dashboard'],
  'staff.task.create': ['sales', 'add follow-ups to leads'],
  'staff.task.done': ['sales', 'mark follow-ups done'],
  'staff.task.forLead': ['sales', 'read leads'],
  'staff.task.due': ['sales', 'read leads'],

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
 * Every plain staff route, as `METHOD /address`, parameters as `{name}` (one path segment): the
 * routes under `/staff` and `/api/staff` that are not console pages. A console page declares its
 * own rules, for its GET and its post, in its module (host/staff/page.ts, `roles`); the guard
 * checks both (api/staff/routes.ts). A HEAD is checked as its GET. Fixed addresses win over patterns.
 */
export const routeAccess: Readonly<Record<string, AccessRule>> = {
  'POST /api/staff/carts/{id}/photos': ['sales', 'add photos'],
  'POST /api/staff/inventory/check': ['manager', 'import the inventory'],
  'POST /api/staff/inventory/import': ['manager', 'import the inventory'],
  'GET /api/staff/inventory.csv': ['manager', 'export the inventory'],
  'GET /staff/leads/dashboard.csv': ['manager', 'download the lead dashboard'],
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
 * What an account may still use while the owner requires a second step and it has none (issue
 * #29): its own account, to add one, and signing out. Everything else sends it there.
 */
export const secondStepNeeded = {
  message: 'The owner requires a second step for every account: add a passkey or an authenticator app on Your account first.',
  procedure: (path: string) => path === 'staff.me' || path.startsWith('staff.account.'),
  page: '/staff/account',
}
