import { describe, expect, it } from 'vitest'
import { afterBusinessMinutes } from './business-hours.ts'

// New Jersey is UTC-5 in winter (EST) and UTC-4 in summer (EDT).
const at = (iso: string) => new Date(iso)

describe('business minutes (Mon-Sat 9-5, Sunday closed, New Jersey time)', () => {
  it('counts minutes inside the day as they are', () => {
    expect(afterBusinessMinutes(at('2026-11-24T15:00:00Z'), 15).toISOString()).toBe('2026-11-24T15:15:00.000Z') // Tue 10:00 EST
  })

  it('stops the count at closing and goes on at the next opening', () => {
    // Tue 16:50 EST: 10 minutes on Tuesday, 5 on Wednesday from 9:00.
    expect(afterBusinessMinutes(at('2026-11-24T21:50:00Z'), 15).toISOString()).toBe('2026-11-25T14:05:00.000Z')
    // Before opening: from 9:00.
    expect(afterBusinessMinutes(at('2026-11-25T11:00:00Z'), 15).toISOString()).toBe('2026-11-25T14:15:00.000Z')
  })

  it('waits through the weekend: Saturday is open, Sunday is not', () => {
    // Friday 18:30 EST: due Saturday 9:15.
    expect(afterBusinessMinutes(at('2026-11-20T23:30:00Z'), 15).toISOString()).toBe('2026-11-21T14:15:00.000Z')
    // Saturday 16:50 EST: 10 minutes on Saturday, none on Sunday, 5 on Monday.
    expect(afterBusinessMinutes(at('2026-11-21T21:50:00Z'), 15).toISOString()).toBe('2026-11-23T14:05:00.000Z')
    // Sunday noon: Monday 9:15.
    expect(afterBusinessMinutes(at('2026-11-22T17:00:00Z'), 15).toISOString()).toBe('2026-11-23T14:15:00.000Z')
  })

  it('reads opening time on the clocks of the day, across daylight saving', () => {
    // Saturday Oct 31, 2026, 16:55 EDT; clocks go back Sunday Nov 1; Monday 9:00 is EST (14:00Z).
    expect(afterBusinessMinutes(at('2026-10-31T20:55:00Z'), 15).toISOString()).toBe('2026-11-02T14:10:00.000Z')
    // Saturday Mar 7, 2026, 17:00 EST; clocks go forward Sunday Mar 8; Monday 9:00 is EDT (13:00Z).
    expect(afterBusinessMinutes(at('2026-03-07T22:00:00Z'), 15).toISOString()).toBe('2026-03-09T13:15:00.000Z')
  })

  it('spans several days for a long wait, and counts every minute when the hours open no day', () => {
    // 8 hours a day: 16 hours from Monday 9:00 is Tuesday 17:00.
    expect(afterBusinessMinutes(at('2026-11-23T14:00:00Z'), 16 * 60).toISOString()).toBe('2026-11-24T22:00:00.000Z')
    const closed = [{ days: 'Every day', dayOfWeek: ['Sunday'] }]
    expect(afterBusinessMinutes(at('2026-11-23T14:00:00Z'), 15, closed).toISOString()).toBe('2026-11-23T14:15:00.000Z')
  })
})
