import { type Announcements, closestCenter, DndContext, type DragEndEvent, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core'
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client'
import imageCompression from 'browser-image-compression'
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { hydrateRoot } from 'react-dom/client'
import type { AppRouter } from '../../api/trpc/router.ts'
import type { StaffCart } from '../../api/staff/cart-records.ts'
import { cartFormValues } from '../../domain/cart-record.ts'
import { phoneUpload, photoLimits, photoPath, type StaffPhoto } from '../../domain/photos.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { useFileDrop } from './file-drop.ts'
import { LiveStatus } from './form-kit.tsx'

/**
 * The cart form's Photos section (issues #16 and #30): add photos from a phone's camera or camera
 * roll (several at once) or by dropping them here at a desk, each with its own progress; reorder
 * by dragging (touch, mouse, or the keyboard on the handle: @dnd-kit, docs/decisions/0030) or
 * with the Earlier and Later buttons; choose the cover; alt text per photo; remove. The server
 * renders it with the cart's photos (so they show before any script), and the console's script
 * brings it to life (`mountCartPhotos`, host/staff/entry-client.tsx).
 *
 * The list is the order the person chose: photos picked together take their places at once, in
 * the order picked, and each is sent with its place (`?place=`), so the server keeps that order
 * whichever upload finishes first. A photo larger than 1.5 MB is scaled down on the device
 * before it is sent (browser-image-compression), unless "Upload full quality"
 * is ticked; a photo that cannot be scaled is sent as it is. Moves made while photos are still
 * being sent are saved (`staff.photo.reorder`) once they all arrive. Uploads go one file per
 * request to `POST /api/staff/carts/:id/photos` (XMLHttpRequest, for upload progress); the rest
 * are `staff.photo.*` procedures. Nothing here has a `name`, so the cart form's own post is
 * unchanged.
 */

export interface CartPhotosProps {
  /** Null on a new cart's form: picking photos saves it as a draft first (`ensureCart`). */
  cartId: number | null
  cartTitle: string
  photos: StaffPhoto[]
}

interface Upload {
  id: number
  name: string
  file: File
  /** 0 to 1 while the bytes travel; then the server processes the photo. */
  sent: number
  state: 'waiting' | 'preparing' | 'sending' | 'processing' | 'failed'
  error?: string
}

/** One place in the list: a stored photo, or one picked that is on its way. */
type Entry = { key: string; kind: 'photo'; photo: StaffPhoto } | { key: string; kind: 'upload'; upload: Upload }

/** The controls focus returns to after a move: the same one on the moved photo, else its handle. */
type Control = 'earlier' | 'later' | 'cover' | 'drag'

/** Files sent at once: a phone on the lot's connection does better with two than with twelve. */
const parallelUploads = 2
const fullQualityKey = 'gc-photos-full-quality'

let nextUploadId = 1

const photoEntry = (photo: StaffPhoto): Entry => ({ key: `photo-${photo.id}`, kind: 'photo', photo })
const inFlight = (entry: Entry) => entry.kind === 'upload' && entry.upload.state !== 'failed'
const byPosition = (a: StaffPhoto, b: StaffPhoto) => a.position - b.position || a.id - b.id

export function CartPhotos(props: CartPhotosProps) {
  const [entries, showEntries] = useState<Entry[]>(() => props.photos.map(photoEntry))
  /** The entries as they are now, for the work that outlives a render (uploads, saves). */
  const current = useRef(entries)
  const [status, setStatus] = useState('')
  const [error, setError] = useState('')
  const [fullQuality, setFullQuality] = useState(false)
  const fullQualityNow = useRef(false)
  const [waiting, setWaiting] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const running = useRef(0)
  const cartId = useRef(props.cartId)
  const saving = useRef(false)
  const focusAfter = useRef<{ key: string; control: Control } | undefined>(undefined)
  /** Order saves, removals and alt text one after another: each starts from the last one's answer. */
  const chain = useRef<Promise<void>>(Promise.resolve())
  const api = useRef<ReturnType<typeof createTRPCClient<AppRouter>> | undefined>(undefined)
  const client = () => (api.current ??= createTRPCClient<AppRouter>({ links: [httpLink({ url: '/trpc' })] }))
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }))

  const setEntries = (next: (all: Entry[]) => Entry[]) => {
    current.current = next(current.current)
    showEntries(current.current)
  }
  const updateUpload = (key: string, change: Partial<Upload>) =>
    setEntries((all) => all.map((e) => (e.key === key && e.kind === 'upload' ? { ...e, upload: { ...e.upload, ...change } } : e)))
  /** An upload that failed says why at the end of the list, holding no place. */
  const fail = (key: string, error: string) =>
    setEntries((all) => {
      const entry = all.find((e) => e.key === key)
      if (entry?.kind !== 'upload') return all
      return [...all.filter((e) => e.key !== key), { ...entry, upload: { ...entry.upload, state: 'failed', error } }]
    })
  const serial = (work: () => Promise<void>) => {
    chain.current = chain.current.then(work, work)
    return chain.current
  }
  const problem = (e: unknown, fallback: string) => setError(e instanceof TRPCClientError ? e.message : fallback)

  const chooseQuality = (full: boolean) => {
    fullQualityNow.current = full
    setFullQuality(full)
  }
  useEffect(() => {
    chooseQuality(window.localStorage.getItem(fullQualityKey) === 'yes')
  }, [])

  // After a move, focus stays with the moved photo (React moving its element drops the focus).
  useLayoutEffect(() => {
    const wanted = focusAfter.current
    focusAfter.current = undefined
    if (!wanted) return
    const item = root.current?.querySelector(`[data-entry="${wanted.key}"]`)
    const control = item?.querySelector<HTMLElement>(`[data-control="${wanted.control}"]:not(:disabled)`) ?? item?.querySelector<HTMLElement>('[data-control="drag"]')
    control?.focus()
  }, [entries])

  /** The server's answer merged into the list: positions as stored, photos gone or new, the order kept. */
  function merge(stored: StaffPhoto[]) {
    const byId = new Map(stored.map((p) => [p.id, p]))
    setEntries((all) => {
      const kept = all.flatMap((e) => (e.kind === 'upload' ? [e] : byId.has(e.photo.id) ? [photoEntry(byId.get(e.photo.id)!)] : []))
      const known = new Set(all.flatMap((e) => (e.kind === 'photo' ? [e.photo.id] : [])))
      return [...kept, ...stored.filter((p) => !known.has(p.id)).map(photoEntry)]
    })
  }

  /** The order shown, saved: once nothing is on its way, if the stored order differs (or has a gap). */
  async function saveOrder() {
    if (current.current.some(inFlight) || cartId.current === null) return
    const photos = current.current.flatMap((e) => (e.kind === 'photo' ? [e.photo] : []))
    const stored = [...photos].sort(byPosition)
    if (stored.every((p, i) => p.id === photos[i]!.id && p.position === i)) return
    try {
      merge(await client().staff.photo.reorder.mutate({ cartId: cartId.current, ids: photos.map((p) => p.id) }))
    } catch (e) {
      problem(e, 'The new order could not be saved. Check the connection and try again.')
      // Show the order the cart has, not one that was not saved.
      try {
        const stored = await client().staff.photo.list.query({ cartId: cartId.current })
        setEntries((all) => [...stored.map(photoEntry), ...all.filter((e) => e.kind === 'upload')])
      } catch {
        // The error above says it; the list stays as it was.
      }
    }
  }

  function move(key: string, to: number, control: Control) {
    const all = current.current
    const from = all.findIndex((e) => e.key === key)
    if (from < 0 || to < 0 || to >= all.length || from === to) return
    setError('')
    focusAfter.current = { key, control }
    setEntries((list) => arrayMove(list, from, to))
    const sending = current.current.some(inFlight)
    setStatus(
      to === 0
        ? `Photo ${from + 1} is now the cover${sending ? ': saved once the photos are sent' : ''}.`
        : `Photo moved to place ${to + 1} of ${all.length}${sending ? ': saved once the photos are sent' : ''}.`,
    )
    void serial(saveOrder)
  }

  function addFiles(files: readonly File[]) {
    setError('')
    const room = photoLimits.perCart - current.current.filter((e) => e.kind === 'photo' || e.upload.state !== 'failed').length
    const taken = files.slice(0, Math.max(0, room))
    if (taken.length < files.length) {
      setError(`A cart has at most ${photoLimits.perCart} photos: ${files.length - taken.length} of the files you chose were not added.`)
    }
    const added = taken.map((file): Entry => {
      const id = nextUploadId++
      return { key: `upload-${id}`, kind: 'upload', upload: { id, name: file.name || 'photo', file, sent: 0, state: 'waiting' } }
    })
    setEntries((all) => [...all, ...added])
    void start()
  }

  /** Sends the waiting photos, saving a new cart as a draft first: photos belong to a cart. */
  async function start() {
    if (cartId.current === null) {
      if (saving.current) return
      saving.current = true
      setWaiting(true)
      const saved = await saveDraft()
      saving.current = false
      setWaiting(false)
      if (saved === undefined) return
      cartId.current = saved
    }
    pump()
  }

  /** The cart form as typed, saved as a draft; the page becomes the draft's own (its address and form). */
  async function saveDraft(): Promise<number | undefined> {
    const form = document.querySelector<HTMLFormElement>('form[data-cart-form]')
    if (!form) return undefined
    const typed = Object.fromEntries([...new FormData(form)].filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
    try {
      const saved = await client().staff.cart.save.mutate({ ...cartFormValues(typed), status: 'draft' })
      const address = staffPaths.cart(saved.id)
      form.action = address
      const version = form.querySelector<HTMLInputElement>('input[name=version]') ?? form.appendChild(Object.assign(document.createElement('input'), { type: 'hidden', name: 'version' }))
      version.value = String(saved.version)
      window.history.replaceState(null, '', address)
      setStatus('Draft saved: only staff see it. Sending the photos…')
      return saved.id
    } catch (e) {
      const message = e instanceof TRPCClientError ? e.message : 'The draft could not be saved. Check the connection and try again.'
      setError(`Before its photos can be sent, the cart is saved as a draft, and it was refused: ${message}. Fix that, then press Send the photos.`)
      return undefined
    }
  }

  /** Starts the next waiting photos, the first picked first. */
  function pump() {
    while (running.current < parallelUploads) {
      const next = current.current.find((e) => e.kind === 'upload' && e.upload.state === 'waiting')
      if (next?.kind !== 'upload') break
      running.current++
      updateUpload(next.key, { state: 'preparing' })
      void send(next.key, next.upload).finally(() => {
        running.current--
        pump()
        void serial(saveOrder)
      })
    }
  }

  async function send(key: string, upload: Upload): Promise<void> {
    const body = await prepared(upload.file, fullQualityNow.current)
    if (body.size > photoLimits.uploadBytes) return fail(key, 'Larger than 25 MB: not sent.')
    // Its place among the photos shown (the ones that failed hold none), as picked.
    const place = current.current.filter((e) => e.kind === 'photo' || e.upload.state !== 'failed').findIndex((e) => e.key === key)
    updateUpload(key, { state: 'sending' })
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest()
      xhr.open('POST', `/api/staff/carts/${cartId.current}/photos?place=${Math.max(0, place)}`)
      xhr.setRequestHeader('Content-Type', body.type || upload.file.type || 'application/octet-stream')
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) updateUpload(key, { sent: event.loaded / event.total })
      }
      xhr.upload.onload = () => updateUpload(key, { sent: 1, state: 'processing' })
      xhr.onload = () => {
        const answer = parse(xhr.responseText)
        if (xhr.status === 201 && isStaffPhoto(answer)) {
          setEntries((all) => all.map((e) => (e.key === key ? photoEntry(answer) : e)))
          setStatus(`${upload.name} added.`)
        } else {
          const said = (answer as { message?: unknown } | undefined)?.message
          fail(key, typeof said === 'string' ? said : `The server answered ${xhr.status}.`)
        }
        resolve()
      }
      xhr.onerror = () => {
        fail(key, 'The connection dropped: try this photo again.')
        resolve()
      }
      xhr.send(body)
    })
  }

  const { dropping, handlers: dropHandlers } = useFileDrop((dropped) => {
    const files = dropped.filter((f) => !f.type || f.type.startsWith('image/'))
    if (files.length > 0) addFiles(files)
  })

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return
    move(String(active.id), current.current.findIndex((e) => e.key === over.id), 'drag')
  }

  const placeOf = (id: string | number) => current.current.findIndex((e) => e.key === id) + 1
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up photo ${placeOf(active.id)}.`,
    onDragOver: ({ active, over }) => (over ? `Photo ${placeOf(active.id)} is over place ${placeOf(over.id)}.` : `Photo ${placeOf(active.id)} is over no place.`),
    onDragEnd: ({ over }) => (over ? `Photo dropped at place ${placeOf(over.id)}.` : 'Photo dropped where it was.'),
    onDragCancel: ({ active }) => `Moving cancelled: photo ${placeOf(active.id)} stays where it was.`,
  }

  const shown = entries.filter((e) => e.kind === 'photo' || e.upload.state !== 'failed').length
  const picker = (label: string, capture: boolean) => (
    <label className={`staff-button staff-photos__pick${capture ? ' staff-photos__pick--camera' : ''}`}>
      {label}
      <input
        type="file"
        accept="image/*"
        multiple={!capture}
        capture={capture ? 'environment' : undefined}
        className="staff-photos__file"
        onChange={(event) => {
          addFiles([...(event.currentTarget.files ?? [])])
          event.currentTarget.value = ''
        }}
      />
    </label>
  )

  return (
    <div
      ref={root}
      className={`staff-photos${dropping ? ' staff-photos--dropping' : ''}`}
      {...dropHandlers}
    >
      <p className="staff-photos__intro">
        Up to {photoLimits.perCart} photos, JPEG, PNG, WebP or AVIF, 25 MB each. The first is the cover. Drag photos here, or:
      </p>
      <div className="staff-photos__add">
        {picker('Add photos', false)}
        {picker('Take a photo', true)}
        <span className="staff-photos__count">
          {shown} of {photoLimits.perCart}
        </span>
      </div>
      <div className="staff-photos__quality">
        <input
          id="photos-full-quality"
          type="checkbox"
          checked={fullQuality}
          aria-describedby="photos-full-quality-hint"
          onChange={(event) => {
            const on = event.currentTarget.checked
            chooseQuality(on)
            window.localStorage.setItem(fullQualityKey, on ? 'yes' : 'no')
          }}
        />
        <label htmlFor="photos-full-quality">Upload full quality</label>
        <p id="photos-full-quality-hint" className="staff-hint">
          Off, photos over {phoneUpload.above / 1_000_000} MB are made smaller on this device before they are sent (about{' '}
          {phoneUpload.targetBytes / 1_000_000} MB), quicker on the lot&rsquo;s mobile data. On, each file is sent as it is.
        </p>
      </div>
      <LiveStatus className="staff-photos__status" status={status} problem={error && <p>{error}</p>} />
      {cartId.current === null && !waiting && entries.some((e) => e.kind === 'upload' && e.upload.state === 'waiting') && (
        <button type="button" className="staff-button staff-button--small" onClick={() => void start()}>
          Send the photos
        </button>
      )}
      {entries.length > 0 && (
        <DndContext
          id="photo-drag-help"
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={onDragEnd}
          accessibility={{
            announcements,
            screenReaderInstructions: { draggable: 'To move this photo, press Space, then the up and down arrows, then Space again to drop it; Escape cancels.' },
          }}
        >
          <SortableContext items={entries.map((e) => e.key)} strategy={verticalListSortingStrategy}>
            <ol className="staff-photos__list" aria-label="Photos, the cover first">
              {entries.map((entry, i) =>
                entry.kind === 'upload' ? (
                  <PendingPhoto
                    key={entry.key}
                    entry={entry}
                    place={i + 1}
                    onDismiss={() => setEntries((all) => all.filter((e) => e.key !== entry.key))}
                  />
                ) : (
                  <SortablePhoto
                    key={entry.key}
                    entry={entry}
                    place={i + 1}
                    last={i === shown - 1}
                    onMove={(to, control) => move(entry.key, to, control)}
                    onAlt={(alt) =>
                      serial(async () => {
                        try {
                          const saved = await client().staff.photo.setAlt.mutate({ id: entry.photo.id, alt })
                          setEntries((all) => all.map((e) => (e.kind === 'photo' && e.photo.id === saved.id ? photoEntry(saved) : e)))
                          setStatus(`Alt text of photo ${i + 1} saved.`)
                        } catch (e) {
                          problem(e, 'The alt text could not be saved. Check the connection and try again.')
                        }
                      })
                    }
                    onRemove={() => {
                      if (!window.confirm(`Remove photo ${i + 1} from this cart? Visitors stop seeing it at once.`)) return
                      void serial(async () => {
                        try {
                          const left = await client().staff.photo.remove.mutate({ id: entry.photo.id })
                          setEntries((all) => all.filter((e) => e.key !== entry.key))
                          merge(left)
                          setStatus(`Photo ${i + 1} removed.`)
                        } catch (e) {
                          problem(e, 'The photo could not be removed. Check the connection and try again.')
                        }
                      })
                    }}
                  />
                ),
              )}
            </ol>
          </SortableContext>
        </DndContext>
      )}
    </div>
  )
}

/** What a stored photo's place says: the first is the cover. */
const placeName = (place: number) => (place === 1 ? <strong>Cover</strong> : `Photo ${place}`)

function SortablePhoto(props: {
  entry: Extract<Entry, { kind: 'photo' }>
  place: number
  last: boolean
  onMove: (to: number, control: Control) => void
  onAlt: (alt: string) => Promise<void>
  onRemove: () => void
}) {
  const { entry, place, last, onMove } = props
  const { photo } = entry
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: entry.key })
  return (
    <li
      ref={setNodeRef}
      data-entry={entry.key}
      className={`staff-photos__item${isDragging ? ' staff-photos__item--dragged' : ''}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      <button type="button" ref={setActivatorNodeRef} className="staff-photos__handle" data-control="drag" {...attributes} {...listeners} aria-label={`Move photo ${place}`}>
        <svg viewBox="0 0 12 20" width="12" height="20" aria-hidden="true" focusable="false">
          {[3, 10, 17].flatMap((y) => [<circle key={`a${y}`} cx="3" cy={y} r="1.6" />, <circle key={`b${y}`} cx="9" cy={y} r="1.6" />])}
        </svg>
      </button>
      <img src={photoPath(photo.key, photo.widths[0]!, 'jpeg')} alt="" width={120} height={90} className="staff-photos__thumb" />
      <div className="staff-photos__details">
        <p className="staff-photos__place">{placeName(place)}</p>
        <AltText photo={photo} place={place} onSave={props.onAlt} />
        <div className="staff-photos__actions">
          <button type="button" className="staff-link-button" data-control="earlier" disabled={place === 1} onClick={() => onMove(place - 2, 'earlier')}>
            Earlier<span className="gc-sr-only"> (photo {place})</span>
          </button>
          <button type="button" className="staff-link-button" data-control="later" disabled={last} onClick={() => onMove(place, 'later')}>
            Later<span className="gc-sr-only"> (photo {place})</span>
          </button>
          {place > 1 && (
            <button type="button" className="staff-link-button" data-control="cover" onClick={() => onMove(0, 'cover')}>
              Make cover<span className="gc-sr-only"> (photo {place})</span>
            </button>
          )}
          <button type="button" className="staff-link-button staff-link-button--danger" onClick={props.onRemove}>
            Remove<span className="gc-sr-only"> photo {place}</span>
          </button>
        </div>
      </div>
    </li>
  )
}

