import { describe, expect, it } from 'vitest'
import { duration, inboxFilterFromSearch, inboxHref, listInput, telHref } from './inbox-filter.ts'

describe("the inbox's address", () => {
  it('reads every filter, and drops values it does not know instead of failing', () => {
    expect(inboxFilterFromSearch('q=+smith+&status=quoted&owner=7&interest=rentals&source=rentals-landing&from=2026-11-01&to=2026-11-30&page=3')).toEqual({
      q: 'smith',
      status: 'quoted',
      owner: 7,
      interest: 'rentals',
      source: 'rentals-landing',
      from: '2026-11-01',
      to: '2026-11-30',
      page: 3,
    })
    expect(inboxFilterFromSearch('status=maybe&owner=-1&interest=boats&from=yesterday&page=0')).toEqual({
      status: undefined,
      owner: undefined,
      interest: undefined,
      source: undefined,
      from: undefined,
      to: undefined,
      q: undefined,
      page: 1,
    })
    expect(inboxFilterFromSearch('owner=me&interest=none').owner).toBe('me')
  })

  it('writes the same filters back as a short address, and asks the API for their page', () => {
    const filter = inboxFilterFromSearch('owner=none&q=0123&page=2')
    expect(inboxHref(filter)).toBe('/staff/leads?q=0123&owner=none&page=2')
    expect(inboxHref({ ...filter, page: 1, q: undefined })).toBe('/staff/leads?owner=none')
    expect(listInput(filter)).toMatchObject({ q: '0123', owner: 'none', limit: 50, offset: 50 })
  })
})

describe('what a lead shows', () => {
  it('dials American numbers with +1 and an extension after a pause', () => {
    expect(telHref('(609) 555-0123')).toBe('tel:+16095550123')
    expect(telHref('+44 20 7946 0958')).toBe('tel:+442079460958')
    expect(telHref('609.555.0123 ext. 12')).toBe('tel:+16095550123,12')
  })

  it('says how long the first response took in words', () => {
    expect(duration(20_000)).toBe('less than a minute')
    expect(duration(12 * 60_000)).toBe('12 minutes')
    expect(duration(61 * 60_000)).toBe('1 hour 1 minute')
    expect(duration(50 * 3_600_000)).toBe('2 days 2 hours')
  })
})
