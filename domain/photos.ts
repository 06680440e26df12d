/**
 * Cart photos (PRODUCT.md, "photos"): the rules the server, the site, the widgets and the
 * console share. Up to 24 per cart, ordered, the first is the cover, each with alt text; uploads
 * of JPEG, PNG, WebP or AVIF up to 25 MB; served in AVIF, WebP and JPEG at several widths from
 * immutable addresses named by the photo's content hash.
 */

export const photoLimits = {
  perCart: 24,
  /** Bytes of one upload. */
  uploadBytes: 25 * 1024 * 1024,
  /**
   * Pixels an upload may declare (a 108-megapixel phone sensor fits). A small file declaring more
   * (a decompression bomb) is refused before it is decoded.
   */
  pixels: 110_000_000,
  alt: 250,
} as const

/**
 * What the console does to a phone's photo before sending it (issue #30): a photo larger than
 * `above` bytes is scaled in the browser to at most `longestSide` pixels and about `targetBytes`,
 * so the lot's mobile data is not the wait. The longest side keeps the widest stored width
 * (1600) for a portrait photo too; "Upload full quality" at a desk sends the file as it is.
 */
export const phoneUpload = {
  above: 1_500_000,
  longestSide: 2560,
  targetBytes: 1_300_000,
} as const

/** The widths each photo is stored at (never wider than the upload): thumbnails to full screen. */
export const photoWidths = [240, 480, 800, 1200, 1600] as const

/** Served formats, best first: the browser takes the first it supports, JPEG everywhere. */
export const photoFormats = ['avif', 'webp', 'jpeg'] as const
export type PhotoFormat = (typeof photoFormats)[number]

export const photoTypes: Record<PhotoFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' }
const extensions: Record<PhotoFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg' }

/** A stored photo as every page, card and widget receives it. */
export interface CartPhoto {
  /** The content hash that names its files. */
  key: string
  alt: string
  /** The largest stored width and its height: the photo's shape. */
  width: number
  height: number
  /** The widths stored, ascending. */
  widths: number[]
}

/** A photo as the console lists it: with its id and place. */
export interface StaffPhoto extends CartPhoto {
  id: number
  cartId: number
  /** 0 is the cover. */
  position: number
  /** Bytes of every stored file of this photo. */
  bytes: number
}

export const photoKeyPattern = /^[0-9a-f]{32}$/

/** `/photos/<key>-<width>.<ext>`: one file, never changed once written. */
export function photoPath(key: string, width: number, format: PhotoFormat): string {
  return `/photos/${key}-${width}.${extensions[format]}`
}

/** The file a photo address names, or undefined for anything else. */
export function parsePhotoFile(file: string): { key: string; width: number; format: PhotoFormat } | undefined {
  const match = /^([0-9a-f]{32})-(\d{2,4})\.(avif|webp|jpg)$/.exec(file)
  if (!match) return undefined
  const format = (Object.keys(extensions) as PhotoFormat[]).find((f) => extensions[f] === match[3])!
  return { key: match[1]!, width: Number(match[2]), format }
}

/** The height of the stored file at `width` (the shape is kept; rounded as the encoder does). */
export function photoHeightAt(photo: Pick<CartPhoto, 'width' | 'height'>, width: number): number {
  return Math.max(1, Math.round((photo.height * width) / photo.width))
}

/** `srcset` for one format; `resolve` turns a path into what the page can load (a widget's api-base). */
export function photoSrcSet(photo: CartPhoto, format: PhotoFormat, resolve: (path: string) => string = (p) => p): string {
  return photo.widths.map((w) => `${resolve(photoPath(photo.key, w, format))} ${w}w`).join(', ')
}

/** The stored width nearest above `wanted` (or the largest), for a single `src`. */
export function photoWidthFor(photo: Pick<CartPhoto, 'widths'>, wanted: number): number {
  return photo.widths.find((w) => w >= wanted) ?? photo.widths[photo.widths.length - 1]!
}

/** The alt text a new photo starts with: the cart's title and the photo's place. */
export function defaultPhotoAlt(title: string, position: number): string {
  return position === 0 ? title : `${title}, photo ${position + 1}`
}

/**
 * Where each kind of picture is shown, as `sizes`: the layout's widths (host/styles, the widgets'
 * CSS) in CSS pixels, so a phone fetches a phone-sized file.
 */
export const photoSizes = {
  /** A card in a grid: one column on phones, up to three in the 1200 px container. */
  card: '(min-width: 1024px) 370px, (min-width: 640px) 45vw, calc(100vw - 48px)',
  /** The gallery's main picture: full width on phones, half the page beside the summary. */
  gallery: '(min-width: 1024px) 580px, calc(100vw - 32px)',
  thumbnail: '88px',
  fullScreen: '100vw',
} as const
