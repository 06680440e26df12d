import { describe, expect, it } from 'vitest'
import { formatDollars } from './dollars.ts'

/** What the code wrote before (Intl.NumberFormat, en-US): the written-out formatter must agree. */
const usd = (digits: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: 2 })
const [whole, withCents] = [usd(0), usd(2)]
const intlWhenAny = (n: number) => (Number.isInteger(n) ? whole : withCents).format(n)
const intlAlways = (n: number) => withCents.format(n)

describe('formatDollars', () => {
  it('writes whole dollars with thousands separators, and cents only when there are some', () => {
    expect(formatDollars(12_995)).toBe('$12,995')
    expect(formatDollars(0)).toBe('$0')
    expect(formatDollars(999)).toBe('$999')
    expect(formatDollars(1_000)).toBe('$1,000')
    expect(formatDollars(1_234_567.5)).toBe('$1,234,567.50')
    expect(formatDollars(0.05)).toBe('$0.05')
    expect(formatDollars(193.33, 'always')).toBe('$193.33')
    expect(formatDollars(1_234, 'always')).toBe('$1,234.00')
    expect(formatDollars(-5, 'always')).toBe('-$5.00')
  })

  it('agrees with Intl.NumberFormat for prices, fees and payments', () => {
    const amounts = [0, 0.004, 0.005, 0.01, 0.1, 0.99, 0.995, 1, 1.005, 9.999, 10.5, 99.99, 100, 361.27, 999.995, 1_000, 12_995, 15_000.01, 99_999.99, 100_000, 1_000_000, -0.5, -12.34]
    // A spread of cents across the range prices take, reproducible.
    let seed = 7
    for (let i = 0; i < 2_000; i++) {
      seed = (seed * 48_271) % 2_147_483_647
      amounts.push(Math.round((seed / 2_147_483_647) * 200_000_00) / 100, seed % 200_000)
    }
    for (const n of amounts) {
      expect(formatDollars(n), String(n)).toBe(intlWhenAny(n))
      expect(formatDollars(n, 'always'), String(n)).toBe(intlAlways(n))
    }
  })
})
