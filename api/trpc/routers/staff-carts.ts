import { TRPCError } from '@trpc/server'
import * as z from 'zod/mini'
import { cartStatuses } from '../../../domain/cart-facts.ts'
import { cartId, cartRecordFields, type CartRecordInput, savedCartKey } from '../../../domain/cart-record.ts'
import { plainText } from '../../../domain/inquiry.ts'
import { FieldError } from '../../http/errors.ts'
import { NoSuchCartError, SaleUnconfirmedError, StaleVersionError, staffSorts } from '../../staff/cart-records.ts'
import { NotFeaturedError } from '../../staff/featured-order.ts'
import { router } from '../init.ts'
import { staffProcedure } from '../staff-procedure.ts'

/** The carts a bulk change applies to: those selected on one page of the list. */
const cartIds = z
  .array(cartId, 'ids must be a list of cart ids')
  .check(z.minLength(1, 'Select at least one cart'), z.maxLength(200, 'Select at most 200 carts at once'))

/** The store's refusals as the API's: a field's problem beside it, a stale copy, a missing cart. */
const cartProcedure = staffProcedure.use(async ({ next }) => {
  const result = await next()
  if (result.ok) return result
  const cause = result.error.cause
  // Its issues are already the error shape's; the formatter lists them per field (fieldIssues).
  if (cause instanceof FieldError) throw new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause })
  if (cause instanceof StaleVersionError) throw new TRPCError({ code: 'CONFLICT', message: cause.message })
  if (cause instanceof SaleUnconfirmedError) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: cause.message })
  if (cause instanceof NoSuchCartError) throw new TRPCError({ code: 'NOT_FOUND', message: cause.message })
  if (cause instanceof NotFeaturedError) throw new TRPCError({ code: 'BAD_REQUEST', message: cause.message })
  return result
})

export const staffCartsRouter = router({
  /** The inventory table: search, status filter, sort and paging, for 10,000 carts and more. */
  list: cartProcedure
    .input(
      z.optional(
        z.object({
          q: z.optional(z.string('q must be text').check(z.maxLength(100, 'Search at most 100 characters'), plainText('q'))),
          status: z.optional(z.enum(cartStatuses, 'status must be draft, available, hold or sold')),
          location: z.optional(cartRecordFields.location),
          sort: z.optional(z.enum(staffSorts, `sort must be one of: ${staffSorts.join(', ')}`)),
          limit: z.optional(z.int('limit must be a whole number').check(z.minimum(1), z.maximum(200))),
          offset: z.optional(z.int('offset must be a whole number').check(z.minimum(0), z.maximum(1_000_000))),
        }),
      ),
    )
    .query(({ ctx, input }) => ctx.staff.cartRecords.list({ ...input, limit: input?.limit ?? 50 })),

  get: cartProcedure.input(z.object({ id: cartId })).query(async ({ ctx, input }) => {
    const cart = await ctx.staff.cartRecords.get(input.id)
    if (!cart) throw new NoSuchCartError(input.id)
    return cart
  }),

  /**
   * Adds a cart (no id) or saves every field of one; `version` refuses a stale copy. The record
   * is checked by the store (domain/cart-record.ts's schema and the duplicate stock number or
   * VIN together), so every problem comes back in one answer.
   */
  save: cartProcedure
    .input(
      z.pipe(
        z.custom<CartRecordInput & { id?: number; version?: number }>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'A cart must be an object of its fields'),
        z.transform((input) => ({ ...input, ...savedCartKey.parse({ id: input.id, version: input.version }) })),
      ),
    )
    .mutation(({ ctx, input: { id, version, ...record } }) => ctx.staff.cartRecords.save(ctx.actor, { id, version, record })),

  /**
   * The list's row: price, status and featured in one step and one transaction; refused as a
   * whole (nothing saved) if any of them is. Fields left out keep their values.
   */
  saveRow: cartProcedure
    .input(
      z.object({
        id: cartId,
        version: z.optional(z.int('version must be a whole number')),
        price: z.optional(cartRecordFields.price),
        status: z.optional(cartRecordFields.status),
        featured: z.optional(z.boolean('featured must be true or false')),
        /** Selling from the list needs this: the console asked "Mark it sold?" and staff said yes. */
        confirmSale: z.optional(z.boolean('confirmSale must be true or false')),
      }),
    )
    .mutation(({ ctx, input: { id, ...change } }) => ctx.staff.cartRecords.saveRow(ctx.actor, id, change)),

  /**
   * The list's bulk change: one status, or featured on or off, for every cart selected, in one
   * transaction (all of them or none). Selling asks first, as the row's save does.
   */
  saveMany: cartProcedure
    .input(
      z
        .object({
          ids: cartIds,
          status: z.optional(cartRecordFields.status),
          featured: z.optional(z.boolean('featured must be true or false')),
          confirmSale: z.optional(z.boolean('confirmSale must be true or false')),
        })
        .check(z.refine((input) => input.status !== undefined || input.featured !== undefined, 'Choose a status or featured to change')),
    )
    .mutation(({ ctx, input: { ids, ...change } }) => ctx.staff.cartRecords.saveMany(ctx.actor, ids, change)),

  setPrice: cartProcedure
    .input(z.object({ id: cartId, price: cartRecordFields.price }))
    .mutation(({ ctx, input }) => ctx.staff.cartRecords.setPrice(ctx.actor, input.id, input.price)),

  setStatus: cartProcedure
    .input(z.object({ id: cartId, status: cartRecordFields.status }))
    .mutation(({ ctx, input }) => ctx.staff.cartRecords.setStatus(ctx.actor, input.id, input.status)),

  setFeatured: cartProcedure
    .input(z.object({ id: cartId, featured: z.boolean('featured must be true or false') }))
    .mutation(({ ctx, input }) => ctx.staff.cartRecords.setFeatured(ctx.actor, input.id, input.featured)),

  /**
   * Every featured cart in the order visitors see them (PRODUCT.md, "featured"), with its status:
   * one on hold, sold or in draft keeps its place but is not shown until it is available again.
   */
  featured: cartProcedure.query(({ ctx }) => ctx.staff.featuredOrder.list()),

  /** Puts the featured carts in this order, the first shown first; featured carts left out come after. */
  setFeaturedOrder: cartProcedure
    .input(
      z.object({
        ids: z
          .array(cartId, 'ids must be a list of cart ids')
          .check(
            z.minLength(1, 'Give the order of at least one featured cart'),
            z.maxLength(200, 'Order at most 200 featured carts'),
            z.refine((ids) => new Set(ids).size === ids.length, 'Give each cart one place'),
          ),
      }),
    )
    .mutation(({ ctx, input }) => ctx.staff.featuredOrder.set(ctx.actor, input.ids)),

  /** Deletes a cart for good (the console asks first); the audit log keeps what it was. */
  delete: cartProcedure.input(z.object({ id: cartId })).mutation(async ({ ctx, input }) => {
    await ctx.staff.cartRecords.remove(ctx.actor, input.id)
    return { id: input.id, deleted: true as const }
  }),

  /** Deletes every cart selected, in one transaction or not at all (the console asks first). */
  deleteMany: cartProcedure.input(z.object({ ids: cartIds })).mutation(async ({ ctx, input }) => {
    await ctx.staff.cartRecords.removeMany(ctx.actor, input.ids)
    return { ids: input.ids, deleted: true as const }
  }),
})
