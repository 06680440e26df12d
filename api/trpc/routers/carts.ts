import { TRPCError } from '@trpc/server'
import * as z from 'zod/mini'
import { withoutNul } from '../../../domain/inquiry.ts'
import { publicProcedure, router } from '../init.ts'

const pageSize = z.optional(z.int('limit must be a whole number').check(z.minimum(1), z.maximum(100)))

export const cartListInput = z.optional(
  z.object({
    category: z.optional(z.string('category must be text').check(z.maxLength(50), withoutNul('category'))),
    limit: pageSize,
    offset: z.optional(z.int('offset must be a whole number').check(z.minimum(0), z.maximum(1_000_000))),
  }),
)

export const cartsRouter = router({
  /** Every cart, or one category's; `limit`/`offset` page through large inventories. */
  list: publicProcedure.input(cartListInput).query(({ ctx, input }) => ctx.carts.list(input ?? {})),

  featured: publicProcedure
    .input(z.optional(z.object({ limit: pageSize })))
    .query(({ ctx, input }) => ctx.carts.featured(input?.limit)),

  /** The alternative slug reading finds the cart too; its `slug` is always the canonical one. */
  bySlug: publicProcedure
    .input(z.object({ slug: z.string('slug must be text').check(z.minLength(1), z.maxLength(200), withoutNul('slug')) }))
    .query(async ({ ctx, input }) => {
      const cart = await ctx.carts.bySlug(input.slug)
      if (!cart) {
        throw new TRPCError({ code: 'NOT_FOUND', message: `No golf cart has the slug "${input.slug}"` })
      }
      return cart
    }),
})
