import type { Services } from '../../api/trpc/context.ts'
import { counties } from '../../domain/counties.ts'
import { escapeHtml } from '../meta.ts'
import { paths } from '../paths.ts'

const staticPaths = [
  paths.home,
  paths.inventory,
  paths.rentals,
  paths.services,
  paths.financing,
  paths.about,
  paths.contact,
  paths.privacy,
  paths.terms,
]

/** Every page a search engine should know: the fixed pages, 42 county pages, every cart. */
export async function sitemapXml(services: Services, siteUrl: string): Promise<string> {
  const { carts } = await services.carts.list({})
  const urls = [
    ...staticPaths,
    ...counties.flatMap((c) => [paths.countySales(c.value), paths.countyRentals(c.value)]),
    ...carts.map((cart) => paths.vehicle(cart.slug)),
  ]
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls.map((path) => `  <url><loc>${escapeHtml(`${siteUrl}${path}`)}</loc></url>`),
    '</urlset>',
    '',
  ].join('\n')
}

export function robotsTxt(siteUrl: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /trpc/', '', `Sitemap: ${siteUrl}/sitemap.xml`, ''].join('\n')
}
