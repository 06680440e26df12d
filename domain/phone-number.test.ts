import { describe, expect, it } from 'vitest'
import { phoneKey, readablePhone, textAddress } from './phone-number.ts'

describe('phone numbers as one person’s key and as a text’s address', () => {
  it.each([
    ['(609) 555-0123', '6095550123', '+16095550123'],
    ['609.555.0123', '6095550123', '+16095550123'],
    ['+1 609 555 0123', '6095550123', '+16095550123'],
    ['1-609-555-0123', '6095550123', '+16095550123'],
    ['609-555-0123 ext. 12', '6095550123', '+16095550123'],
    ['609-555-0123 x12', '6095550123', '+16095550123'],
    ['555-0123', '5550123', null],
    ['+44 20 7946 0958', '2079460958', '+442079460958'],
    ['12345', null, null],
    ['', null, null],
  ])('%j is the key %j and is texted at %j', (typed, key, address) => {
    expect(phoneKey(typed)).toBe(key)
    expect(textAddress(typed)).toBe(address)
  })

  it('reads a North American number as people write it', () => {
    expect(readablePhone('+16095550123')).toBe('(609) 555-0123')
    expect(readablePhone('+442079460958')).toBe('+442079460958')
  })
})
