import { useEffect } from 'react'
import { business } from '../domain/business.ts'
import { type County, countyPlaceName } from '../domain/counties.ts'

/**
 * What every page says about itself (docs/PRODUCT.md, "Page metadata"): rendered into the raw
 * HTML on the server, and kept up to date in the document when the visitor navigates.
 */
export type PageType =
  | 'home'
  | 'inventory'
  | 'services'
  | 'about'
  | 'contact'
  | 'financing'
  | 'rentals'
  | 'county'
  | 'vehicle'
  | 'policy'
  | 'terms'
  | 'not-found'
  | 'alert'
  | 'compare'
  | 'saved'

export interface SocialImage {
  path: string
  width: number
  height: number
  alt: string
}

export interface PageMeta {
  /** The page's own title; the business name is added after it. */
  title: string
  description: string
  keywords: readonly string[]
  pageType: PageType
  /** Canonical path, e.g. "/inventory". */
  path: string
  image?: SocialImage
  /** More pictures for social cards after `image` (a cart's other photos). */
  moreImages?: readonly SocialImage[]
  /** The page's largest paint, fetched first with high priority (a cart's cover photo, AVIF). */
  preloadImage?: { type: string; srcSet: string; sizes: string }
  /** The place a local page is about, e.g. a county (docs/PRODUCT.md: county pages carry theirs). */
  location?: County
  /** Schema.org objects for this page. */
  jsonLd?: readonly object[]
  /** Pages that ask not to be indexed: the 404, a sold cart's, and those only an email's link opens. */
  noindex?: boolean
}

/** The default social image is the logo, 400x400. */
export const logoImage: SocialImage = {
  path: '/images/logo.png',
  width: 400,
  height: 400,
  alt: `${business.name} logo`,
}

export const socialCard: SocialImage = {
  path: '/images/social-card.png',
  width: 1200,
  height: 630,
  alt: `${business.name}: electric golf carts, sales, rentals and service in New Jersey`,
}

export const themeColor = '#facc15'

/** Every description ends with a call prompt. */
export const callPrompt = `Call ${business.tollFree.display} today.`

export function fullTitle(meta: PageMeta): string {
  return meta.pageType === 'home' ? meta.title : `${meta.title} | ${business.name}`
}

/** The head tags for the server-rendered HTML. Every value is escaped. */
export function headTags(meta: PageMeta, siteUrl: string): string {
  const url = `${siteUrl}${meta.path}`
  const image = meta.image ?? logoImage
  const imageUrl = `${siteUrl}${image.path}`
  const title = fullTitle(meta)
  const preload = meta.preloadImage
  const tags = [
    `<title>${escapeHtml(title)}</title>`,
    ...(preload
      ? [
          `<link rel="preload" as="image" type="${escapeHtml(preload.type)}" imagesrcset="${escapeHtml(preload.srcSet)}" imagesizes="${escapeHtml(preload.sizes)}" fetchpriority="high">`,
        ]
      : []),
    metaName('description', meta.description),
    metaName('keywords', meta.keywords.join(', ')),
    metaName('page-type', meta.pageType),
    metaName('robots', meta.noindex ? 'noindex, follow' : 'index, follow'),
    metaName('theme-color', themeColor),
    ...(meta.location ? [metaName('geo.region', 'US-NJ'), metaName('geo.placename', countyPlaceName(meta.location))] : []),
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    metaProperty('og:type', meta.pageType === 'vehicle' ? 'product' : 'website'),
    metaProperty('og:site_name', business.name),
    metaProperty('og:locale', 'en_US'),
    metaProperty('og:title', title),
    metaProperty('og:description', meta.description),
    metaProperty('og:url', url),
    metaProperty('og:image', imageUrl),
    metaProperty('og:image:width', String(image.width)),
    metaProperty('og:image:height', String(image.height)),
    metaProperty('og:image:alt', image.alt),
    ...(meta.moreImages ?? []).flatMap((more) => [
      metaProperty('og:image', `${siteUrl}${more.path}`),
      metaProperty('og:image:width', String(more.width)),
      metaProperty('og:image:height', String(more.height)),
      metaProperty('og:image:alt', more.alt),
    ]),
    metaName('twitter:card', image.width >= 800 ? 'summary_large_image' : 'summary'),
    metaName('twitter:title', title),
    metaName('twitter:description', meta.description),
    metaName('twitter:image', imageUrl),
    metaName('twitter:image:alt', image.alt),
    ...(meta.jsonLd ?? []).map((data) => `<script type="application/ld+json">${jsonForScript(data)}</script>`),
  ]
  return tags.join('\n    ')
}

function metaName(name: string, content: string): string {
  return `<meta name="${name}" content="${escapeHtml(content)}">`
}

function metaProperty(property: string, content: string): string {
  return `<meta property="${property}" content="${escapeHtml(content)}">`
}

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

/**
 * JSON inside a <script> element: `<` is escaped so no value can close the script or open a
 * comment, and the two line separators JavaScript once rejected are escaped too.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029')
}

/** After a client-side navigation, the document says what the new page is. */
export function useDocumentMeta(meta: PageMeta): void {
  const title = fullTitle(meta)
  useEffect(() => {
    document.title = title
    setContent('meta[name="description"]', meta.description)
    setContent('meta[property="og:title"]', title)
    setContent('meta[property="og:description"]', meta.description)
    const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')
    if (canonical) {
      const url = new URL(meta.path, canonical.href).href
      canonical.href = url
      setContent('meta[property="og:url"]', url)
    }
  }, [title, meta.description, meta.path])
}

function setContent(selector: string, content: string) {
  document.querySelector(selector)?.setAttribute('content', content)
}
