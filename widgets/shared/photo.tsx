import { type CartPhoto, photoHeightAt, photoPath, photoSrcSet, photoWidthFor } from '../../domain/photos.ts'
import { resolveUrl } from './urls.ts'

/**
 * One stored photo as a `<picture>`: AVIF, then WebP, then JPEG for every browser, each at every
 * stored width with `sizes`, so a phone downloads a phone-sized file (domain/photos.ts). On a
 * partner's page the addresses point back to the dealer (`apiBase`).
 */
export function CartPicture(props: {
  photo: CartPhoto
  apiBase: string
  sizes: string
  className?: string
  /** Overrides the photo's own alt text (a thumbnail that is a button's content says nothing). */
  alt?: string
  loading?: 'eager' | 'lazy'
  fetchPriority?: 'high' | 'low' | 'auto'
  part?: string
  /** The `src` width for browsers without `srcset` (and the `width`/`height` that reserve space). */
  fallbackWidth?: number
}) {
  const { photo, apiBase } = props
  const resolve = (path: string) => resolveUrl(apiBase, path)
  const width = photoWidthFor(photo, props.fallbackWidth ?? 800)
  return (
    <picture>
      <source type="image/avif" srcSet={photoSrcSet(photo, 'avif', resolve)} sizes={props.sizes} />
      <source type="image/webp" srcSet={photoSrcSet(photo, 'webp', resolve)} sizes={props.sizes} />
      <img
        className={props.className}
        part={props.part}
        src={resolve(photoPath(photo.key, width, 'jpeg'))}
        srcSet={photoSrcSet(photo, 'jpeg', resolve)}
        sizes={props.sizes}
        alt={props.alt ?? photo.alt}
        width={width}
        height={photoHeightAt(photo, width)}
        loading={props.loading ?? 'lazy'}
        fetchPriority={props.fetchPriority}
        decoding="async"
        draggable={false}
      />
    </picture>
  )
}
