import { describe, expect, it } from 'vitest'
import { appointmentInput, freeSlots, isOfferedStart, slotsByDay, slotsInput, slotStartsOn, slotWhen } from './appointments.ts'
import * as z from 'zod/mini'

// New Jersey is UTC-5 in winter (EST) and UTC-4 in summer (EDT). Hours: Mon-Sat 9-17, Sunday closed.
const at = (iso: string) => Date.parse(iso)
const iso = (ms: number[]) => ms.map((m) => new Date(m).toISOString())
const rules = { minutes: 30, capacity: 2 }
const none = new Map<number, number>()

describe('appointment slots (controlled clock)', () => {
  it('cuts a Saturday into 30-minute slots from 9:00, the last ending at closing', () => {
    // Saturday, December 12, 2026 (EST).
    const slots = freeSlots({ from: '2026-12-12', days: 1, now: at('2026-12-07T12:00:00Z'), rules, booked: none })
    expect(slots).toHaveLength(16)
    expect(new Date(slots[0]!).toISOString()).toBe('2026-12-12T14:00:00.000Z') // 9:00
    expect(new Date(slots.at(-1)!).toISOString()).toBe('2026-12-12T21:30:00.000Z') // 16:30, ends 17:00
  })

  it('offers nothing on a Sunday', () => {
    expect(freeSlots({ from: '2026-12-13', days: 1, now: at('2026-12-07T12:00:00Z'), rules, booked: none })).toEqual([])
    expect(slotStartsOn('2026-12-13', 30)).toEqual([])
  })

  it('reads 9:00 on each day’s own clock across the daylight-saving change', () => {
    // Clocks go back on Sunday, November 1, 2026: Saturday 9:00 is EDT, Monday 9:00 is EST.
    const slots = iso(freeSlots({ from: '2026-10-31', days: 3, now: at('2026-10-20T12:00:00Z'), rules, booked: none }))
    expect(slots[0]).toBe('2026-10-31T13:00:00.000Z')
    expect(slots.filter((s) => s.startsWith('2026-11-01'))).toEqual([])
    expect(slots.find((s) => s.startsWith('2026-11-02'))).toBe('2026-11-02T14:00:00.000Z')
    expect(slots).toHaveLength(32)
    // Clocks go forward on Sunday, March 8, 2026: Saturday 9:00 is EST, Monday 9:00 EDT.
    const spring = iso(freeSlots({ from: '2026-03-07', days: 3, now: at('2026-03-01T12:00:00Z'), rules, booked: none }))
    expect(spring[0]).toBe('2026-03-07T14:00:00.000Z')
    expect(spring.find((s) => s.startsWith('2026-03-09'))).toBe('2026-03-09T13:00:00.000Z')
  })

  it('at closing time offers nothing more that day, and never a time less than an hour away', () => {
    // Tuesday, December 8, 2026, 17:00 EST: the rest of the day is closed; Wednesday from 9:00.
    const closing = freeSlots({ days: 2, now: at('2026-12-08T22:00:00Z'), rules, booked: none })
    expect(new Date(closing[0]!).toISOString()).toBe('2026-12-09T14:00:00.000Z')
    // 15:30 EST: 16:30 is the only slot left today; at 15:31 none is.
    expect(iso(freeSlots({ days: 1, now: at('2026-12-08T20:30:00Z'), rules, booked: none }))).toEqual(['2026-12-08T21:30:00.000Z'])
    expect(freeSlots({ days: 1, now: at('2026-12-08T20:31:00Z'), rules, booked: none })).toEqual([])
    // Past days are never offered.
    expect(freeSlots({ from: '2026-12-01', days: 3, now: at('2026-12-08T12:00:00Z'), rules, booked: none })).toEqual([])
  })

  it('leaves out a slot at capacity and keeps one with room', () => {
    const booked = new Map([
      [at('2026-12-12T14:00:00Z'), 2],
      [at('2026-12-12T14:30:00Z'), 1],
    ])
    const slots = iso(freeSlots({ from: '2026-12-12', days: 1, now: at('2026-12-07T12:00:00Z'), rules, booked }))
    expect(slots[0]).toBe('2026-12-12T14:30:00.000Z')
    expect(slots).toHaveLength(15)
  })

  it('offers nothing past 60 days ahead', () => {
    const now = at('2026-12-07T15:00:00Z') // Monday 10:00 EST
    const slots = freeSlots({ days: 60, now, rules, booked: none })
    expect(Math.max(...slots)).toBeLessThanOrEqual(now + 60 * 86_400_000)
    expect(freeSlots({ from: '2027-02-10', days: 5, now, rules, booked: none })).toEqual([])
    expect(isOfferedStart(at('2027-02-05T15:00:00Z'), now, rules)).toBe(true) // day 60, 10:00
    expect(isOfferedStart(at('2027-02-06T15:00:00Z'), now, rules)).toBe(false)
  })

  it('accepts as a booking only a start on the grid inside the hours', () => {
    const now = at('2026-12-07T12:00:00Z')
    expect(isOfferedStart(at('2026-12-12T14:30:00Z'), now, rules)).toBe(true)
    expect(isOfferedStart(at('2026-12-12T14:10:00Z'), now, rules)).toBe(false) // off the grid
    expect(isOfferedStart(at('2026-12-12T22:00:00Z'), now, rules)).toBe(false) // 17:00, closing
    expect(isOfferedStart(at('2026-12-13T15:00:00Z'), now, rules)).toBe(false) // Sunday
    expect(isOfferedStart(at('2026-12-07T12:30:00Z'), now, rules)).toBe(false) // within the hour
  })

  it('groups slots by New Jersey day and says them in New Jersey time', () => {
    const days = slotsByDay(['2026-12-12T14:00:00.000Z', '2026-12-12T21:30:00.000Z', '2026-12-14T14:00:00.000Z'])
    expect(days.map((d) => [d.day, d.starts.length])).toEqual([
      ['2026-12-12', 2],
      ['2026-12-14', 1],
    ])
    expect(slotWhen('2026-12-12T21:30:00.000Z')).toBe('Saturday, December 12 at 4:30 PM')
  })
})

