import { matchSitePath, type SitePage } from '../domain/site-paths.ts'
import type { Params, Route } from './page.ts'
import { aboutRoute } from './pages/about.tsx'
import { compareRoute } from './pages/compare.tsx'
import { contactRoute } from './pages/contact.tsx'
import { countyRentalsRoute } from './pages/county-rentals.tsx'
import { countySalesRoute } from './pages/county-sales.tsx'
import { financingRoute } from './pages/financing.tsx'
import { homeRoute } from './pages/home.tsx'
import { inventoryRoute } from './pages/inventory.tsx'
import { privacyRoute, termsRoute } from './pages/legal.tsx'
import { notFoundRoute } from './pages/not-found.tsx'
import { rentalRequestRoute } from './pages/rental-request.tsx'
import { rentalsRoute } from './pages/rentals.tsx'
import { savedRoute } from './pages/saved.tsx'
import { serviceRequestRoute } from './pages/service-request.tsx'
import { servicesRoute } from './pages/services.tsx'
import { vehicleRoute } from './pages/vehicle.tsx'
import { watchConfirmRoute, watchStopRoute } from './pages/watch-links.tsx'
import { appointmentManageRoute } from './pages/appointment-link.tsx'

/** The page at each address of the table in domain/site-paths.ts. */
const pages: Readonly<Record<SitePage, Route>> = {
  home: homeRoute,
  inventory: inventoryRoute,
  rentals: rentalsRoute,
  rentalRequest: rentalRequestRoute,
  services: servicesRoute,
  serviceRequest: serviceRequestRoute,
  financing: financingRoute,
  about: aboutRoute,
  contact: contactRoute,
  compare: compareRoute,
  saved: savedRoute,
  vehicle: vehicleRoute,
  watchConfirm: watchConfirmRoute,
  watchStop: watchStopRoute,
  appointmentManage: appointmentManageRoute,
  privacy: privacyRoute,
  terms: termsRoute,
  countySales: countySalesRoute,
  countyRentals: countyRentalsRoute,
}

export interface RouteMatch {
  route: Route
  params: Params
  found: boolean
}

/** The page a path shows; any path that is no page of the site gets the not-found page. */
export function matchRoute(path: string): RouteMatch {
  const match = matchSitePath(path)
  if (!match) return { route: notFoundRoute, params: {}, found: false }
  return { route: pages[match.page], params: match.params, found: true }
}
