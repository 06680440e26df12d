import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AnyProcedure } from '@trpc/server'
import type { Express } from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  procedureAccess,
  publicStaffRoutes,
  roleAllows,
  routeAccess,
  type StaffRole,
  staffRoles,
} from '../../domain/staff-access.ts'
import { consoleRoutes as declaredRoutes } from '../../host/staff/render.tsx'
import { staffPages } from '../../host/staff/pages.ts'
import { leadPaths, staffPaths } from '../../domain/staff-paths.ts'
import { plainStaffRoutes, routeKey, routeMatcher } from './routes.ts'
import { staffClient, staffPassword } from '../../tests/support/staff.ts'
import type { TRPCClientError } from '@trpc/client'
import type { AppRouter } from '../trpc/router.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { productionDeadlines } from '../db/unavailable.ts'
import { createContextInner } from '../trpc/context.ts'
import { createCallerFactory, router } from '../trpc/init.ts'
import { appRouter } from '../trpc/router.ts'
import { staffMessages, staffProcedure } from '../trpc/staff-procedure.ts'

/**
 * PRODUCT.md's table ("what each role may do"), written out here on its own: the least role for
 * every staff procedure and every console page, post and staff route. The code's declarations
 * (domain/staff-access.ts) must agree with it, and a procedure or route that appears in the code
 * without a line here fails this test: nothing new reaches a role without someone deciding.
 */
const consoleDir = fileURLToPath(new URL('../../host/staff/', import.meta.url))

