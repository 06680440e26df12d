import { TRPCError } from '@trpc/server'
import * as z from 'zod/mini'
import { soldPageExpired } from '../../../domain/cart-facts.ts'
import type { GolfCartDetail } from '../../../domain/golf-cart.ts'
import { plainText } from '../../../domain/inquiry.ts'
import { cartSearchShape, readSearchInto } from '../../../domain/cart-query-schema.ts'
import type { Context } from '../context.ts'
import { GoneError } from '../../http/errors.ts'
import { publicProcedure, router } from '../init.ts'

const pageSize = z.optional(z.int('limit must be a whole number').check(z.minimum(1), z.maximum(100)))

/** The search (domain/cart-query.ts) and the page; `facets` asks for each choice's count too. */
export const cartListInput = z.optional(
  z.pipe(
    z.object({
      ...cartSearchShape,
      limit: pageSize,
      offset: z.optional(z.int('offset must be a whole number').check(z.minimum(0), z.maximum(1_000_000))),
      facets: z.optional(z.boolean('facets must be true or false')),
    }),
    z.transform((input, ctx) => readSearchInto(input, ctx)),
  ),
)

const slugInput = z.object({ slug: z.string('slug must be text').check(z.minLength(1), z.maxLength(200), plainText('slug')) })

export const cartsRouter = router({
  /**
   * The listed carts a search finds (PRODUCT.md, "search"); `limit`/`offset` page through them,
   * and with `facets` the answer says how many carts each filter's choices would leave.
   */
  list: publicProcedure.input(cartListInput).query(({ ctx, input }) => ctx.carts.list(input ?? {})),

  featured: publicProcedure
    .input(z.optional(z.object({ limit: pageSize })))
    .query(({ ctx, input }) => ctx.carts.featured(input?.limit)),

  /**
   * The alternative slug reading finds the cart too; its `slug` is always the canonical one. A
   * sold cart is found (its page says Sold) until SOLD_VISIBLE_DAYS have passed; then it is gone.
   */
  bySlug: publicProcedure.input(slugInput).query(({ ctx, input }) => listedOrRecentlySold(ctx, input.slug)),

  /** Listed carts nearest in price to one, for the page of a cart that has been sold. */
  similar: publicProcedure
    .input(z.object({ slug: slugInput.shape.slug, limit: pageSize }))
    .query(async ({ ctx, input }) => ctx.carts.similar(await listedOrRecentlySold(ctx, input.slug), input.limit ?? 3)),
})

async function listedOrRecentlySold(ctx: Context, slug: string): Promise<GolfCartDetail> {
  const cart = await ctx.carts.bySlug(slug)
  if (!cart) throw new TRPCError({ code: 'NOT_FOUND', message: `No golf cart has the slug "${slug}"` })
  if (cart.status === 'sold' && soldPageExpired(cart.soldAt, ctx.soldVisibleDays)) {
    const message = `The golf cart "${slug}" has been sold`
    throw new TRPCError({ code: 'NOT_FOUND', message, cause: new GoneError(message) })
  }
  return cart
}
