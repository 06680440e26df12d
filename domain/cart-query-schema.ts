import * as z from 'zod/mini'
import { type CartSearch, cartSearchFields, readCartSearch } from './cart-query.ts'

/**
 * The search as the API's input (tRPC's `cart.list`, and through it `GET /api/golf-carts`): each
 * field as text or as its typed value, read by the one reader in domain/cart-query.ts, whose
 * refusals become this schema's issues and so the API's `{ message, issues }`.
 */
const text = (field: string) => z.optional(z.string(`${field} must be text`))
const textOr = <T extends z.core.SomeType>(field: string, typed: T, what: string) =>
  z.optional(z.union([z.string(), typed], `${field} must be ${what}`))

export const cartSearchShape = {
  category: text('category'),
  make: textOr('make', z.array(z.string()), 'text, several separated by commas'),
  seats: textOr('seats', z.number(), 'a whole number'),
  battery: text('battery'),
  streetLegal: textOr('streetLegal', z.boolean(), 'true'),
  lifted: textOr('lifted', z.boolean(), 'true'),
  location: text('location'),
  minPrice: textOr('minPrice', z.number(), 'a whole number of dollars'),
  maxPrice: textOr('maxPrice', z.number(), 'a whole number of dollars'),
  q: text('q'),
  sort: text('sort'),
}

/** Reads the search fields of an already-checked object and turns each refusal into an issue. */
export function readSearchInto<T extends Record<string, unknown>>(
  input: T,
  ctx: z.core.ParsePayload,
): Omit<T, keyof CartSearch> & CartSearch {
  const { search, issues } = readCartSearch(input)
  for (const issue of issues) ctx.issues.push({ code: 'custom', message: issue.message, path: [issue.path], input: input[issue.path] })
  const rest = Object.fromEntries(Object.entries(input).filter(([key]) => !(cartSearchFields as readonly string[]).includes(key)))
  return { ...rest, ...search } as Omit<T, keyof CartSearch> & CartSearch
}
