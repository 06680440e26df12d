import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { cartSearchShape, readSearchInto } from './cart-query-schema.ts'
import {
  cartSearchParams,
  narrowsBeyondCategory,
  readCartSearch,
  searchWords,
  toggleMake,
  withSearch,
} from './cart-query.ts'

describe('reading a search', () => {
  it.each([
    [{}, {}],
    [{ category: 'new' }, { category: 'new' }],
    [{ category: 'all' }, {}],
    [{ category: '' }, {}],
    [{ category: 'spaceships' }, { category: 'spaceships' }],
    [{ make: 'denago' }, { make: ['denago'] }],
    [{ make: 'Evolution,denago' }, { make: ['denago', 'evolution'] }],
    [{ make: ['Club Car', 'denago,denago'] }, { make: ['club-car', 'denago'] }],
    [{ make: ' , ' }, {}],
    [{ seats: '6' }, { seats: 6 }],
    [{ seats: 4 }, { seats: 4 }],
    [{ seats: '' }, {}],
    [{ battery: 'lithium' }, { battery: 'lithium' }],
    [{ battery: 'lead-acid' }, { battery: 'lead-acid' }],
    [{ streetLegal: 'true' }, { streetLegal: true }],
    [{ streetLegal: true, lifted: 'true' }, { streetLegal: true, lifted: true }],
    [{ location: 'pleasantville' }, { location: 'pleasantville' }],
    [{ location: ' bayville ' }, { location: 'bayville' }],
    [{ location: '' }, {}],
    [{ minPrice: '8000', maxPrice: '15000' }, { minPrice: 8000, maxPrice: 15000 }],
    [{ maxPrice: 15000 }, { maxPrice: 15000 }],
    [{ q: '  rover   xl ' }, { q: 'rover xl' }],
    [{ q: '   ' }, {}],
    [{ sort: 'price-asc' }, { sort: 'price-asc' }],
    [{ sort: 'price-desc' }, { sort: 'price-desc' }],
    [{ sort: 'newest' }, { sort: 'newest' }],
    [{ sort: '' }, {}],
  ])('reads %j as %j, with no issue', (raw, search) => {
    expect(readCartSearch(raw)).toEqual({ search, issues: [] })
  })

  it.each([
    [{ seats: 'six' }, 'seats'],
    [{ seats: '0' }, 'seats'],
    [{ seats: '13' }, 'seats'],
    [{ seats: '4.5' }, 'seats'],
    [{ seats: ['4', '6'] }, 'seats'],
    [{ battery: 'diesel' }, 'battery'],
    [{ streetLegal: 'yes' }, 'streetLegal'],
    [{ streetLegal: 'false' }, 'streetLegal'],
    [{ lifted: '1' }, 'lifted'],
    [{ minPrice: '-1' }, 'minPrice'],
    [{ minPrice: '12,000' }, 'minPrice'],
    [{ maxPrice: '99999999' }, 'maxPrice'],
    [{ minPrice: '20000', maxPrice: '10000' }, 'maxPrice'],
    [{ q: 'x'.repeat(101) }, 'q'],
    [{ q: 'a\0b' }, 'q'],
    [{ sort: 'cheapest' }, 'sort'],
    [{ location: 'atlantic-city' }, 'location'],
    [{ location: 'Ocean View' }, 'location'],
    [{ location: ['bayville', 'waretown'] }, 'location'],
    [{ category: ['new', 'used'] }, 'category'],
    [{ make: 'a'.repeat(61) }, 'make'],
    [{ make: 'a,b,c,d,e,f,g,h,i,j,k' }, 'make'],
  ])('refuses %j, naming %s, and keeps the rest of the search', (raw, path) => {
    const { search, issues } = readCartSearch({ ...raw, battery: (raw as { battery?: string }).battery ?? 'lithium' })
    expect(issues.map((i) => i.path)).toEqual([path])
    expect(issues[0]?.message).toMatch(new RegExp(`^(each )?${path}`))
    if (path !== 'battery') expect(search.battery).toBe('lithium')
    if (path !== 'minPrice' || !('maxPrice' in raw)) expect(search).not.toHaveProperty(path)
  })
})

describe('a search as an address', () => {
  it('puts the fields in one fixed order, so one search has one URL', () => {
    const a = cartSearchParams({ sort: 'price-asc', maxPrice: 15000, battery: 'lithium', seats: 6 }).toString()
    const b = cartSearchParams({ seats: 6, battery: 'lithium', maxPrice: 15000, sort: 'price-asc' }).toString()
    expect(a).toBe('seats=6&battery=lithium&maxPrice=15000&sort=price-asc')
    expect(b).toBe(a)
  })

  it('reads back what it wrote', () => {
    const search = { category: 'new', make: ['denago', 'evolution'], seats: 6, streetLegal: true as const, q: 'rover xl', sort: 'newest' as const }
    expect(readCartSearch(Object.fromEntries(cartSearchParams(search)))).toEqual({ search, issues: [] })
  })

  it('adds and removes one make of several', () => {
    const one = toggleMake({ seats: 6 }, 'evolution')
    expect(one).toEqual({ seats: 6, make: ['evolution'] })
    expect(toggleMake(one, 'denago')).toEqual({ seats: 6, make: ['denago', 'evolution'] })
    expect(toggleMake(one, 'evolution')).toEqual({ seats: 6 })
  })

  it('changes or removes a field', () => {
    expect(withSearch({ seats: 6, sort: 'newest' }, { seats: undefined, battery: 'lithium' })).toEqual({ sort: 'newest', battery: 'lithium' })
  })

  it('knows when a search narrows more than SPEC\'s category', () => {
    expect(narrowsBeyondCategory({ category: 'new', sort: 'price-asc' })).toBe(false)
    expect(narrowsBeyondCategory({ q: 'rover' })).toBe(true)
    expect(narrowsBeyondCategory({ lifted: true })).toBe(true)
  })
})

describe('the words of a text search', () => {
  it.each([
    ['Rover XL6', ['rover', 'xl6']],
    ['GC-0012', ['gc', '0012']],
    ["D5 Maverick 2+2 & 'quotes' | !", ['d5', 'maverick', '2', '2', 'quotes']],
    ['', []],
    ['a b c d e f g h i j', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']],
  ])('%j looks for %j', (q, words) => {
    expect(searchWords(q)).toEqual(words)
  })
})

describe('the API schema around the reader', () => {
  const schema = z.pipe(z.object(cartSearchShape), z.transform((input, ctx) => readSearchInto(input, ctx)))

  it('gives the reader\'s search', () => {
    expect(z.parse(schema, { make: 'denago', seats: '6', streetLegal: true })).toEqual({ make: ['denago'], seats: 6, streetLegal: true })
  })

  it('turns each refusal into an issue with its path', () => {
    const result = z.safeParse(schema, { seats: 'six', sort: 'cheapest' })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [['seats'], 'seats must be a whole number of seats from 1 to 12'],
      [['sort'], 'sort must be price-asc, price-desc, newest (or left out)'],
    ])
  })

  it('refuses a value of the wrong type before the reader', () => {
    const result = z.safeParse(schema, { seats: { six: true } })
    expect(result.error?.issues.map((i) => i.path)).toEqual([['seats']])
  })
})
