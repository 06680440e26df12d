import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { defaultPhotoAlt, parsePhotoFile, photoLimits, photoPath } from '../../domain/photos.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { type ProcessedPhoto, PhotoRejectedError, inspectUpload, photoKey, photoQueue, processPhoto } from '../photos/processing.ts'
import { type Actor, recordManyChanges } from '../staff/audit.ts'
import type { ImportRow, RowProblem } from './inventory-csv.ts'
import { type ImportPlan, StaleImportError } from './inventory-import.ts'
import { fetchPhoto, type FetchLimits, PhotoFetchError, photoFetchLimits } from './photo-fetch.ts'
import type { PhotoSource, PhotoSourcePolicy } from './photo-sources.ts'

/**
 * The photos an inventory import takes (PRODUCT.md, "Import"): every one is read (fetched from
 * an allowed host, read from the CSV's folder, or found in this site's own storage by its
 * address) and checked by the photo processor before anything is written. Then each is stored
 * as a photo of no cart yet (`stagePhotos`), and the import's one transaction gives each its cart
 * (`writePlanWithPhotos`), so the transaction carries no file.
 *
 * A photo is recognised by its key (the hash of its bytes, `photoKey`): a photo a cart already
 * has is left as it is, so importing an export again, whose `photos` are this site's own
 * addresses, changes nothing. The import adds photos after a cart's own; it never removes or
 * reorders them (the console does).
 */

/** One photo a row adds to its cart. `processed` is absent when only checked (a dry run, a preview). */
export interface NewPhoto {
  reference: string
  key: string
  width?: number
  height?: number
  processed?: ProcessedPhoto
  /** A photo this site already stores (on another cart): its files are copied when staged. */
  stored?: { widths: number[]; bytes: number }
  /** The photo's row as `stagePhotos` stored it, with no cart yet. */
  stagedId?: number
}

export interface RowPhotos {
  line: number
  /** The row's stock number: its cart, if it exists (else the plan adds the cart, found by `line`). */
  stockNumber: string | null
  photos: NewPhoto[]
}

export type PreparedPhotos = { ok: true; rows: RowPhotos[]; count: number } | { ok: false; problems: RowProblem[] }

export interface PrepareOptions {
  /** The folder file names are read in (the command line); absent in the console. */
  folder?: string
  /** Decode and store-ready files (an import), or check the header only (a dry run, a preview). */
  process: boolean
  limits?: FetchLimits
}

/** At most this many photos are fetched at once; processing is one at a time (`photoQueue`). */
const fetchesAtOnce = 4

