import { describe, expect, it, vi } from 'vitest'
import { cachedCartStore } from './cart-cache.ts'
import { seedCarts } from '../../tests/support/fake-services.ts'

function fakeStore() {
  const store = {
    list: vi.fn(() => Promise.resolve({ carts: [], total: 0 })),
    featured: vi.fn(() => Promise.resolve([])),
    bySlug: vi.fn(() => Promise.resolve(undefined)),
    listingCarts: vi.fn(() => Promise.resolve([])),
    similar: vi.fn(() => Promise.resolve([])),
    add: vi.fn(() => Promise.resolve(seedCarts(1)[0]!)),
  }
  return store
}

describe('cart read cache', () => {
  it('answers the same read from memory within its lifetime', async () => {
    const store = fakeStore()
    const cache = cachedCartStore(store, 1000)
    await cache.list({ category: 'new', limit: 24 })
    await cache.list({ category: 'new', limit: 24 })
    await cache.list({ category: 'new', limit: 24, offset: 24 })
    expect(store.list).toHaveBeenCalledTimes(2)
  })

  it('asks again once the lifetime is over', async () => {
    vi.useFakeTimers()
    try {
      const store = fakeStore()
      const cache = cachedCartStore(store, 1000)
      await cache.featured(3)
      vi.advanceTimersByTime(1001)
      await cache.featured(3)
      expect(store.featured).toHaveBeenCalledTimes(2)
    } finally {
      vi.useRealTimers()
    }
  })

  it('forgets everything when a cart is written, and tells listeners', async () => {
    const store = fakeStore()
    const cache = cachedCartStore(store, 60_000)
    const changed = vi.fn()
    cache.onChange(changed)
    await cache.bySlug('x')
    await cache.add({ title: 'T', description: 'D', price: 1, imageUrl: '/x.svg' })
    await cache.bySlug('x')
    expect(store.bySlug).toHaveBeenCalledTimes(2)
    expect(changed).toHaveBeenCalledTimes(1)
  })

  it('does not remember a failed read', async () => {
    const store = fakeStore()
    store.list.mockRejectedValueOnce(new Error('database down'))
    const cache = cachedCartStore(store, 60_000)
    await expect(cache.list({})).rejects.toThrow('database down')
    await expect(cache.list({})).resolves.toEqual({ carts: [], total: 0 })
  })
})
