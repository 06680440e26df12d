import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client'
import { type DragEvent, useRef, useState } from 'react'
import { hydrateRoot } from 'react-dom/client'
import type { AppRouter } from '../../api/trpc/router.ts'
import type { CartFormSectionProps } from './cart-form.tsx'
import { photoLimits, photoPath, type StaffPhoto } from '../../domain/photos.ts'

/**
 * The cart form's Photos section (issue #16): add photos from a phone's camera roll (several at
 * once) or by dropping them here at a desk, each with its own progress; reorder by dragging or
 * with the Earlier and Later buttons; choose the cover; alt text per photo; remove. The server
 * renders it with the cart's photos (so they show before any script), and the console's script
 * brings it to life (`mountCartPhotos`, host/staff/entry-client.tsx). Uploads go one file per
 * request to `POST /api/staff/carts/:id/photos` (XMLHttpRequest, for upload progress); the rest
 * are `staff.photo.*` procedures. Nothing here has a `name`, so the cart form's own post is
 * unchanged.
 */

export interface CartPhotosProps {
  cartId: number
  cartTitle: string
  photos: StaffPhoto[]
}

interface Upload {
  id: number
  name: string
  /** 0 to 1 while the bytes travel; then the server processes the photo. */
  sent: number
  state: 'sending' | 'processing' | 'failed'
  error?: string
}

const accepted = 'image/jpeg,image/png,image/webp,image/avif'
/** Files sent at once: a phone on the lot's connection does better with two than with twelve. */
const parallelUploads = 2

let nextUploadId = 1