const productTable: Record<string, StaffRole> = {
  // Every account: who am I, and signing out of every browser.
  'staff.me': 'sales',
  'staff.session.signOutEverywhere': 'sales',
  // sales: read the inventory; edit carts, prices, statuses, featured, photos.
  'staff.cart.list': 'sales',
  'staff.cart.get': 'sales',
  'staff.cart.save': 'sales',
  'staff.cart.setPrice': 'sales',
  'staff.cart.setStatus': 'sales',
  'staff.cart.setFeatured': 'sales',
  'staff.cart.saveRow': 'sales',
  'staff.cart.saveMany': 'sales',
  // sales: "edit ... featured" (PRODUCT.md's table), its order included (issue #47).
  'staff.cart.featured': 'sales',
  'staff.cart.setFeaturedOrder': 'sales',
  'GET /staff/featured': 'sales',
  'POST /staff/featured': 'sales',
  'staff.audit.forCart': 'sales',
  'staff.photo.list': 'sales',
  'staff.photo.reorder': 'sales',
  'staff.photo.setCover': 'sales',
  'staff.photo.setAlt': 'sales',
  'staff.photo.remove': 'sales',
  'GET /staff': 'sales',
  'GET /staff/carts/new': 'sales',
  'POST /staff/carts/new': 'sales',
  'GET /staff/carts/{id}': 'sales',
  'POST /staff/carts/{id}': 'sales',
  'POST /staff/carts/{id}/quick': 'sales',
  'GET /staff/carts/{id}/sold': 'sales',
  // sales: several carts' status or featured at once; managers: deleting several (issue #30).
  'GET /staff/carts/bulk': 'sales',
  'POST /staff/carts/bulk': 'sales',
  'GET /staff/carts/bulk-delete': 'manager',
  'POST /staff/carts/bulk-delete': 'manager',
  'POST /api/staff/carts/{id}/photos': 'sales',
  // sales: read every lead, take a lead, set its status, add notes.
  'staff.lead.list': 'sales',
  'staff.lead.get': 'sales',
  'staff.lead.choices': 'sales',
  'staff.lead.setStatus': 'sales',
  'staff.lead.assign': 'sales',
  'staff.lead.addNote': 'sales',
  // sales answer every lead they read (issue #50): email, text, calls; they use the templates and
  // read customers; keeping the templates is a manager's.
  'staff.lead.reply': 'sales',
  'staff.lead.logCall': 'sales',
  'staff.template.list': 'sales',
  'staff.template.render': 'sales',
  'staff.customer.get': 'sales',
  'staff.template.save': 'manager',
  'staff.template.remove': 'manager',
  'GET /staff/leads': 'sales',
  'GET /staff/leads/{id}': 'sales',
  'POST /staff/leads/{id}': 'sales',
  // A customer's record, read as their leads are; the templates page is a manager's (issue #50).
  'GET /staff/customers/{id}': 'sales',
  'GET /staff/templates': 'manager',
  'POST /staff/templates': 'manager',
  // manager: delete carts, import and export, assign leads to anyone, the dashboard and its CSV,
  // the feeds page; sending a lead's emails again is not in the sales list.
  'staff.cart.delete': 'manager',
  'staff.cart.deleteMany': 'manager',
  'GET /staff/carts/{id}/delete': 'manager',
  'POST /staff/carts/{id}/delete': 'manager',
  'GET /staff/inventory/import': 'manager',
  'POST /api/staff/inventory/check': 'manager',
  'POST /api/staff/inventory/import': 'manager',
  'GET /api/staff/inventory.csv': 'manager',
  'staff.lead.resend': 'manager',
  'staff.lead.dashboard': 'manager',
  'GET /staff/leads/dashboard': 'manager',
  'GET /staff/leads/dashboard.csv': 'manager',
  // manager: the spam view (issue #28), and "Not spam" on it.
  'staff.lead.spam': 'manager',
  'staff.lead.notSpam': 'manager',
  'GET /staff/leads/spam': 'manager',
  'POST /staff/leads/spam': 'manager',
  'staff.feeds.report': 'manager',
  'GET /staff/feeds': 'manager',
  // The rental calendar (issue #33): its requests are leads, worked by sales; the fleet is the
  // manager's ("the rental calendar's fleet").
  'staff.rental.calendar': 'sales',
  'staff.rental.confirm': 'sales',
  'staff.rental.decline': 'sales',
  'staff.rental.change': 'sales',
  'staff.rental.setFleet': 'manager',
  // Deposits (issue #52): a renter's link with the confirmation (sales); /staff/deposits is the managers'.
  'staff.rental.sendDepositLink': 'sales',
  'staff.deposit.list': 'manager',
  'staff.deposit.get': 'manager',
  'staff.deposit.refund': 'manager',
  'staff.deposit.markSold': 'manager',
  'GET /staff/deposits': 'manager',
  'GET /staff/deposits/{id}/refund': 'manager',
  'POST /staff/deposits/{id}/refund': 'manager',
  'GET /staff/deposits/{id}/sold': 'manager',
  'POST /staff/deposits/{id}/sold': 'manager',
  // Appointments and follow-ups (issue #51): sales work them; the figures are the dashboard's.
  'staff.appointment.list': 'sales',
  'staff.appointment.mark': 'sales',
  'staff.appointment.summary': 'manager',
  'staff.task.create': 'sales',
  'staff.task.done': 'sales',
  'staff.task.forLead': 'sales',
  'staff.task.due': 'sales',
  'GET /staff/appointments': 'sales',
  'POST /staff/appointments': 'sales',
  'GET /staff/rentals': 'sales',
  'POST /staff/rentals': 'sales',
  // Lead alerts (issue #28): everyone who reads leads may have them on their own browsers.
  'staff.alerts.publicKey': 'sales',
  'staff.alerts.subscribe': 'sales',
  'staff.alerts.unsubscribe': 'sales',
  'staff.alerts.newLeads': 'sales',
  // Every account: its own email, password and sessions (issue #29).
  'staff.account.get': 'sales',
  'staff.account.setEmail': 'sales',
  'staff.account.setPassword': 'sales',
  'staff.account.endSession': 'sales',
  'staff.account.endOtherSessions': 'sales',
  'staff.account.startAuthenticator': 'sales',
  'staff.account.confirmAuthenticator': 'sales',
  'staff.account.removeAuthenticator': 'sales',
  'staff.account.newRecoveryCodes': 'sales',
  // Passkeys (issue #29): each person's own, as the app is.
  'staff.account.passkeyOptions': 'sales',
  'staff.account.addPasskey': 'sales',
  'staff.account.removePasskey': 'sales',
  'GET /staff/account': 'sales',
  'POST /staff/account': 'sales',
  // owner: accounts and settings.
  'staff.accounts.list': 'owner',
  'staff.accounts.setRole': 'owner',
  'staff.accounts.setDisabled': 'owner',
  'staff.accounts.remove': 'owner',
  'staff.accounts.invite': 'owner',
  'staff.accounts.sendReset': 'owner',
  'GET /staff/accounts': 'owner',
  'POST /staff/accounts': 'owner',
  'staff.settings.get': 'owner',
  'staff.settings.save': 'owner',
  'GET /staff/settings': 'owner',
  'POST /staff/settings': 'owner',
}

