import type { Params, Route } from './page.ts'
import { aboutRoute } from './pages/about.tsx'
import { contactRoute } from './pages/contact.tsx'
import { countyRentalsRoute } from './pages/county-rentals.tsx'
import { countySalesRoute } from './pages/county-sales.tsx'
import { financingRoute } from './pages/financing.tsx'
import { homeRoute } from './pages/home.tsx'
import { inventoryRoute } from './pages/inventory.tsx'
import { privacyRoute, termsRoute } from './pages/legal.tsx'
import { notFoundRoute } from './pages/not-found.tsx'
import { rentalsRoute } from './pages/rentals.tsx'
import { servicesRoute } from './pages/services.tsx'
import { vehicleRoute } from './pages/vehicle.tsx'

/** Every route of SPEC section 2, in the order they are tried. */
export const routes: readonly Route[] = [
  homeRoute,
  inventoryRoute,
  rentalsRoute,
  servicesRoute,
  financingRoute,
  aboutRoute,
  contactRoute,
  vehicleRoute,
  privacyRoute,
  termsRoute,
  countySalesRoute,
  countyRentalsRoute,
]

export interface RouteMatch {
  route: Route
  params: Params
  found: boolean
}

export function matchRoute(path: string): RouteMatch {
  for (const route of routes) {
    const params = route.match(path)
    if (params) return { route, params, found: true }
  }
  return { route: notFoundRoute, params: {}, found: false }
}
