import * as z from 'zod/mini'
import { type WatchedSearch, watchedSearch } from './cart-alerts.ts'
import { cartSearchShape, readSearchInto } from './cart-query-schema.ts'
import { inquiryLimits, maxLength } from './inquiry.ts'

/**
 * A watch's request as `alert.watch` and `POST /api/alerts` take it, and its links' token
 * (PRODUCT.md, "watching a cart or a search"). Apart from domain/cart-alerts.ts, as
 * cart-query-schema.ts is from cart-query.ts: the embeds' first paint needs the words, not zod.
 */
const email = z.pipe(
  z.string('Email is required').check(z.trim(), z.minLength(1, 'Email is required'), maxLength('Email', inquiryLimits.email)),
  z.email('Enter a valid email address, like name@example.com'),
)

const cartId = z.int('cartId must be a whole number').check(z.minimum(1, 'cartId must be a cart id'))

/** The inventory's filter parameters (domain/cart-query.ts, the one reader), as text or typed. */
const { sort: _sort, ...filterShape } = cartSearchShape
const query = z.pipe(
  z.object(filterShape, 'query must be an object of the inventory\'s filter parameters, like { "make": "denago", "seats": 6 }'),
  z.transform((input, ctx): WatchedSearch => watchedSearch(readSearchInto(input, ctx))),
)

/** What a watch is about: a cart by its id, or a search. */
export const watchSubjectShape = { cartId: z.optional(cartId), query: z.optional(query) }

/** Exactly one of the two. */
export const oneSubject = z.refine<{ cartId?: number; query?: WatchedSearch }>(
  (input) => (input.cartId === undefined) !== (input.query === undefined),
  'Give either cartId (a cart to watch) or query (a search to watch), not both',
)

/** `{ email, cartId }` or `{ email, query }`: what `alert.watch` and `POST /api/alerts` take. */
export const watchInput = z.object({ email, ...watchSubjectShape }).check(oneSubject)
export type WatchInput = z.input<typeof watchInput>

/** A link's token as the pages and procedures take it. */
export const watchToken = z.string('token must be text').check(z.regex(/^[\w-]{20,100}$/, 'This link is incomplete: open it from the email again'))