export async function preparePhotos(
  sql: Sql,
  rows: readonly ImportRow[],
  sources: ReadonlyMap<string, PhotoSource>,
  policy: PhotoSourcePolicy,
  options: PrepareOptions,
): Promise<PreparedPhotos> {
  const named = rows.filter((r) => r.photos.length > 0)
  if (named.length === 0) return { ok: true, rows: [], count: 0 }
  const stockNumbers = named.flatMap((r) => (r.record.stockNumber ? [r.record.stockNumber] : []))
  const siteKeys = [...sources.values()].flatMap((s) => (s.kind === 'site' ? [parsePhotoFile(s.path.replace(/^\/photos\//, ''))?.key ?? ''] : []))
  const [held, stored] = await Promise.all([
    sql<{ stockNumber: string; key: string }[]>`
      select c.stock_number, p.key from cart_photos p join golf_carts c on c.id = p.cart_id
      where c.stock_number = any(${sql.array(stockNumbers)}::text[])
    `,
    sql<{ key: string; width: number; height: number; widths: number[]; bytes: number }[]>`
      select distinct on (key) key, width, height, widths, bytes::float8 as bytes
      from cart_photos where key = any(${sql.array(siteKeys)}::text[]) and cart_id is not null
      order by key, id
    `,
  ])
  const keysOf = new Map<string, Set<string>>()
  for (const { stockNumber, key } of held) keysOf.set(stockNumber, (keysOf.get(stockNumber) ?? new Set()).add(key))
  const storedByKey = new Map(stored.map((s) => [s.key, s]))

  // Each reference is read once, however many rows name it.
  const read = new Map<string, Promise<{ key: string; bytes?: Buffer } | string>>()
  const readOnce = (reference: string) => {
    let pending = read.get(reference)
    if (!pending) read.set(reference, (pending = readReference(reference, sources.get(reference)!, policy, options, storedByKey)))
    return pending
  }
  const referenced = [...new Set(named.flatMap((r) => r.photos))]
  await inBatches(referenced, fetchesAtOnce, readOnce)

  // Photos processed once each, by key, one at a time; only those some cart does not have yet.
  const ready = new Map<string, Promise<NewPhoto | string>>()
  const problems: RowProblem[] = []
  const result: RowPhotos[] = []
  let count = 0
  for (const row of named) {
    const have = keysOf.get(row.record.stockNumber ?? '') ?? new Set<string>()
    const adding: NewPhoto[] = []
    for (const reference of row.photos) {
      const got = await readOnce(reference)
      if (typeof got === 'string') {
        problems.push({ line: row.line, field: 'photos', message: got })
        continue
      }
      if (have.has(got.key) || adding.some((p) => p.key === got.key)) continue
      if (!got.bytes) {
        const known = storedByKey.get(got.key)!
        adding.push({ reference, key: got.key, width: known.width, height: known.height, stored: { widths: known.widths, bytes: known.bytes } })
        continue
      }
      let photo = ready.get(got.key)
      if (!photo) ready.set(got.key, (photo = checkBytes(reference, got.key, got.bytes, options.process)))
      const checked = await photo
      if (typeof checked === 'string') problems.push({ line: row.line, field: 'photos', message: checked })
      else adding.push({ ...checked, reference })
    }
    if (have.size + adding.length > photoLimits.perCart) {
      problems.push({
        line: row.line,
        field: 'photos',
        message: `A cart has at most ${photoLimits.perCart} photos; this one has ${have.size} and the row adds ${adding.length}`,
      })
    }
    if (adding.length > 0) {
      result.push({ line: row.line, stockNumber: row.record.stockNumber ?? null, photos: adding })
      count += adding.length
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rows: result, count }
}

async function readReference(
  reference: string,
  source: PhotoSource,
  policy: PhotoSourcePolicy,
  options: PrepareOptions,
  stored: ReadonlyMap<string, unknown>,
): Promise<{ key: string; bytes?: Buffer } | string> {
  if (source.kind === 'site') {
    // This site's own photo, by its address: taken from storage, never over HTTP.
    const file = parsePhotoFile(source.path.replace(/^\/photos\//, ''))
    if (!source.path.startsWith('/photos/') || !file || !stored.has(file.key)) return `${reference} is not a photo stored on this site`
    return { key: file.key }
  }
  let bytes: Buffer
  try {
    if (source.kind === 'file') {
      if (!options.folder) return `"${reference}" is a file name: in the console, upload photos instead`
      bytes = await readFile(join(options.folder, source.name))
      if (bytes.length > photoLimits.uploadBytes) return `${reference}: the file is larger than ${photoLimits.uploadBytes / 1024 / 1024} MB`
    } else {
      bytes = await fetchPhoto(source, policy, options.limits ?? photoFetchLimits)
    }
  } catch (error) {
    if (error instanceof PhotoFetchError) return error.message
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return `There is no file ${reference} beside the CSV file`
    return `${reference} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`
  }
  return { key: photoKey(bytes), bytes }
}

/** The photo processor's verdict: store-ready files, or the header checked; a sentence if refused. */
async function checkBytes(reference: string, key: string, bytes: Buffer, process: boolean): Promise<NewPhoto | string> {
  try {
    if (!process) {
      const { width, height } = await inspectUpload(bytes)
      return { reference, key, width, height }
    }
    const processed = await photoQueue.run(() => processPhoto(bytes))
    return { reference, key, width: processed.width, height: processed.height, processed }
  } catch (error) {
    if (error instanceof PhotoRejectedError) return `${reference}: ${error.message}`
    throw error
  }
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!)
    }),
  )
}

/**
 * Stores each photo to add before the import's transaction, as a photo of no cart yet
 * (migration 0013), one photo per statement or two: its files sent, or copied from this site's
 * photo. Megabytes of files inside the transaction held the embedded database, which serves one
 * connection, for seconds (ADR 0018); the transaction then only places them (`writePlanWithPhotos`).
 * Returns the import's id, for both and for `unstagePhotos`.
 */
export async function stagePhotos(sql: Sql, photos: readonly RowPhotos[]): Promise<string> {
  const importId = randomUUID()
  for (const photo of photos.flatMap((r) => r.photos)) {
    const { processed } = photo
    if (processed) {
      const [row] = await sql<{ id: number }[]>`
        insert into cart_photos (cart_id, import_id, key, position, alt, width, height, widths, bytes)
        values (null, ${importId}, ${photo.key}, 0, ${photo.key}, ${processed.width}, ${processed.height}, ${processed.widths}::int[],
          ${processed.files.reduce((n, f) => n + f.bytes.length, 0)})
        returning id::int as id
      `
      await sql`
        insert into cart_photo_files ${sql(processed.files.map((f) => ({ photo_id: row!.id, format: f.format, width: f.width, bytes: f.bytes })))}
      `
      photo.stagedId = row!.id
    } else {
      const [row] = await sql<{ id: number; source: number }[]>`
        with source as (select * from cart_photos where key = ${photo.key} and cart_id is not null order by id limit 1)
        insert into cart_photos (cart_id, import_id, key, position, alt, width, height, widths, bytes)
        select null, ${importId}, key, 0, alt, width, height, widths, bytes from source
        returning id::int as id, (select id::int from source) as source
      `
      if (!row) throw new StaleImportError(`${photo.reference} was removed from this site since the file was checked; check the file again`)
      await sql`
        insert into cart_photo_files (photo_id, format, width, bytes)
        select ${row.id}, format, width, bytes from cart_photo_files where photo_id = ${row.source}
      `
      photo.stagedId = row.id
    }
  }
  return importId
}

/** Removes what an import staged and did not place, and what a crashed import left a day ago. */
export async function unstagePhotos(sql: Sql, importId: string): Promise<void> {
  await sql`
    delete from cart_photos
    where cart_id is null and (import_id = ${importId} or created_at < now() - interval '1 day')
  `
}

/**
 * The writes of a plan with its photos, inside the import's transaction: the plan (`write`), then
 * each row's staged photos given their cart, after its own photos, and alt text (one update), and
 * a `photo` audit row each (one insert). Carts added by the plan are the rows inserted after the
 * table's highest id, in the plan's order (the table is locked against other writers first).
 */
export async function writePlanWithPhotos<T>(
  tx: TransactionSql,
  plan: ImportPlan,
  photos: readonly RowPhotos[],
  actor: Actor,
  write: () => Promise<T>,
  importId?: string,
): Promise<T & { photosAdded: number }> {
  if (photos.length === 0) return { ...(await write()), photosAdded: 0 }
  if (!importId || photos.some((r) => r.photos.some((p) => p.stagedId === undefined))) throw new Error('The photos were not staged')
  await tx`lock table golf_carts in share row exclusive mode`
  const [{ top } = { top: 0 }] = await tx<{ top: number }[]>`select coalesce(max(id), 0)::int as top from golf_carts`
  const outcome = await write()
  const added = await tx<{ id: number }[]>`select id from golf_carts where id > ${top} order by id`
  if (added.length !== plan.adds.length) throw new Error(`The import added ${added.length} carts, not the ${plan.adds.length} planned`)
  const addedAt = new Map(plan.adds.map((a, i) => [a.line, added[i]!.id]))
  const stockNumbers = photos.flatMap((r) => (r.stockNumber && !addedAt.has(r.line) ? [r.stockNumber] : []))
  const existing = await tx<{ id: number; stockNumber: string }[]>`
    select id, stock_number from golf_carts where stock_number = any(${tx.array(stockNumbers)}::text[])
  `
  const idOf = (r: RowPhotos) => addedAt.get(r.line) ?? existing.find((c) => c.stockNumber === r.stockNumber)?.id
  const carts = await tx<{ id: number; title: string; taken: number; keys: string[] }[]>`
    select c.id, c.title, count(p.id)::int as taken, coalesce(array_agg(p.key) filter (where p.id is not null), '{}') as keys
    from golf_carts c left join cart_photos p on p.cart_id = c.id
    where c.id = any(${tx.array(photos.map(idOf).filter((id): id is number => id !== undefined))}::int[])
    group by c.id
  `
  const placed: { id: number; cartId: number; key: string; position: number; alt: string; width?: number; height?: number; source: string }[] = []
  for (const row of photos) {
    const cart = carts.find((c) => c.id === idOf(row))
    if (!cart) throw new StaleImportError(`The cart of line ${row.line} was deleted since the file was checked; check the file again`)
    let position = cart.taken
    for (const photo of row.photos) {
      if (cart.keys.includes(photo.key)) continue // uploaded in the console meanwhile
      if (position >= photoLimits.perCart) throw new StaleImportError(`The cart of line ${row.line} got more photos since the file was checked; check the file again`)
      const alt = defaultPhotoAlt(cart.title, position)
      placed.push({ id: photo.stagedId!, cartId: cart.id, key: photo.key, position, alt, width: photo.width, height: photo.height, source: photo.reference })
      cart.keys.push(photo.key)
      position++
    }
  }
  if (placed.length === 0) return { ...outcome, photosAdded: 0 }
  const [moved] = await tx<{ n: number }[]>`
    with placed as (
      update cart_photos p set cart_id = r.cart_id, position = r.position, alt = r.alt, import_id = null, created_at = now()
      from jsonb_to_recordset(${JSON.stringify(placed.map((p) => ({ id: p.id, cart_id: p.cartId, position: p.position, alt: p.alt })))}::text::jsonb)
        as r(id bigint, cart_id integer, position integer, alt text)
      where p.id = r.id and p.import_id = ${importId} and p.cart_id is null
      returning p.id
    )
    select count(*)::int as n from placed
  `
  if (moved?.n !== placed.length) throw new StaleImportError('The photos checked for this import are gone; check the file again')
  const bytes = await tx<{ id: number; bytes: number }[]>`select id::int as id, bytes::float8 as bytes from cart_photos where id = any(${tx.array(placed.map((p) => p.id))}::bigint[])`
  await recordManyChanges(
    tx,
    actor,
    'photo',
    placed.map(({ id, ...after }) => ({ entityId: id, action: 'create' as const, after: { ...after, bytes: bytes.find((b) => b.id === id)?.bytes } })),
  )
  return { ...outcome, photosAdded: placed.length }
}

/** A stored photo's address as the export writes it: the largest JPEG, on the site's own host. */
export function exportedPhotoUrl(siteUrl: string, photo: { key: string; widths: readonly number[] }): string {
  return new URL(photoPath(photo.key, Math.max(...photo.widths), 'jpeg'), siteUrl).href
}
