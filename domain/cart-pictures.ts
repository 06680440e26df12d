import { modelForTitle } from './dealership-sources.ts'
import { type CartPhoto, photoHeightAt, photoPath, photoWidthFor } from './photos.ts'
import { slugify } from './slug.ts'

/**
 * The picture a cart shows when it has no photos (PRODUCT.md, "drafts": no cart needs an image
 * path). A drawing staff chose (`imageUrl`, as every seeded cart has) wins; else the drawing of
 * the catalogue model its title, or its make and model, name (scripts/artwork/generate.ts draws
 * one per model of domain/catalogue.ts); else a neutral "photos coming" picture. Each has a PNG
 * beside its SVG for social cards and feeds.
 */
export const photosComingPicture = '/images/carts/photos-coming.svg'

/** Where the artwork generator writes the drawing of a catalogue model. */
export function modelDrawingPath(model: string): string {
  return `/images/carts/models/${slugify(model)}.svg`
}

export interface PictureFacts {
  imageUrl: string | null
  title: string
  make?: string | null
  model?: string | null
}

export function cartPicture(cart: PictureFacts): string {
  if (cart.imageUrl) return cart.imageUrl
  const match = modelForTitle(cart.title) ?? modelForTitle([cart.make, cart.model].filter(Boolean).join(' '))
  return match ? modelDrawingPath(match.model) : photosComingPicture
}

/** One picture as readers outside the page take it (social cards, JSON-LD, sitemap, feeds). */
export interface CartImage {
  /** A path on this site: a photo's JPEG, or a drawing's PNG twin. */
  path: string
  width: number
  height: number
  alt: string
  /** A photo staff uploaded; false for the drawing of a cart without photos. */
  photo: boolean
}

/** The size of the PNG twin every drawing has (scripts/artwork/generate.ts). */
const drawingPng = { width: 800, height: 600 }

/**
 * "Photo, else drawing", decided once: every photo's JPEG at 1200 px (or its largest), cover
 * first; a cart without photos, its drawing's PNG (no SVG: feeds and social cards take none).
 * Page meta, JSON-LD, the sitemap, the product feed and the listing feeds all read this, so each
 * shows the cover the vehicle page shows.
 */
export function cartImages(cart: { title: string; imageUrl: string; photos: readonly CartPhoto[] }): CartImage[] {
  if (cart.photos.length === 0) {
    return [{ path: cart.imageUrl.replace(/\.svg$/, '.png'), ...drawingPng, alt: cart.title, photo: false }]
  }
  return cart.photos.map((photo) => {
    const width = photoWidthFor(photo, 1200)
    return { path: photoPath(photo.key, width, 'jpeg'), width, height: photoHeightAt(photo, width), alt: photo.alt, photo: true }
  })
}

/** True for the neutral "photos coming" picture, which no product listing takes as the cart's image. */
export function isPhotosComing(image: CartImage): boolean {
  return !image.photo && image.path === photosComingPicture.replace(/\.svg$/, '.png')
}
