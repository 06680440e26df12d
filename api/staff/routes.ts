import { match } from 'path-to-regexp'
import { type AccessRule, publicStaffRoutes, routeAccess, secondStepNeeded } from '../../domain/staff-access.ts'

/**
 * The one matcher of staff addresses (issue #46): the guard in front of `/staff` and `/api/staff`
 * (api/staff/http.ts, api/staff/access.ts) matches each request once, against the plain routes'
 * rules (domain/staff-access.ts) and the console pages' own (declared in their modules, handed
 * over by the site when it mounts the console); the console renders the page the guard matched. It matches as Express's own routing
 * does (`path-to-regexp`, which Express uses): case-insensitive, one trailing slash allowed, a
 * parameter is one path segment, decoded. A parameter that does not decode matches nothing.
 *
 * Addresses are written `/staff/carts/{id}` (the role table's notation, PRODUCT.md); a fixed
 * address wins over a pattern that would also match it (`/staff/carts/new` over `{id}`).
 */
export interface RouteKey {
  /** `GET` or `POST`; a HEAD is matched as its GET. */
  method: string
  /** `/staff/carts/{id}`. */
  path: string
}

export interface Matched<Route> {
  route: Route
  params: Record<string, string>
}

export type RouteMatcher<Route extends RouteKey> = (method: string, path: string) => Matched<Route> | undefined

/** `{id}` to path-to-regexp's `:id`. */
const pattern = (path: string) => path.replace(/\{(\w+)\}/g, ':$1')

/** A matcher over `routes`: the first fixed address that matches, else the first pattern. */
export function routeMatcher<Route extends RouteKey>(routes: readonly Route[]): RouteMatcher<Route> {
  const fixedFirst = [...routes].sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')))
  const compiled = fixedFirst.map((route) => ({ route, test: match<Record<string, string>>(pattern(route.path)) }))
  return (method, path) => {
    const verb = method === 'HEAD' ? 'GET' : method
    for (const { route, test } of compiled) {
      if (route.method !== verb) continue
      let found: ReturnType<typeof test>
      try {
        found = test(path)
      } catch {
        // A parameter that is not valid percent-encoding (`%E0%A4%A`): no address.
        return undefined
      }
      if (found) return { route, params: { ...found.params } }
    }
    return undefined
  }
}

/** A `METHOD /path` key (the role table's) as a route. */
export function routeKey(key: string): RouteKey & { key: string } {
  const [method = '', path = ''] = key.split(' ')
  return { key, method, path }
}

/** A table of `METHOD /path` keys as routes, each with its rule. */
export function routeKeys<Rule>(table: Readonly<Record<string, Rule>>): (RouteKey & { key: string; rule: Rule })[] {
  return Object.entries(table).map(([key, rule]) => ({ ...routeKey(key), rule }))
}

/** A route and the least role for it: a plain route's (domain/staff-access.ts) or a console page's. */
export interface StaffRoute extends RouteKey {
  key: string
  rule: AccessRule
}

/** Every plain staff route (not a console page), with its rule. */
export const plainStaffRoutes: readonly StaffRoute[] = routeKeys(routeAccess)

/** The rule of a plain staff route (`/api/staff`, the dashboard's CSV). */
export const plainRoute = routeMatcher(plainStaffRoutes)

const publicRoutes = routeMatcher(publicStaffRoutes.map(routeKey))

/** Whether a request under `/staff` is one of `publicStaffRoutes` (a HEAD as its GET): no session needed. */
export function isPublicStaffRoute(method: string, path: string): boolean {
  return publicRoutes(method, path) !== undefined
}

const secondStepPage = routeMatcher([routeKey(`GET ${secondStepNeeded.page}`), routeKey(`POST ${secondStepNeeded.page}`)])

/** Whether a request is for the page where a missing second step is added (`secondStepNeeded.page`). */
export function isSecondStepPage(method: string, path: string): boolean {
  return secondStepPage(method, path) !== undefined
}
