import { TRPCError } from '@trpc/server'
import * as z from 'zod/mini'
import { requiredText } from '../../../domain/inquiry.ts'
import { photoLimits } from '../../../domain/photos.ts'
import { NoSuchPhotoError, PhotoConflictError } from '../../photos/photo-store.ts'
import { NoSuchCartError } from '../../staff/cart-records.ts'
import { router } from '../init.ts'
import { staffProcedure } from '../staff-procedure.ts'

const id = (label: string) => z.int(`${label} must be a whole number`).check(z.minimum(1, `${label} must be positive`))

/** The store's refusals as the API's: a missing cart or photo, an order or photo the cart cannot take. */
const photoProcedure = staffProcedure.use(async ({ next }) => {
  const result = await next()
  if (result.ok) return result
  const cause = result.error.cause
  if (cause instanceof NoSuchCartError || cause instanceof NoSuchPhotoError) throw new TRPCError({ code: 'NOT_FOUND', message: cause.message })
  if (cause instanceof PhotoConflictError) throw new TRPCError({ code: 'CONFLICT', message: cause.message })
  return result
})

/**
 * A cart's photos in the console (PRODUCT.md, "photos"). Uploads arrive as bytes, not JSON, at
 * `POST /api/staff/carts/:id/photos` (api/photos/http.ts), behind the same session and origin checks.
 */
export const staffPhotosRouter = router({
  /** The cart's photos in order: the first is the cover. */
  list: photoProcedure.input(z.object({ cartId: id('cartId') })).query(({ ctx, input }) => ctx.photos.list(input.cartId)),

  /** Puts the cart's photos in this order; `ids` names each of them once. */
  reorder: photoProcedure
    .input(
      z.object({
        cartId: id('cartId'),
        ids: z.array(id('Each photo id')).check(z.maxLength(photoLimits.perCart, `A cart has at most ${photoLimits.perCart} photos`)),
      }),
    )
    .mutation(({ ctx, input }) => ctx.photos.reorder(ctx.actor, input.cartId, input.ids)),

  /** Makes a photo its cart's cover; the others keep their order after it. */
  setCover: photoProcedure.input(z.object({ id: id('id') })).mutation(({ ctx, input }) => ctx.photos.setCover(ctx.actor, input.id)),

  /** What a screen reader says for the photo. */
  setAlt: photoProcedure
    .input(z.object({ id: id('id'), alt: requiredText('Alt text', photoLimits.alt) }))
    .mutation(({ ctx, input }) => ctx.photos.setAlt(ctx.actor, input.id, input.alt)),

  /** Deletes a photo and its stored files. */
  remove: photoProcedure.input(z.object({ id: id('id') })).mutation(async ({ ctx, input }) => ctx.photos.remove(ctx.actor, input.id)),
})
