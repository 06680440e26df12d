import { ChevronLeft, ChevronRight, Maximize2, X } from 'lucide-react'
import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react'
import { type CartPhoto, photoSizes } from '../../domain/photos.ts'
import { CartPicture } from '../shared/photo.tsx'

/** How far a finger must travel sideways, in CSS pixels, to count as a swipe. */
const swipeDistance = 40

/**
 * A cart's photos (docs/PRODUCT.md, "Vehicle page"): the cover first, loaded with high priority
 * as the page's largest paint; previous and next buttons, the arrow keys (Home and End too) and a
 * sideways swipe move through them; thumbnails jump to one; a full-screen view shows the whole
 * photo at the screen's size, closed with Escape or its button.
 */
export interface GalleryProps {
  photos: CartPhoto[]
  apiBase: string
  title: string
}

export function Gallery({ photos, apiBase, title }: GalleryProps) {
  const [index, setIndex] = useState(0)
  const [fullScreen, setFullScreen] = useState(false)
  const count = photos.length
  const photo = photos[Math.min(index, count - 1)]!
  const go = (to: number) => setIndex(((to % count) + count) % count)

  const onKeyDown = (event: KeyboardEvent) => {
    const to = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: count - 1 }[event.key]
    if (to === undefined || count < 2) return
    event.preventDefault()
    go(to)
  }
  const swipe = useSwipe((direction) => go(index + direction))

  return (
    <section className="gc-gallery" part="gallery" aria-roledescription="carousel" aria-label={`Photos of the ${title}`} onKeyDown={onKeyDown}>
      <div className="gc-gallery__stage gc-vehicle__media" {...swipe}>
        <CartPicture
          key={photo.key}
          photo={photo}
          apiBase={apiBase}
          sizes={photoSizes.gallery}
          loading="eager"
          fetchPriority={index === 0 ? 'high' : undefined}
          part="image"
          fallbackWidth={1200}
        />
        {count > 1 && (
          <>
            <button type="button" className="gc-gallery__step gc-gallery__step--previous" onClick={() => go(index - 1)} aria-label="Previous photo">
              <ChevronLeft aria-hidden="true" size={24} />
            </button>
            <button type="button" className="gc-gallery__step gc-gallery__step--next" onClick={() => go(index + 1)} aria-label="Next photo">
              <ChevronRight aria-hidden="true" size={24} />
            </button>
          </>
        )}
        <button type="button" className="gc-gallery__expand" onClick={() => setFullScreen(true)}>
          <Maximize2 aria-hidden="true" size={16} /> <span>Full screen</span>
        </button>
        {count > 1 && (
          <p className="gc-gallery__count" aria-live="polite">
            Photo {index + 1} of {count}
          </p>
        )}
      </div>
      {count > 1 && (
        <ul className="gc-gallery__thumbs" aria-label="Choose a photo">
          {photos.map((p, i) => (
            <li key={p.key}>
              <button type="button" className="gc-gallery__thumb" aria-current={i === index ? 'true' : undefined} onClick={() => go(i)}>
                <CartPicture photo={p} apiBase={apiBase} sizes={photoSizes.thumbnail} alt="" fallbackWidth={240} />
                <span className="gc-sr-only">
                  Photo {i + 1}: {p.alt}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {fullScreen && (
        <FullScreen photos={photos} index={index} apiBase={apiBase} title={title} onMove={go} onClose={() => setFullScreen(false)} />
      )}
    </section>
  )
}

/** The photos at the screen's size in a modal dialog: focus stays inside, Escape closes. */
function FullScreen(props: {
  photos: CartPhoto[]
  index: number
  apiBase: string
  title: string
  onMove: (to: number) => void
  onClose: () => void
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const { photos, index, onMove, onClose } = props
  const photo = photos[index]!
  useEffect(() => {
    const element = dialog.current
    if (element && !element.open) element.showModal?.()
  }, [])
  const swipe = useSwipe((direction) => onMove(index + direction))
  return (
    <dialog ref={dialog} className="gc-gallery__dialog" part="gallery-dialog" aria-label={`${props.title}: photo ${index + 1} of ${photos.length}`} onClose={onClose} onCancel={onClose}>
      <div className="gc-gallery__full" {...swipe}>
        <CartPicture key={photo.key} photo={photo} apiBase={props.apiBase} sizes={photoSizes.fullScreen} loading="eager" fallbackWidth={1600} />
      </div>
      <p className="gc-gallery__caption">
        {photo.alt}
        {photos.length > 1 && ` (${index + 1} of ${photos.length})`}
      </p>
      {photos.length > 1 && (
        <>
          <button type="button" className="gc-gallery__step gc-gallery__step--previous" onClick={() => onMove(index - 1)} aria-label="Previous photo">
            <ChevronLeft aria-hidden="true" size={28} />
          </button>
          <button type="button" className="gc-gallery__step gc-gallery__step--next" onClick={() => onMove(index + 1)} aria-label="Next photo">
            <ChevronRight aria-hidden="true" size={28} />
          </button>
        </>
      )}
      <button type="button" className="gc-gallery__close" onClick={() => dialog.current?.close()} aria-label="Close full screen" autoFocus>
        <X aria-hidden="true" size={24} />
      </button>
    </dialog>
  )
}

/** Pointer handlers that call `onSwipe(-1)` for a swipe right (back) and `onSwipe(1)` for a swipe left. */
function useSwipe(onSwipe: (direction: 1 | -1) => void) {
  const start = useRef<{ x: number; y: number } | undefined>(undefined)
  return {
    onPointerDown(event: PointerEvent) {
      start.current = { x: event.clientX, y: event.clientY }
    },
    onPointerUp(event: PointerEvent) {
      const from = start.current
      start.current = undefined
      if (!from) return
      const dx = event.clientX - from.x
      const dy = event.clientY - from.y
      if (Math.abs(dx) >= swipeDistance && Math.abs(dx) > Math.abs(dy)) onSwipe(dx < 0 ? 1 : -1)
    },
    onPointerCancel() {
      start.current = undefined
    },
  }
}