/** A photo picked and on its way, in the place it will take; it cannot be dragged until it arrives. */
function PendingPhoto({ entry, place, onDismiss }: { entry: Extract<Entry, { kind: 'upload' }>; place: number; onDismiss: () => void }) {
  const { upload } = entry
  const { setNodeRef, transform, transition } = useSortable({ id: entry.key, disabled: true })
  const said = { waiting: 'Waiting…', preparing: 'Making it smaller…', sending: `${Math.round(upload.sent * 100)}%`, processing: 'Processing…', failed: '' }[upload.state]
  return (
    <li ref={setNodeRef} data-entry={entry.key} className={`staff-photos__upload staff-photos__upload--${upload.state}`} style={{ transform: CSS.Translate.toString(transform), transition }}>
      <span className="staff-photos__handle staff-photos__handle--idle" aria-hidden="true" />
      <span className="staff-photos__thumb staff-photos__thumb--pending" aria-hidden="true" />
      <div className="staff-photos__details">
        <p className="staff-photos__place">
          {upload.state === 'failed' ? 'Not added' : placeName(place)}: <span className="staff-photos__name">{upload.name}</span>
        </p>
        {upload.state === 'failed' ? (
          <p className="staff-photos__failed">
            <span className="staff-photos__failure">{upload.error}</span>{' '}
            <button type="button" className="staff-link-button" onClick={onDismiss}>
              Dismiss<span className="gc-sr-only"> {upload.name}</span>
            </button>
          </p>
        ) : (
          <p className="staff-photos__progress">
            <progress max={1} value={upload.state === 'sending' ? upload.sent : undefined} aria-label={`Upload of ${upload.name}`} />
            <span>{said}</span>
          </p>
        )}
      </div>
    </li>
  )
}

