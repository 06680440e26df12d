import { cartSearchParams } from '../../domain/cart-query.ts'
import type { CartQuery, CartStore } from './cart-store.ts'

/**
 * Cart reads are most of the traffic and change rarely, so each answer is kept for a short,
 * stated time (one second by default). A write through this process clears it at once; a
 * write by another process (several servers on one PostgreSQL) shows within that second
 * (docs/decisions/0006-caches-and-hot-path.md).
 */
export function cachedCartStore(store: Pick<CartStore, 'list' | 'featured' | 'bySlug' | 'listingCarts' | 'similar' | 'add'>, ttlMs = 1000) {
  const entries = new Map<string, { expires: number; value: Promise<unknown> }>()
  const listeners = new Set<() => void>()
  const maxEntries = 2000

  function remember<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (ttlMs <= 0) return load()
    const now = Date.now()
    const hit = entries.get(key)
    if (hit && hit.expires > now) return hit.value as Promise<T>
    if (entries.size >= maxEntries) entries.clear()
    const value = load()
    entries.set(key, { expires: now + ttlMs, value })
    // A failed read is not remembered: the next visitor asks the database again.
    value.catch(() => entries.get(key)?.value === value && entries.delete(key))
    return value
  }

  function invalidate() {
    entries.clear()
    for (const listener of listeners) listener()
  }

  return {
    list: (query: Parameters<CartStore['list']>[0]) =>
      remember(`list:${listKey(query)}`, () => store.list(query)),
    featured: (limit?: number) => remember(`featured:${limit ?? ''}`, () => store.featured(limit)),
    bySlug: (slug: string) => remember(`slug:${slug}`, () => store.bySlug(slug)),
    listingCarts: () => remember('listing-carts', () => store.listingCarts()),
    similar: (cart: { id: number; price: number }, limit?: number) =>
      remember(`similar:${cart.id}:${cart.price}:${limit ?? ''}`, () => store.similar(cart, limit)),
    async add(cart: Parameters<CartStore['add']>[0]) {
      const added = await store.add(cart)
      invalidate()
      return added
    },
    invalidate,
    /** Tells other caches built on these answers (the HTTP hot cache) to forget them too. */
    onChange(listener: () => void) {
      listeners.add(listener)
    },
  }
}

/** One key per distinct list: the search's fields in their fixed order, then the page. */
function listKey(query: CartQuery): string {
  const { limit, offset, facets, ...search } = query
  return `${cartSearchParams(search)}|${limit ?? ''}|${offset ?? 0}|${facets ? 'facets' : ''}`
}

export type CachedCartStore = ReturnType<typeof cachedCartStore>
