import { type CartPhoto, defaultPhotoAlt, type PhotoFormat, photoLimits, type StaffPhoto } from '../../domain/photos.ts'
import type { Sql, TransactionSql } from '../db/database.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'
import { NoSuchCartError } from '../staff/cart-records.ts'
import type { ProcessedPhoto } from './processing.ts'

/**
 * Every read and write of `cart_photos` and `cart_photo_files` (migration 0008). Writes run in one
 * transaction with their audit rows (entity `photo`), then tell the visitors' caches, so a new
 * cover shows on the cards at once. The cart's row is locked first: two uploads to one cart
 * cannot both take the 24th place.
 */

export class NoSuchPhotoError extends Error {
  override name = 'NoSuchPhotoError'
  constructor(readonly id: number) {
    super(`No photo has the id ${id}`)
  }
}

/** A photo the cart cannot take (the 25th, the same one twice), or an order that is not the cart's photos. */
export class PhotoConflictError extends Error {
  override name = 'PhotoConflictError'
}

export const photoStoreMessages = {
  full: `This cart already has ${photoLimits.perCart} photos, the most a cart can have. Remove one to add another.`,
  duplicate: (position: number) => `This photo is already on this cart (photo ${position + 1}).`,
  order: "The order must name each of this cart's photos once. Reload the cart to see its photos as they are now.",
}

