import type { Services } from '../../api/services.ts'
import { cartImages } from '../../domain/cart-pictures.ts'
import { everySitePath, paths } from '../../domain/site-paths.ts'
import { escapeHtml } from '../meta.ts'

/**
 * Every page a search engine should know: each address of the site's table, every cart's page,
 * and each cart page's photos as image entries (their JPEG at 1200 px, or the largest).
 */
export async function sitemapXml(services: Services, siteUrl: string): Promise<string> {
  const [{ carts }, photos] = await Promise.all([services.carts.list({}), services.photos.listed()])
  const urls = everySitePath(carts.map((cart) => cart.slug))
  // Photos only: a drawing is no picture of the cart for image search.
  const images = new Map(
    carts.map((cart) => [paths.vehicle(cart.slug), cartImages({ ...cart, photos: photos.get(cart.id) ?? [] }).filter((image) => image.photo)]),
  )
  const entry = (path: string) => {
    const loc = `<loc>${escapeHtml(`${siteUrl}${path}`)}</loc>`
    const pictures = (images.get(path) ?? []).map(
      (image) => `<image:image><image:loc>${escapeHtml(`${siteUrl}${image.path}`)}</image:loc></image:image>`,
    )
    return `  <url>${loc}${pictures.join('')}</url>`
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">',
    ...urls.map(entry),
    '</urlset>',
    '',
  ].join('\n')
}

export function robotsTxt(siteUrl: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /trpc/', '', `Sitemap: ${siteUrl}/sitemap.xml`, ''].join('\n')
}
