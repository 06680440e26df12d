import { modelForTitle } from './dealership-sources.ts'
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
