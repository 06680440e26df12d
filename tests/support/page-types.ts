/** One address of every page type the site has: what axe, layout checks and screenshots visit. */
export const pageTypes = [
  '/',
  '/inventory',
  '/vehicle/2025-evolution-d5-maverick-2-2',
  '/vehicle/no-such-cart',
  '/rentals',
  '/rentals/request',
  '/rentals/cape-may-county-golf-cart-rentals',
  '/cape-may-county-golf-carts',
  '/services',
  '/services/request',
  '/financing',
  '/about',
  '/contact',
  '/privacy-policy',
  '/terms-of-service',
  '/no-such-page',
] as const