/** Every `staff.*` procedure of the router, with its kind. */
// At run time `_def.procedures` is flat ('staff.cart.list': procedure); its type is the nested router.
const staffProcedures = Object.entries<unknown>(appRouter._def.procedures)
  .filter(([path]) => path.startsWith('staff.'))
  .map(([path, procedure]) => [path, (procedure as AnyProcedure)._def.type as string] as const)

/** Every console page and post, as the pages declare them in their modules (host/staff/page.ts). */
const consoleRoutes = declaredRoutes.map((route) => route.key)
const consoleRules = Object.fromEntries(declaredRoutes.map((route) => [route.key, route.rule]))

/** The console's own Express routes: its page router, whose routes are the pages declared above. */
const consoleRouter = ['GET /staff', 'POST /staff', 'GET /staff/{*path}', 'POST /staff/{*path}']

interface RouterLayer {
  rawPath?: string | string[]
  route?: { path: string | string[]; methods: Record<string, boolean> }
  handle: { stack?: RouterLayer[] }
}

/** Every route the Express app has under `/staff` and `/api/staff`, as `METHOD /path/{param}`. */
function expressStaffRoutes(app: Express): string[] {
  const found: string[] = []
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      const paths = [layer.route?.path ?? layer.rawPath ?? ''].flat()
      for (const path of paths) {
        const full = `${prefix}${path === '/' && !layer.route ? '' : path}`
        if (layer.route) {
          for (const method of Object.keys(layer.route.methods)) found.push(`${method.toUpperCase()} ${full}`)
        } else if (layer.handle.stack) {
          walk(layer.handle.stack, full)
        }
      }
    }
  }
  // Express 5 keeps its router on `app.router`; its layers are not in the public types.
  const { router: appRouterLayers } = app as Express & { router: { stack: RouterLayer[] } }
  walk(appRouterLayers.stack, '')
  return found
    .map((route) => route.replace(/:(\w+)/g, '{$1}'))
    .filter((route) => /^[A-Z]+ \/(api\/)?staff(\/|$)/.test(route))
}

