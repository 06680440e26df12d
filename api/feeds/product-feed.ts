import type { GolfCartDetail } from '../../domain/golf-cart.ts'
import { business } from '../../domain/business.ts'
import { type ProductFacts, productFacts, productReasonsLeftOut } from '../../domain/product-feed.ts'
import { xml } from '../leads/adf.ts'

/** Available carts split into those the product feed lists and those it leaves out, with the reasons. */
export function sortForProducts(carts: readonly GolfCartDetail[], siteUrl: string) {
  const listed: ProductFacts[] = []
  const leftOut: { cart: GolfCartDetail; reasons: string[] }[] = []
  for (const cart of carts) {
    const facts = productFacts(cart, siteUrl)
    const reasons = productReasonsLeftOut(facts)
    if (reasons.length > 0) leftOut.push({ cart, reasons })
    else listed.push(facts)
  }
  return { listed, leftOut }
}

const tag = (name: string, value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? [] : [`      <${name}>${xml(String(value))}</${name}>`]

/**
 * `/feeds/products.xml`: Google Merchant Center's product feed, an RSS 2.0 document with the `g:`
 * namespace (domain/product-feed.ts for the attributes and their limits). Meta's product catalogs
 * read the same file.
 */
export function productFeed(listed: readonly ProductFacts[], siteUrl: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">',
    '  <channel>',
    `    <title>${xml(`${business.name} golf carts`)}</title>`,
    `    <link>${xml(`${siteUrl}/inventory`)}</link>`,
    `    <description>${xml(`Every golf cart in stock at ${business.name}, New Jersey`)}</description>`,
    ...listed.flatMap((product) => [
      '    <item>',
      ...tag('g:id', product.id),
      ...tag('g:title', product.title),
      ...tag('g:description', product.description),
      ...tag('g:link', product.link),
      ...tag('g:image_link', product.imageLink),
      ...product.additionalImageLinks.flatMap((link) => tag('g:additional_image_link', link)),
      ...tag('g:availability', product.availability),
      ...tag('g:price', product.price),
      ...tag('g:condition', product.condition),
      ...tag('g:brand', product.brand),
      ...tag('g:identifier_exists', product.identifierExists),
      ...tag('g:google_product_category', product.googleProductCategory),
      ...tag('g:product_type', product.productType),
      ...tag('g:store_code', product.storeCode),
      '    </item>',
    ]),
    '  </channel>',
    '</rss>',
    '',
  ].join('\n')
}
