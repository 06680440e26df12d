import { describe, expect, it } from 'vitest'
import { financingHeadline, formatMoney, formatMonthly, longestTerm, monthlyFrom, monthlyFromTerms, monthlyPayment, parseAmount, termChoices } from './payment.ts'

describe('payment at 0% APR', () => {
  it.each([
    [{ price: '12000', downPayment: '0', term: '24' }, '$500.00'],
    [{ price: '12000', downPayment: '2000', term: '48' }, '$208.33'],
    [{ price: 10000, downPayment: 1000, term: 60 }, '$150.00'],
    [{ price: '12995', downPayment: '1000' }, '$333.19'],
  ])('%j pays %s a month', (input, expected) => {
    expect(formatMoney(monthlyPayment(input).monthly)).toBe(expected)
  })

  it('falls back to 36 months when no term or an unknown term is chosen', () => {
    expect(monthlyPayment({ price: '3600', downPayment: '' }).term).toBe(36)
    expect(monthlyPayment({ price: '3600', downPayment: '', term: '' }).term).toBe(36)
    expect(monthlyPayment({ price: '3600', downPayment: '', term: '72' }).term).toBe(36)
    expect(monthlyPayment({ price: '3600', downPayment: '', term: '12' }).monthly).toBe(100)
  })

  it('counts empty and non-numeric amounts as 0', () => {
    expect(monthlyPayment({ price: 'abc', downPayment: 'xyz', term: '36' }).monthly).toBe(0)
    expect(monthlyPayment({ price: '7200', downPayment: 'lots', term: '36' }).monthly).toBe(200)
  })
})

describe('amounts as people type them', () => {
  it.each([
    ['12,995', 12995],
    ['$12,995.50', 12995.5],
    [' 500 ', 500],
    ['', 0],
    ['-400', 0],
    ['1e400', 0],
    ['12abc', 0],
  ])('%j reads as %d', (text, amount) => {
    expect(parseAmount(text)).toBe(amount)
  })
})

describe('payment with an APR', () => {
  it('is the standard amortised payment', () => {
    // 10,000 at 6% for 60 months: the textbook figure is $193.33.
    const result = monthlyPayment({ price: 10000, downPayment: 0, term: 60, apr: '6' })
    expect(formatMoney(result.monthly)).toBe('$193.33')
    expect(result.apr).toBe(6)
  })

  it('costs more than the interest-free payment', () => {
    const free = monthlyPayment({ price: 15000, downPayment: 3000, term: 48 })
    const paid = monthlyPayment({ price: 15000, downPayment: 3000, term: 48, apr: 4.9 })
    expect(free.monthly).toBe(250)
    expect(formatMoney(paid.monthly)).toBe('$275.81')
  })
})

describe('no price', () => {
  it.each(['', 'abc', '0'])('%j gives $0.00 and asks for a price', (price) => {
    expect(monthlyPayment({ price, downPayment: '', term: '36' })).toMatchObject({ monthly: 0, financed: 0, note: 'no-price' })
  })
})

describe('a down payment above the price', () => {
  it('gives $0.00 and says why', () => {
    const result = monthlyPayment({ price: '9000', downPayment: '10000', term: '36', apr: '5' })
    expect(result).toMatchObject({ monthly: 0, financed: 0, note: 'down-payment-covers-price' })
    expect(formatMoney(result.monthly)).toBe('$0.00')
  })

  it('equal to the price gives $0.00 without a note', () => {
    expect(monthlyPayment({ price: '9000', downPayment: '9000' })).toMatchObject({ monthly: 0 })
    expect(monthlyPayment({ price: '9000', downPayment: '9000' }).note).toBeUndefined()
  })
})

describe('the financing offer', () => {
  it('words the offer as one phrase and its terms as one list', () => {
    expect(financingHeadline).toBe('0% APR on select models with approved credit')
    expect(termChoices).toBe('24, 36, 48 or 60 months')
  })

  it('reaches as far as the longest term the calculator offers', () => {
    expect(longestTerm).toBe(60)
    expect(monthlyPayment({ price: '6000', downPayment: '0', term: String(longestTerm) }).term).toBe(60)
  })
})


describe("a card's monthly price", () => {
  it('is the calculator\'s payment with its starting terms: nothing down, 36 months, the offer\'s rate', () => {
    expect(monthlyFrom(12_995)).toBe(monthlyPayment({ price: '12995', downPayment: '', term: '', apr: '0' }).monthly)
    expect(monthlyFromTerms).toBe('no money down, 36 months at 0% APR, with approved credit')
  })

  it('rounds up to the dollar, so the advertised payment is never below the real one', () => {
    expect(formatMonthly(monthlyFrom(12_995))).toBe('$361/mo')
    expect(formatMonthly(monthlyFrom(3600))).toBe('$100/mo')
    expect(formatMonthly(monthlyFrom(36_036))).toBe('$1,001/mo')
  })
})
