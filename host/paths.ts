import type { CountyValue } from '../domain/counties.ts'

/** Every address the site links to, in one place (SPEC section 2). */
export const paths = {
  home: '/',
  inventory: '/inventory',
  rentals: '/rentals',
  services: '/services',
  financing: '/financing',
  about: '/about',
  contact: '/contact',
  privacy: '/privacy-policy',
  terms: '/terms-of-service',
  vehicle: (slug: string) => `/vehicle/${slug}`,
  countySales: (county: CountyValue) => `/${county}-county-golf-carts`,
  countyRentals: (county: CountyValue) => `/rentals/${county}-county-golf-cart-rentals`,
  /** Get Quote from a vehicle page: the contact form opens with that cart chosen. */
  quote: (slug?: string) => (slug ? `/contact?cart=${encodeURIComponent(slug)}` : '/contact'),
} as const

/**
 * The contact page's form panel. A post without JavaScript goes to the page at this anchor, and
 * its thank-you redirect keeps it, so the visitor lands on the notice, not on the hero.
 */
export const contactFormAnchor = 'send-message'

/** The header's links, in SPEC order. */
export const headerLinks = [
  { href: paths.home, label: 'Home' },
  { href: paths.inventory, label: 'Inventory' },
  { href: paths.rentals, label: 'Rentals' },
  { href: paths.services, label: 'Services' },
  { href: paths.about, label: 'About' },
  { href: paths.contact, label: 'Contact' },
] as const

/** Which header link a path belongs to: a vehicle belongs to the inventory, and so on. */
export function sectionOf(path: string): string | undefined {
  if (path === '/') return paths.home
  if (path.startsWith('/vehicle/')) return paths.inventory
  if (path.startsWith('/rentals')) return paths.rentals
  return headerLinks.find((l) => l.href !== '/' && path === l.href)?.href
}