describe('the booking’s schema', () => {
  const booking = { showroom: 'bayville', kind: 'test-drive', startsAt: '2026-12-12T14:00:00.000Z', firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' }

  it('takes a showroom key, a kind and a start', () => {
    expect(z.safeParse(appointmentInput, booking).success).toBe(true)
    const bad = z.safeParse(appointmentInput, { ...booking, showroom: 'new-jersey', kind: 'rental', startsAt: 'soon' })
    expect(bad.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['kind', 'showroom', 'startsAt'])
  })

  it('asks for the phone when texts are wanted, and refuses a day that is not one', () => {
    const noPhone = z.safeParse(appointmentInput, { ...booking, textConsent: true })
    expect(noPhone.error?.issues[0]?.path).toEqual(['phone'])
    expect(z.safeParse(slotsInput, { showroom: 'bayville', kind: 'service', from: '2026-02-30' }).success).toBe(false)
    expect(z.safeParse(slotsInput, { showroom: 'bayville', kind: 'service', from: '2026-02-28', days: 61 }).success).toBe(false)
  })

  it('takes a service request with a drop-off only, judged by the service form\'s own rules (decision 0046)', () => {
    const drop = { showroom: 'bayville', kind: 'service', startsAt: '2026-12-08T15:00:00.000Z', firstName: 'Sam', lastName: 'Service', email: 'sam@example.com' }
    const request = { make: 'Club Car', needs: ['battery'] }
    expect(z.safeParse(appointmentInput, { ...drop, service: request }).data?.service).toEqual({ make: 'Club Car', needs: ['battery'], preferredDays: [] })
    expect(z.safeParse(appointmentInput, { ...drop, kind: 'test-drive', service: request }).error?.issues.map((i) => i.path)).toEqual([['service']])
    expect(z.safeParse(appointmentInput, { ...drop, service: { make: '', needs: [] } }).error?.issues.map((i) => i.path.join('.'))).toEqual(['service.make', 'service.needs'])
    expect(z.safeParse(appointmentInput, { ...drop, service: { make: 'Yamaha', needs: ['other'] } }).error?.issues.map((i) => i.path)).toEqual([['message']])
  })
})
