import { describe, expect, it } from 'vitest'
import { showroomKeys } from './business.ts'
import { batteries, type BatteryKind } from './cart-values.ts'
import { type CartSearch, priceCeilings, seatChoices } from './cart-query.ts'
import { type ListedCart, searchListedCarts } from './cart-search.ts'
import type { GolfCart } from './golf-cart.ts'

/**
 * The search over listed carts in memory, against the facets' definition written out literally:
 * a choice's count is the number of carts that every other filter leaves and that choice keeps.
 * Random inventories and random searches, a fixed seed so a failure can be replayed.
 */
function random(seed: number) {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

function inventory(next: () => number, size: number): ListedCart[] {
  const pick = <T,>(values: readonly T[]) => values[Math.floor(next() * values.length)]!
  return Array.from({ length: size }, (_, i) => {
    const makeKey = pick(['evolution', 'denago', 'club-car', null])
    return {
      cart: { id: i + 1, title: `Cart ${i + 1}` } as GolfCart,
      status: next() < 0.1 ? 'hold' : 'available',
      price: 6000 + Math.floor(next() * 20_000),
      listedAt: Math.floor(next() * 1_000_000),
      category: pick(['new', 'used']),
      makeKey,
      make: makeKey === null ? null : pick([makeKey, makeKey.toUpperCase()]),
      seats: pick([2, 4, 6, 8, null]),
      battery: pick<BatteryKind | null>([...batteries, null]),
      streetLegal: next() < 0.2,
      lifted: next() < 0.2,
      location: pick(showroomKeys),
      searchText: ` cart ${pick(['rover', 'nomad', 'maverick'])} ${pick(['xl', 'lsv', ''])} `,
    }
  })
}

function search(next: () => number): CartSearch {
  const maybe = <T,>(value: T) => (next() < 0.4 ? value : undefined)
  const pick = <T,>(values: readonly T[]) => values[Math.floor(next() * values.length)]!
  return {
    category: maybe(pick(['new', 'used', 'all'])),
    make: maybe([pick(['evolution', 'denago', 'club-car'])]),
    seats: maybe(pick(seatChoices)),
    battery: maybe(pick(batteries)),
    streetLegal: maybe(true),
    lifted: maybe(true),
    location: maybe(pick(showroomKeys)),
    minPrice: maybe(pick([8000, 12_000])),
    maxPrice: maybe(pick(priceCeilings)),
    q: maybe(pick(['rover', 'xl', 'nomad lsv'])),
    sort: maybe(pick(['price-asc', 'price-desc', 'newest'] as const)),
  }
}

/** Each filter as the literal rule, by name. */
const rules = (q: CartSearch): Record<string, (c: ListedCart) => boolean> => ({
  category: (c) => !q.category || q.category === 'all' || c.category === q.category,
  make: (c) => !q.make?.length || (c.makeKey !== null && q.make.includes(c.makeKey)),
  seats: (c) => q.seats === undefined || (c.seats !== null && c.seats >= q.seats),
  battery: (c) => !q.battery || c.battery === q.battery,
  streetLegal: (c) => !q.streetLegal || c.streetLegal,
  lifted: (c) => !q.lifted || c.lifted,
  location: (c) => !q.location || c.location === q.location,
  minPrice: (c) => q.minPrice === undefined || c.price >= q.minPrice,
  maxPrice: (c) => q.maxPrice === undefined || c.price <= q.maxPrice,
})

function literally(carts: ListedCart[], q: CartSearch) {
  const words = (q.q ?? '').split(' ').filter(Boolean)
  const worded = carts.filter((c) => words.every((w) => c.searchText.includes(` ${w}`)))
  const all = rules(q)
  const left = new Map<string, ListedCart[]>()
  const but = (name: string) => {
    if (!left.has(name)) left.set(name, worded.filter((c) => Object.entries(all).every(([rule, test]) => rule === name || test(c))))
    return left.get(name)!
  }
  const found = but('')
  // The sort written out: available before held, then the sort's own key, then the id.
  const key = (c: ListedCart) =>
    q.sort === 'price-asc' ? [c.price, c.cart.id] : q.sort === 'price-desc' ? [-c.price, c.cart.id] : q.sort === 'newest' ? [-c.listedAt, -c.cart.id] : [c.cart.id]
  const sorted = [...found].sort((a, b) => {
    const [x, y] = [[Number(a.status === 'hold'), ...key(a)], [Number(b.status === 'hold'), ...key(b)]]
    return x.map((v, i) => v - y[i]!).find((d) => d !== 0) ?? 0
  })
  const makeLabel = (key: string) => {
    const spellings = but('make').filter((c) => c.makeKey === key).map((c) => c.make!)
    const count = (s: string) => spellings.filter((t) => t === s).length
    return [...new Set(spellings)].sort((a, b) => count(b) - count(a) || (a < b ? -1 : 1))[0]
  }
  return {
    total: found.length,
    ids: sorted.map((c) => c.cart.id),
    makeLabels: Object.fromEntries([...new Set(but('make').flatMap((c) => (c.makeKey === null ? [] : [c.makeKey])))].map((key) => [key, makeLabel(key)])),
    seats: seatChoices.map((n) => but('seats').filter((c) => c.seats !== null && c.seats >= n).length),
    battery: batteries.map((b) => but('battery').filter((c) => c.battery === b).length),
    location: showroomKeys.map((key) => but('location').filter((c) => c.location === key).length),
    maxPrice: priceCeilings.map((p) => but('maxPrice').filter((c) => c.price <= p).length),
    streetLegal: but('streetLegal').filter((c) => c.streetLegal).length,
    lifted: but('lifted').filter((c) => c.lifted).length,
    makes: Object.fromEntries(
      [...new Set(but('make').flatMap((c) => (c.makeKey === null ? [] : [c.makeKey])))].map((key) => [key, but('make').filter((c) => c.makeKey === key).length]),
    ),
    categories: Object.fromEntries([...new Set(but('category').map((c) => c.category))].map((value) => [value, but('category').filter((c) => c.category === value).length])),
  }
}

describe('searching the listed carts in memory', () => {
  it('finds, sorts, pages and counts every choice of every filter as the carts every other filter leaves, over 300 random searches', () => {
    const next = random(31)
    const carts = inventory(next, 400)
    for (let round = 0; round < 300; round++) {
      const q = search(next)
      const offset = Math.floor(next() * 3) * 24
      const { total, facets, carts: page } = searchListedCarts(carts, { ...q, facets: true, limit: 24, offset })
      const expected = literally(carts, q)
      expect({ round, total }).toEqual({ round, total: expected.total })
      expect(page.map((c) => c.id)).toEqual(expected.ids.slice(offset, offset + 24))
      expect(Object.fromEntries(facets!.make.map((m) => [m.value, m.label]))).toEqual(expected.makeLabels)
      expect(facets!.seats.map((s) => s.count)).toEqual(expected.seats)
      expect(facets!.battery.map((b) => b.count)).toEqual(expected.battery)
      expect(facets!.location.map((l) => l.count)).toEqual(expected.location)
      expect(facets!.maxPrice.map((p) => p.count)).toEqual(expected.maxPrice)
      expect([facets!.streetLegal, facets!.lifted]).toEqual([expected.streetLegal, expected.lifted])
      expect(Object.fromEntries(facets!.make.map((m) => [m.value, m.count]))).toEqual(expected.makes)
      expect(Object.fromEntries(facets!.category.map((c) => [c.value, c.count]))).toEqual(expected.categories)
    }
    // About 0.8 s on a quiet machine; CI's two cores, busy with browser tests, have taken over 5 s.
  }, 30_000)

  it('sorts holds after available carts whatever the sort, and pages', () => {
    const carts = inventory(random(7), 100)
    const { carts: page, total } = searchListedCarts(carts, { sort: 'price-asc', limit: 200 })
    expect(total).toBe(100)
    const statuses = page.map((c) => carts.find((l) => l.cart.id === c.id)!.status)
    expect(statuses.indexOf('hold')).toBeGreaterThan(statuses.lastIndexOf('available'))
    const prices = page.filter((_, i) => statuses[i] === 'available').map((c) => carts.find((l) => l.cart.id === c.id)!.price)
    expect([...prices].sort((a, b) => a - b)).toEqual(prices)
    expect(searchListedCarts(carts, { sort: 'price-asc', limit: 10, offset: 10 }).carts).toEqual(page.slice(10, 20))
  })
})