describe('the role of every staff procedure and page is decided (PRODUCT.md, "what each role may do")', () => {
  it('every staff procedure has its line in PRODUCT.md\'s table and a rule in domain/staff-access.ts, and they agree', () => {
    const paths = staffProcedures.map(([path]) => path).sort()
    expect(paths.filter((path) => !(path in productTable)), 'procedures missing from the table in this test').toEqual([])
    expect(paths.filter((path) => !(path in procedureAccess)), 'procedures missing from domain/staff-access.ts').toEqual([])
    expect(Object.keys(procedureAccess).filter((path) => !paths.includes(path)), 'rules for procedures that do not exist').toEqual([])
    expect(Object.fromEntries(paths.map((path) => [path, procedureAccess[path]?.[0]]))).toEqual(
      Object.fromEntries(paths.map((path) => [path, productTable[path]])),
    )
  })

  it('every console page declares its roles in its module, and each agrees with its line', () => {
    expect(consoleRoutes.length).toBeGreaterThan(20)
    expect(consoleRoutes.filter((route) => !(route in productTable)), 'pages missing from the table in this test').toEqual([])
    for (const route of consoleRoutes) expect([route, consoleRules[route]?.[0]]).toEqual([route, productTable[route]])
    // A page with a post handler declares who may post, and a page that declares it has one.
    expect(staffPages.filter((page) => Boolean(page.post) !== Boolean(page.roles.post)).map((page) => page.path)).toEqual([])
    // An address is a page's or a plain route's, never both.
    expect(consoleRoutes.filter((route) => route in routeAccess)).toEqual([])
  })

  it('finds every page a console module declares, with no list to keep, and the navigation in its places', () => {
    // Each `export const … = staffPage(…)` under host/staff, read from the sources, is a page found.
    const sources = readdirSync(consoleDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.tsx') && !file.endsWith('.test.tsx'))
    const declared = sources.flatMap((file) => [...readFileSync(join(consoleDir, file), 'utf8').matchAll(/^export const \w+ = staffPage\b/gm)])
    expect(declared.length).toBeGreaterThan(20)
    expect(staffPages).toHaveLength(declared.length)
    expect(new Set(staffPages.map((page) => page.path)).size).toBe(staffPages.length)
    const nav = staffPages.flatMap((page) => (page.nav ? [page.nav] : []))
    expect(new Set(nav.map((entry) => entry.place)).size, 'two links in one place').toBe(nav.length)
    expect(nav.map((entry) => entry.label)).toEqual([
      'Inventory',
      'Import and export',
      'Leads',
      'Templates',
      'Appointments',
      'Rentals',
      'Deposits',
      'Feeds',
      'Accounts',
      'Settings',
      'Your account',
    ])
  })

  it('every console address of domain/staff-paths.ts is a declared page, a plain route or a public one', () => {
    const everything = routeMatcher([...declaredRoutes, ...plainStaffRoutes, ...publicStaffRoutes.map(routeKey)])
    const written: (string | ((id: number) => string))[] = [...Object.values(staffPaths), ...Object.values(leadPaths)]
    const addresses = written
      .map((address) => (typeof address === 'string' ? address : address(1)).split('?')[0]!)
      .filter((address) => /^\/(api\/)?staff(\/|$)/.test(address))
    expect(addresses.length).toBeGreaterThan(20)
    expect(addresses.filter((address) => !everything('GET', address) && !everything('POST', address))).toEqual([])
  })

  it('a procedure without a rule is refused to everyone, even an owner', async () => {
    const probe = router({ staff: router({ undeclared: staffProcedure.query(() => 'reached') }) })
    const session = { user: { id: 1, username: 'owner', role: 'owner' as const }, signedInAt: '', expiresAt: '' }
    const services = { staff: { sessions: { resolve: () => Promise.resolve(session) } }, deadlines: productionDeadlines } as never
    const caller = createCallerFactory(probe)(createContextInner(services, { staffToken: 'x', sameOrigin: true }))
    await expect(caller.staff.undeclared()).rejects.toMatchObject({ code: 'FORBIDDEN', message: staffMessages.undeclared })
  })
})

describe.each(backends)('each role gets exactly what PRODUCT.md allows, on %s', (backend) => {
  let server: TestServer
  const ids = {} as Record<StaffRole, { id: number; username: string; role: StaffRole }>

  beforeAll(async () => {
    // With the site: the console's pages are declared to the guard when the site mounts them.
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' }, { site: true })
    const accounts = server.runtime.services.staff.accounts
    for (const role of ['owner', 'manager', 'sales'] as const) {
      ids[role] = await accounts.add(`probe-${role}`, staffPassword, { role })
    }
  })
  afterAll(() => server?.close())

  /** A fresh session for each call, so a probe that signs out everywhere spoils no other. */
  const cookieFor = async (role: StaffRole) => {
    const { token } = await server.runtime.services.staff.sessions.start(ids[role], {})
    return `gc_staff=${token}`
  }

  it('every route of the app under /staff and /api/staff has its line and its rule, or is the public sign-in', () => {
    const routes = expressStaffRoutes(server.app).filter((route) => !publicStaffRoutes.includes(route) && !consoleRouter.includes(route))
    expect(routes.length).toBeGreaterThan(3)
    expect(routes.filter((route) => !(route in productTable)), 'routes missing from the table in this test').toEqual([])
    expect(routes.filter((route) => !(route in routeAccess)), 'routes missing from domain/staff-access.ts').toEqual([])
    const known = new Set([...routes, ...consoleRoutes])
    expect(Object.keys(routeAccess).filter((route) => !known.has(route)), 'rules for routes that do not exist').toEqual([])
    const lines = Object.keys(productTable).filter((line) => line.includes(' '))
    expect(lines.filter((route) => !known.has(route)), 'lines in this test for pages or routes that do not exist').toEqual([])
  })

  const refusal = (role: StaffRole) => new RegExp(`^Only (owners|managers and owners) can .+; your account’s role is ${role}\\.$`)

  const accountsOf = staffRoles.map((role) => [role === 'owner' ? 'an owner' : `a ${role}`, role] as const)

  it.each(accountsOf)('%s account may call exactly the procedures PRODUCT.md gives its role', async (_, role) => {
    const outcomes: Record<string, string> = {}
    const expected: Record<string, string> = {}
    for (const [path, type] of staffProcedures) {
      const res = await fetch(`${server.url}/trpc/${path}`, {
        method: type === 'query' ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', origin: server.url, cookie: await cookieFor(role) },
        body: type === 'query' ? undefined : '{}',
      })
      const body = (await res.json()) as { error?: { message: string } }
      const refused = res.status === 403 && refusal(role).test(body.error?.message ?? '')
      outcomes[path] = res.status === 401 ? 'not signed in' : refused ? 'refused' : 'allowed'
      expected[path] = roleAllows(role, productTable[path]!) ? 'allowed' : 'refused'
    }
    expect(outcomes).toEqual(expected)
  })

  it.each(accountsOf)('%s account may open and post exactly the console routes PRODUCT.md gives its role', async (_, role) => {
    const outcomes: Record<string, string> = {}
    const expected: Record<string, string> = {}
    const routes = [...new Set([...consoleRoutes, ...expressStaffRoutes(server.app)])].filter(
      (route) => !publicStaffRoutes.includes(route) && !consoleRouter.includes(route),
    )
    for (const route of routes) {
      const [method, pattern] = route.split(' ') as [string, string]
      // An id that is nobody's: an allowed post finds nothing to change.
      const res = await fetch(`${server.url}${pattern.replace(/\{\w+\}/g, '999999')}`, {
        method,
        redirect: 'manual',
        headers: { origin: server.url, cookie: await cookieFor(role), ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        body: method === 'POST' ? '' : undefined,
      })
      // The staff API refuses in JSON; the console, as its page with the sentence.
      const text = res.status === 403 ? await res.text() : (await res.body?.cancel(), '')
      const message = text.startsWith('{') ? ((JSON.parse(text) as { message: string }).message) : (/Only [^<]+\./.exec(text)?.[0] ?? '')
      const refused = res.status === 403 && refusal(role).test(message)
      outcomes[route] = res.status === 303 && res.headers.get('location')?.split('?')[0] === '/staff/login' ? 'not signed in' : refused ? 'refused' : 'allowed'
      expected[route] = roleAllows(role, productTable[route]!) ? 'allowed' : 'refused'
    }
    expect(outcomes).toEqual(expected)
  })

  it('an address under /staff or /api/staff that no rule names is not there for anyone', async () => {
    for (const path of ['/staff/nothing-here', '/api/staff/nothing-here', '/staff/carts/1/anything']) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual', headers: { cookie: await cookieFor('owner') } })
      expect(res.status, path).toBe(404)
    }
  })

  it('sales take a lead themselves, but only managers and owners give it to someone else or to nobody', async () => {
    const { id } = await server.runtime.services.inquiries.add({ firstName: 'Dana', lastName: 'Whitaker', email: 'dana@example.com' })
    const sales = staffClient(server, await cookieFor('sales'))
    const manager = staffClient(server, await cookieFor('manager'))
    for (const ownerId of [ids.manager.id, null]) {
      const error = (await sales.staff.lead.assign.mutate({ id, ownerId }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>
      expect(error.data?.httpStatus).toBe(403)
      expect(error.message).toBe('Only managers and owners can assign leads to someone else; your account’s role is sales.')
    }
    expect((await sales.staff.lead.assign.mutate({ id, ownerId: ids.sales.id })).owner?.username).toBe('probe-sales')
    expect((await manager.staff.lead.assign.mutate({ id, ownerId: ids.owner.id })).owner?.username).toBe('probe-owner')
  })

  it('the owner\'s settings start at their defaults, and each change is in the audit log with before and after', async () => {
    // An owner who requires a second step has one (without, the rule sends them to Your account).
    await server.runtime.services.staff.secondStep.startAuthenticator(ids.owner.id)
    await server.db.sql`update users set totp_enabled_at = now() where id = ${ids.owner.id}`
    const owner = staffClient(server, await cookieFor('owner'))
    expect(await owner.staff.settings.get.query()).toEqual({ requireSecondStep: false, leadRouting: {} })
    expect(await owner.staff.settings.save.mutate({ requireSecondStep: true })).toEqual({ requireSecondStep: true, leadRouting: {} })
    expect(await owner.staff.settings.save.mutate({})).toEqual({ requireSecondStep: true, leadRouting: {} })
    const bad = (await owner.staff.settings.save.mutate({ requireSecondStep: 'yes' as never }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>
    expect(bad.data?.httpStatus).toBe(400)
    expect(bad.shape?.issues).toEqual([{ path: 'requireSecondStep', message: 'requireSecondStep must be true or false' }])
    const log = await server.db.sql`select actor, entity, entity_id, field, before, after from audit_log where entity = 'setting'`
    expect([...log]).toEqual([{ actor: 'probe-owner', entity: 'setting', entityId: 'requireSecondStep', field: 'requireSecondStep', before: false, after: true }])
    // Turning it off for everyone takes the current password (PRODUCT.md, "changes that need the password").
    for (const current of [undefined, 'not the password']) {
      const refused = (await owner.staff.settings.save.mutate({ requireSecondStep: false, current }).catch((e: unknown) => e)) as TRPCClientError<AppRouter>
      expect(refused.data?.httpStatus).toBe(400)
      expect(refused.shape?.issues).toEqual([{ path: 'current', message: expect.stringMatching(/password/) }])
    }
    expect(await owner.staff.settings.get.query()).toMatchObject({ requireSecondStep: true })
    expect(await owner.staff.settings.save.mutate({ requireSecondStep: false, current: staffPassword })).toMatchObject({ requireSecondStep: false })
  })

  it('a changed role counts at the next request, without signing in again', async () => {
    const accounts = server.runtime.services.staff.accounts
    const cookie = await cookieFor('sales')
    const dashboard = () => fetch(`${server.url}/trpc/staff.lead.dashboard`, { headers: { cookie, origin: server.url } })
    expect((await dashboard()).status).toBe(403)
    await accounts.setRole('probe-sales', 'manager')
    expect((await dashboard()).status).not.toBe(403)
    await accounts.setRole('probe-sales', 'sales')
    expect((await dashboard()).status).toBe(403)
  })
})