export function createPhotoStore(sql: Sql, onWrite: () => void) {
  const columns = (q: Sql | TransactionSql) => q`
    id::int as id, cart_id, key, position, alt, width, height, widths, bytes::float8 as bytes
  `

  async function write<T>(work: (tx: TransactionSql) => Promise<T>): Promise<T> {
    const result = await sql.begin(work)
    onWrite()
    return result as T
  }

  async function lockCart(tx: TransactionSql, cartId: number): Promise<{ title: string }> {
    const [cart] = await tx<{ title: string }[]>`select title from golf_carts where id = ${cartId} for update`
    if (!cart) throw new NoSuchCartError(cartId)
    return cart
  }

  async function photosOf(q: Sql | TransactionSql, cartId: number): Promise<StaffPhoto[]> {
    const rows = await q<StaffPhoto[]>`select ${columns(q)} from cart_photos where cart_id = ${cartId} order by position, id`
    return [...rows]
  }

  /** A photo and its cart, locked (cart first, as every write does), or NoSuchPhotoError. */
  async function lockPhoto(tx: TransactionSql, id: number): Promise<StaffPhoto> {
    // A photo an import has staged has no cart yet (migration 0013): not a photo to change.
    const [owner] = await tx<{ cartId: number }[]>`select cart_id from cart_photos where id = ${id} and cart_id is not null`
    if (!owner) throw new NoSuchPhotoError(id)
    await lockCart(tx, owner.cartId)
    const [photo] = await tx<StaffPhoto[]>`select ${columns(tx)} from cart_photos where id = ${id}`
    if (!photo) throw new NoSuchPhotoError(id)
    return photo
  }

  /**
   * Puts the cart's photos in the given order, numbered 0 (the cover) onwards, auditing each photo
   * that moved. The same order renumbered (the gap a failed upload of a batch left) is no change
   * anyone made: no audit rows. A photo whose alt text is still the one it started with (the
   * title and its place, `defaultPhotoAlt`) gets its new place's, so a cover never reads "photo
   * 3"; that follows the move and is not a change of its own in the audit log. Alt text staff
   * wrote stays as it is.
   */
  async function applyOrder(tx: TransactionSql, actor: Actor, current: StaffPhoto[], ids: readonly number[]): Promise<void> {
    const moved = ids
      .map((id, position) => ({ photo: current.find((p) => p.id === id)!, position }))
      .filter(({ photo, position }) => photo.position !== position)
    if (moved.length === 0) return
    const [cart] = await tx<{ title: string }[]>`select title from golf_carts where id = ${moved[0]!.photo.cartId}`
    const altAt = ({ photo, position }: (typeof moved)[number]) =>
      cart && photo.alt === defaultPhotoAlt(cart.title, photo.position) ? defaultPhotoAlt(cart.title, position) : photo.alt
    await tx`
      update cart_photos set position = moved.position, alt = moved.alt
      from (
        select unnest(${moved.map((m) => m.photo.id)}::bigint[]) as id, unnest(${moved.map((m) => m.position)}::int[]) as position,
          unnest(${moved.map(altAt)}::text[]) as alt
      ) as moved
      where cart_photos.id = moved.id
    `
    if (ids.every((id, i) => current[i]?.id === id)) return
    for (const { photo, position } of moved) {
      await recordChanges(tx, actor, 'photo', photo.id, [{ action: 'update', field: 'position', before: photo.position, after: position }])
    }
  }

  return {
    list: (cartId: number) => photosOf(sql, cartId),

    /**
     * Stores a processed upload; alt text defaults to the title and place. Without `place` it is
     * the cart's last photo. With `place` (0 is the cover) it goes where it was picked: photos
     * picked together are sent together and finish in any order, so `place` is kept as the
     * photo's position as it stands, after every photo of a lower place and before every photo of
     * a higher one, whichever arrived first (a gap a failed one leaves is closed by the next
     * reorder, which `applyOrder` does not audit as a move).
     */
    add(actor: Actor, cartId: number, photo: ProcessedPhoto, alt?: string, place?: number): Promise<StaffPhoto> {
      return write(async (tx) => {
        const cart = await lockCart(tx, cartId)
        const current = await photosOf(tx, cartId)
        const same = current.find((p) => p.key === photo.key)
        if (same) throw new PhotoConflictError(photoStoreMessages.duplicate(current.indexOf(same)))
        if (current.length >= photoLimits.perCart) throw new PhotoConflictError(photoStoreMessages.full)
        const last = current.length === 0 ? -1 : Math.max(...current.map((p) => p.position))
        const position = place ?? last + 1
        const bytes = photo.files.reduce((sum, f) => sum + f.bytes.length, 0)
        const [added] = await tx<StaffPhoto[]>`
          insert into cart_photos (cart_id, key, position, alt, width, height, widths, bytes)
          values (${cartId}, ${photo.key}, ${position}, ${alt?.trim() || defaultPhotoAlt(cart.title, place ?? current.length)},
            ${photo.width}, ${photo.height}, ${photo.widths}::int[], ${bytes})
          returning ${columns(tx)}
        `
        // One file at a time: each statement carries a few hundred kB at most.
        for (const file of photo.files) {
          await tx`
            insert into cart_photo_files (photo_id, format, width, bytes)
            values (${added!.id}, ${file.format}, ${file.width}, ${file.bytes})
          `
        }
        await recordChanges(tx, actor, 'photo', added!.id, [
          { action: 'create', after: { cartId, key: photo.key, position, alt: added!.alt, width: photo.width, height: photo.height, bytes } },
        ])
        return added!
      })
    },

    /** The cart's photos in a new order: `ids` must name each of them once. */
    reorder(actor: Actor, cartId: number, ids: readonly number[]): Promise<StaffPhoto[]> {
      return write(async (tx) => {
        await lockCart(tx, cartId)
        const current = await photosOf(tx, cartId)
        const same = ids.length === current.length && new Set(ids).size === ids.length && ids.every((id) => current.some((p) => p.id === id))
        if (!same) throw new PhotoConflictError(photoStoreMessages.order)
        await applyOrder(tx, actor, current, ids)
        return photosOf(tx, cartId)
      })
    },

    /** Makes a photo its cart's cover (first); the others keep their order after it. */
    setCover(actor: Actor, id: number): Promise<StaffPhoto[]> {
      return write(async (tx) => {
        const photo = await lockPhoto(tx, id)
        const current = await photosOf(tx, photo.cartId)
        await applyOrder(tx, actor, current, [id, ...current.filter((p) => p.id !== id).map((p) => p.id)])
        return photosOf(tx, photo.cartId)
      })
    },

    setAlt(actor: Actor, id: number, alt: string): Promise<StaffPhoto> {
      return write(async (tx) => {
        const photo = await lockPhoto(tx, id)
        const [updated] = await tx<StaffPhoto[]>`update cart_photos set alt = ${alt} where id = ${id} returning ${columns(tx)}`
        if (photo.alt !== alt) await recordChanges(tx, actor, 'photo', id, [{ action: 'update', field: 'alt', before: photo.alt, after: alt }])
        return updated!
      })
    },

    /** Deletes a photo and its files (their bytes are freed); the ones after it move up. */
    remove(actor: Actor, id: number): Promise<StaffPhoto[]> {
      return write(async (tx) => {
        const photo = await lockPhoto(tx, id)
        await tx`delete from cart_photos where id = ${id}`
        await recordChanges(tx, actor, 'photo', id, [
          { action: 'delete', before: { cartId: photo.cartId, key: photo.key, position: photo.position, alt: photo.alt, bytes: photo.bytes } },
        ])
        const rest = await photosOf(tx, photo.cartId)
        await applyOrder(tx, actor, rest, rest.map((p) => p.id))
        return photosOf(tx, photo.cartId)
      })
    },

    /** One stored file's bytes, whichever cart holds the photo; undefined when none does. */
    async file(key: string, width: number, format: PhotoFormat): Promise<Buffer | undefined> {
      const [row] = await sql<{ bytes: Buffer }[]>`
        select f.bytes from cart_photos p join cart_photo_files f on f.photo_id = p.id
        where p.key = ${key} and f.width = ${width} and f.format = ${format} and p.cart_id is not null
        limit 1
      `
      return row?.bytes
    },

    /** Every listed cart's photos in order, by cart id (the sitemap's image entries). */
    async listed(): Promise<Map<number, CartPhoto[]>> {
      const rows = await sql<(CartPhoto & { cartId: number })[]>`
        select p.cart_id, p.key, p.alt, p.width, p.height, p.widths
        from cart_photos p join golf_carts c on c.id = p.cart_id
        where c.status in ('available', 'hold')
        order by p.cart_id, p.position, p.id
      `
      const byCart = new Map<number, CartPhoto[]>()
      for (const { cartId, ...photo } of rows) byCart.set(cartId, [...(byCart.get(cartId) ?? []), photo])
      return byCart
    },

    /** What a cart's photos take in the database: files and their bytes. */
    async storage(cartId: number): Promise<{ photos: number; files: number; bytes: number }> {
      const [row] = await sql<{ photos: number; files: number; bytes: number }[]>`
        select count(distinct p.id)::int as photos, count(f.*)::int as files, coalesce(sum(length(f.bytes)), 0)::float8 as bytes
        from cart_photos p left join cart_photo_files f on f.photo_id = p.id
        where p.cart_id = ${cartId}
      `
      return row ?? { photos: 0, files: 0, bytes: 0 }
    },
  }
}

export type PhotoStore = ReturnType<typeof createPhotoStore>