export function CartPhotos(props: CartPhotosProps) {
  const [photos, setPhotos] = useState(props.photos)
  const [uploads, setUploads] = useState<Upload[]>([])
  const [status, setStatus] = useState('')
  const [error, setError] = useState('')
  const [dropping, setDropping] = useState(false)
  const [dragged, setDragged] = useState<number | undefined>(undefined)
  const input = useRef<HTMLInputElement>(null)
  const queue = useRef<{ upload: Upload; file: File }[]>([])
  const running = useRef(0)
  const api = useRef<ReturnType<typeof createTRPCClient<AppRouter>> | undefined>(undefined)
  const client = () => (api.current ??= createTRPCClient<AppRouter>({ links: [httpLink({ url: '/trpc' })] }))

  const update = (id: number, change: Partial<Upload>) => setUploads((all) => all.map((u) => (u.id === id ? { ...u, ...change } : u)))

  /** Runs a staff.photo change; the photos as the server now has them replace ours. */
  async function change(work: () => Promise<StaffPhoto[]>, done: string) {
    setError('')
    try {
      setPhotos(await work())
      setStatus(done)
    } catch (e) {
      setError(e instanceof TRPCClientError ? e.message : 'The change could not be saved. Check the connection and try again.')
    }
  }

  function addFiles(files: readonly File[]) {
    setError('')
    const room = photoLimits.perCart - photos.length - uploads.filter((u) => u.state !== 'failed').length
    const taken = files.slice(0, Math.max(0, room))
    if (taken.length < files.length) {
      setError(`A cart has at most ${photoLimits.perCart} photos: ${files.length - taken.length} of the files you chose were not added.`)
    }
    const added = taken.map((file) => {
      const upload: Upload = { id: nextUploadId++, name: file.name || 'photo', sent: 0, state: 'sending' }
      if (file.size > photoLimits.uploadBytes) Object.assign(upload, { state: 'failed', error: 'Larger than 25 MB: not sent.' })
      return { upload, file }
    })
    setUploads((all) => [...all, ...added.map((a) => a.upload)])
    queue.current.push(...added.filter((a) => a.upload.state === 'sending'))
    pump()
  }

  function pump() {
    while (running.current < parallelUploads && queue.current.length > 0) {
      const next = queue.current.shift()!
      running.current++
      void send(next.upload, next.file).finally(() => {
        running.current--
        pump()
      })
    }
  }

  function send(upload: Upload, file: File): Promise<void> {
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest()
      xhr.open('POST', `/api/staff/carts/${props.cartId}/photos`)
      xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream')
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) update(upload.id, { sent: event.loaded / event.total })
      }
      xhr.upload.onload = () => update(upload.id, { sent: 1, state: 'processing' })
      xhr.onload = () => {
        const body = parse(xhr.responseText)
        if (xhr.status === 201 && isStaffPhoto(body)) {
          setUploads((all) => all.filter((u) => u.id !== upload.id))
          setPhotos((all) => [...all, body])
          setStatus(`${upload.name} added.`)
        } else {
          const said = (body as { message?: unknown } | undefined)?.message
          const message = typeof said === 'string' ? said : `The server answered ${xhr.status}.`
          update(upload.id, { state: 'failed', error: message })
        }
        resolve()
      }
      xhr.onerror = () => {
        update(upload.id, { state: 'failed', error: 'The connection dropped: try this photo again.' })
        resolve()
      }
      xhr.send(file)
    })
  }

  const move = (from: number, to: number) => {
    if (to < 0 || to >= photos.length || from === to) return
    const ids = photos.map((p) => p.id)
    const [id] = ids.splice(from, 1)
    ids.splice(to, 0, id!)
    void change(() => client().staff.photo.reorder.mutate({ cartId: props.cartId, ids }), `Photo moved to place ${to + 1} of ${photos.length}.`)
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setDropping(false)
    if (dragged !== undefined) return
    const files = [...event.dataTransfer.files].filter((f) => !f.type || f.type.startsWith('image/'))
    if (files.length > 0) addFiles(files)
  }

  return (
    <div
      className={`staff-photos${dropping ? ' staff-photos--dropping' : ''}`}
      onDragOver={(event) => {
        if (dragged !== undefined || !event.dataTransfer.types.includes('Files')) return
        event.preventDefault()
        setDropping(true)
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
    >
      <p className="staff-photos__intro">
        Up to {photoLimits.perCart} photos, JPEG, PNG, WebP or AVIF, 25 MB each. The first is the cover. Drag photos here, or:
      </p>
      <div className="staff-photos__add">
        <label className="staff-button staff-photos__pick">
          Add photos
          <input
            ref={input}
            type="file"
            accept={accepted}
            multiple
            className="staff-photos__file"
            onChange={(event) => {
              addFiles([...(event.currentTarget.files ?? [])])
              event.currentTarget.value = ''
            }}
          />
        </label>
        <span className="staff-photos__count">
          {photos.length} of {photoLimits.perCart}
        </span>
      </div>
      <p className="staff-photos__status" role="status">
        {status}
      </p>
      {error && (
        <p className="staff-photos__error" role="alert">
          {error}
        </p>
      )}
      {uploads.length > 0 && (
        <ul className="staff-photos__uploads" aria-label="Uploads">
          {uploads.map((upload) => (
            <li key={upload.id} className={`staff-photos__upload staff-photos__upload--${upload.state}`}>
              <span className="staff-photos__name">{upload.name}</span>
              {upload.state === 'failed' ? (
                <>
                  <span className="staff-photos__failure">{upload.error}</span>
                  <button type="button" className="staff-link-button" onClick={() => setUploads((all) => all.filter((u) => u.id !== upload.id))}>
                    Dismiss
                  </button>
                </>
              ) : (
                <>
                  <progress max={1} value={upload.state === 'processing' ? undefined : upload.sent} aria-label={`Upload of ${upload.name}`} />
                  <span>{upload.state === 'processing' ? 'Processing…' : `${Math.round(upload.sent * 100)}%`}</span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {photos.length > 0 && (
        <ol className="staff-photos__list" aria-label="Photos, the cover first">
          {photos.map((photo, i) => (
            <li
              key={photo.id}
              className={`staff-photos__item${dragged === i ? ' staff-photos__item--dragged' : ''}`}
              draggable
              onDragStart={(event) => {
                setDragged(i)
                event.dataTransfer.effectAllowed = 'move'
              }}
              onDragEnd={() => setDragged(undefined)}
              onDragOver={(event) => {
                if (dragged === undefined) return
                event.preventDefault()
              }}
              onDrop={(event) => {
                if (dragged === undefined) return
                event.preventDefault()
                event.stopPropagation()
                move(dragged, i)
                setDragged(undefined)
              }}
            >
              <img src={photoPath(photo.key, photo.widths[0]!, 'jpeg')} alt="" width={120} height={90} className="staff-photos__thumb" />
              <div className="staff-photos__details">
                <p className="staff-photos__place">{i === 0 ? <strong>Cover</strong> : `Photo ${i + 1}`}</p>
                <AltText photo={photo} place={i + 1} onSave={(alt) => change(async () => {
                  const saved = await client().staff.photo.setAlt.mutate({ id: photo.id, alt })
                  return photos.map((p) => (p.id === saved.id ? saved : p))
                }, `Alt text of photo ${i + 1} saved.`)} />
                <div className="staff-photos__actions">
                  <button type="button" className="staff-link-button" disabled={i === 0} onClick={() => move(i, i - 1)}>
                    Earlier<span className="staff-sr-only"> (photo {i + 1})</span>
                  </button>
                  <button type="button" className="staff-link-button" disabled={i === photos.length - 1} onClick={() => move(i, i + 1)}>
                    Later<span className="staff-sr-only"> (photo {i + 1})</span>
                  </button>
                  {i > 0 && (
                    <button type="button" className="staff-link-button" onClick={() => void change(() => client().staff.photo.setCover.mutate({ id: photo.id }), `Photo ${i + 1} is now the cover.`)}>
                      Make cover<span className="staff-sr-only"> (photo {i + 1})</span>
                    </button>
                  )}
                  <button
                    type="button"
                    className="staff-link-button staff-link-button--danger"
                    onClick={() => {
                      if (window.confirm(`Remove photo ${i + 1} from this cart? Visitors stop seeing it at once.`)) {
                        void change(() => client().staff.photo.remove.mutate({ id: photo.id }), `Photo ${i + 1} removed.`)
                      }
                    }}
                  >
                    Remove<span className="staff-sr-only"> photo {i + 1}</span>
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

/** One photo's alt text, saved when it changes and the field is left. */
function AltText({ photo, place, onSave }: { photo: StaffPhoto; place: number; onSave: (alt: string) => Promise<void> }) {
  const [value, setValue] = useState(photo.alt)
  const id = `photo-alt-${photo.id}`
  return (
    <div className="staff-photos__alt">
      <label htmlFor={id}>Alt text for photo {place}</label>
      <input
        id={id}
        type="text"
        value={value}
        maxLength={photoLimits.alt}
        onChange={(event) => setValue(event.currentTarget.value)}
        onBlur={() => {
          if (value.trim() && value.trim() !== photo.alt) void onSave(value.trim())
        }}
        onKeyDown={(event) => {
          // Enter saves this field, not the whole cart form.
          if (event.key === 'Enter') {
            event.preventDefault()
            event.currentTarget.blur()
          }
        }}
      />
    </div>
  )
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isStaffPhoto(value: unknown): value is StaffPhoto {
  const photo = value as Partial<StaffPhoto> | undefined
  return typeof photo?.id === 'number' && typeof photo.key === 'string' && Array.isArray(photo.widths)
}

/**
 * The section as the server renders it inside the cart form: a new cart gets its photos once it
 * is saved (they belong to a cart). The props ride along for the script to pick up.
 */
export function CartPhotosSection({ cart }: Pick<CartFormSectionProps, 'cart'>) {
  if (!cart) return <p className="staff-photos__intro">Save the cart first, then add its photos here.</p>
  const props: CartPhotosProps = { cartId: cart.id, cartTitle: cart.title, photos: cart.photos }
  return (
    <div data-cart-photos={JSON.stringify(props)}>
      <CartPhotos {...props} />
    </div>
  )
}

/** Brings the server-rendered section to life (the console's script calls this). */
export function mountCartPhotos(): void {
  const element = document.querySelector<HTMLElement>('[data-cart-photos]')
  if (!element) return
  const props = JSON.parse(element.dataset.cartPhotos ?? '{}') as CartPhotosProps
  hydrateRoot(element, <CartPhotos {...props} />)
}
