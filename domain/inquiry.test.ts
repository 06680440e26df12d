import { describe, expect, it } from 'vitest'
import { inquiryInput, spamReason, visitorFieldNames } from './inquiry.ts'

const valid = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' }
const issues = (input: unknown) =>
  inquiryInput.safeParse(input).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? []

describe('inquiry rules', () => {
  it('accepts the three required fields alone', () => {
    expect(inquiryInput.safeParse(valid).success).toBe(true)
  })

  it('trims what it keeps', () => {
    const parsed = inquiryInput.parse({ ...valid, firstName: '  Ann ', email: ' ann@example.com ' })
    expect([parsed.firstName, parsed.email]).toEqual(['Ann', 'ann@example.com'])
  })

  it('refuses a blank first name', () => {
    expect(issues({ ...valid, firstName: '   ' })).toEqual([['firstName', 'First name is required']])
  })

  it('refuses missing names and email with one message each', () => {
    expect(issues({})).toEqual([
      ['firstName', 'First name is required'],
      ['lastName', 'Last name is required'],
      ['email', 'Email is required'],
    ])
  })

  it.each(['ann', 'ann@', '@example.com', 'ann@example', 'ann example@x.com'])(
    'refuses the email %j',
    (email) => {
      expect(issues({ ...valid, email })).toEqual([
        ['email', 'Enter a valid email address, like name@example.com'],
      ])
    },
  )

  it('bounds field lengths', () => {
    expect(issues({ ...valid, firstName: 'a'.repeat(101), message: 'm'.repeat(5001) })).toEqual([
      ['firstName', 'First name must be at most 100 characters'],
      ['message', 'Message must be at most 5000 characters'],
    ])
  })

  it.each(['denago', 'evolution', 'swift-ev', 'rentals', 'service', ''])(
    'accepts the interest %j',
    (interest) => {
      expect(inquiryInput.safeParse({ ...valid, interest }).success).toBe(true)
    },
  )

  it('refuses an interest outside the five options', () => {
    expect(issues({ ...valid, interest: 'boats' })[0]?.[0]).toBe('interest')
  })

  it.each(['(609) 555-0123', '+1 609.555.0123', '6095550123 ext. 12', ''])('accepts the phone %j', (phone) => {
    expect(inquiryInput.safeParse({ ...valid, phone }).success).toBe(true)
  })

  it.each(['call me', '555-12', '<script>'])('refuses the phone %j', (phone) => {
    expect(issues({ ...valid, phone })[0]?.[0]).toBe('phone')
  })

  it('only stores http(s) page addresses as the source', () => {
    expect(inquiryInput.safeParse({ ...valid, sourceUrl: 'https://partner.example/rentals?x=1' }).success).toBe(true)
    expect(issues({ ...valid, sourceUrl: 'javascript:alert(1)' })[0]?.[0]).toBe('sourceUrl')
  })

  it('refuses the NUL character, which no text column can hold', () => {
    expect(issues({ ...valid, lastName: 'Lee\u0000' })).toEqual([['lastName', 'Last name must be one line of text, without line breaks or control characters']])
  })

  it('refuses values of the wrong type', () => {
    expect(issues({ ...valid, firstName: 42, message: ['hi'] }).map(([p]) => p)).toEqual([
      'firstName',
      'message',
    ])
  })
})

describe('the visitor\'s fields', () => {
  it('are the schema\'s first keys, in the form\'s order', () => {
    expect(visitorFieldNames).toEqual(['firstName', 'lastName', 'email', 'phone', 'interest', 'message', 'textConsent'])
    expect(Object.keys(inquiryInput.shape).slice(0, visitorFieldNames.length)).toEqual(visitorFieldNames)
  })
})

describe('spam signals', () => {
  it.each([
    [{}, undefined],
    [{ elapsedMs: 2500 }, undefined],
    [{ elapsedMs: 60_000, website: '' }, undefined],
    [{ website: '   ' }, undefined],
    [{ website: 'http://spam.example' }, 'honeypot'],
    // Speed alone never makes spam: autofill sends a form a second after the page opened.
    [{ elapsedMs: 900 }, undefined],
    [{ elapsedMs: 0 }, undefined],
    [{ elapsedMs: 0, website: 'x' }, 'honeypot'],
  ] as const)('%j is %s', (input, reason) => {
    expect(spamReason(input)).toBe(reason)
  })
})