/**
 * The file to send: a photo over 1.5 MB scaled down on this device unless full quality is asked
 * for; the original whenever scaling fails or does not make it smaller (the server still checks it).
 */
async function prepared(file: File, fullQuality: boolean): Promise<Blob> {
  if (fullQuality || file.size <= phoneUpload.above) return file
  try {
    const smaller = await imageCompression(file, {
      maxSizeMB: phoneUpload.targetBytes / 1024 / 1024,
      maxWidthOrHeight: phoneUpload.longestSide,
      initialQuality: 0.85,
      fileType: 'image/jpeg',
      // Its worker would load the library from a CDN, which this site's policy (and privacy) refuses.
      useWebWorker: false,
    })
    return smaller.size < file.size ? smaller : file
  } catch {
    return file
  }
}

/** One photo's alt text, saved when it changes and the field is left. */
function AltText({ photo, place, onSave }: { photo: StaffPhoto; place: number; onSave: (alt: string) => Promise<void> }) {
  const [value, setValue] = useState(photo.alt)
  const [stored, setStored] = useState(photo.alt)
  // A move gives a photo still bearing its first alt text its new place's (api/photos/photo-store.ts):
  // the field shows that, unless something else is being typed in it.
  if (photo.alt !== stored) {
    setStored(photo.alt)
    if (value === stored) setValue(photo.alt)
  }
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
 * The section as the server renders it inside the cart form. On a new cart's form, the first
 * photos picked save the cart as a draft (they belong to a cart); without the script, the form's
 * Save draft does, and the draft's page then takes photos. The props ride along for the script.
 */
export function CartPhotosSection({ cart }: { cart?: StaffCart }) {
  const props: CartPhotosProps = cart ? { cartId: cart.id, cartTitle: cart.title, photos: cart.photos } : { cartId: null, cartTitle: '', photos: [] }
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
