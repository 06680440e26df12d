import type { Services } from '../../api/trpc/context.ts'
import { everySitePath } from '../../domain/site-paths.ts'
import { escapeHtml } from '../meta.ts'

/** Every page a search engine should know: each address of the site's table, every cart's page. */
export async function sitemapXml(services: Services, siteUrl: string): Promise<string> {
  const { carts } = await services.carts.list({})
  const urls = everySitePath(carts.map((cart) => cart.slug))
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
