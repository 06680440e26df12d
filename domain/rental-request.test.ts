import { describe, expect, it } from 'vitest'
import { addDays, isDay, newJerseyToday } from './calendar-days.ts'
import { leadInput } from './lead-input.ts'
import { calendarDayProblem, rentalEndDate, rentalQuoteInput, rentalRequestFacts, startDateProblem } from './rental-request.ts'

const contact = { firstName: 'Rosa', lastName: 'Delgado', email: 'rosa@example.com' }
const issuesOf = (input: object) => {
  const result = leadInput.safeParse({ ...contact, ...input })
  return result.success ? [] : result.error.issues.map((i) => i.path.join('.'))
}

describe('a rental request', () => {
  it('ends its plan\'s days after the start, across months and leap days', () => {
    expect(rentalEndDate('2026-07-04', 'daily')).toBe('2026-07-05')
    expect(rentalEndDate('2026-07-30', '3-day')).toBe('2026-08-02')
    expect(rentalEndDate('2028-02-25', 'weekly')).toBe('2028-03-03')
    expect(rentalEndDate('2026-11-01', 'monthly')).toBe('2026-12-01')
  })

  it('accepts today in New Jersey as a start, and refuses yesterday and days that do not exist', () => {
    const today = newJerseyToday()
    const rental = (startDate: string) => ({ rental: { cartType: '4-seater', plan: 'daily', startDate, pickup: 'showroom', showroom: 'waretown' } })
    expect(issuesOf(rental(today))).toEqual([])
    expect(issuesOf(rental(addDays(today, -1)))).toEqual(['rental.startDate'])
    expect(issuesOf(rental('2027-02-30'))).toEqual(['rental.startDate'])
    expect(isDay('2028-02-29')).toBe(true)
  })

  it('starts from today to 365 days ahead, whatever year is typed (the quote as the request)', () => {
    const today = '2026-12-07'
    expect(startDateProblem(today, today)).toBeUndefined()
    expect(startDateProblem('2027-12-07', today)).toBeUndefined()
    expect(startDateProblem('2027-12-08', today)).toBe('Requests can start up to 365 days ahead; call us for later dates')
    expect(startDateProblem('9999-12-31', today)).toBe('Requests can start up to 365 days ahead; call us for later dates')
    expect(startDateProblem('2026-12-06', today)).toBe('The start date cannot be in the past')
    expect(startDateProblem('0001-01-01', today)).toBe('The start date cannot be in the past')
    expect(startDateProblem('+10000-01-01', today)).toBe('Enter the start date as a date, like 2026-07-04')
    const quote = rentalQuoteInput.safeParse({ cartType: '4-seater', plan: 'daily', startDate: '9999-12-31' })
    expect(quote.success ? [] : quote.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['startDate', 'Requests can start up to 365 days ahead; call us for later dates'],
    ])
    expect(rentalQuoteInput.safeParse({ cartType: '4-seater', plan: 'daily', startDate: '' }).success).toBe(true)
  })

  it('shows the calendar and moves requests within two years of today', () => {
    const today = '2026-12-07'
    expect(calendarDayProblem('2024-12-07', today)).toBeUndefined()
    expect(calendarDayProblem('2028-12-06', today)).toBeUndefined()
    const sentence = 'Choose a date within two years of today (2024-12-07 to 2028-12-06)'
    expect(calendarDayProblem('2024-12-06', today)).toBe(sentence)
    expect(calendarDayProblem('2028-12-07', today)).toBe(sentence)
    expect(calendarDayProblem('9999-12-31', today)).toBe(sentence)
    expect(calendarDayProblem('2026-02-30', today)).toBe('Enter a date, like 2026-07-04')
  })

  it('needs a showroom for a pickup, and a street, town and 5-digit ZIP for a delivery', () => {
    const start = addDays(newJerseyToday(), 3)
    expect(issuesOf({ rental: { cartType: 'utility', plan: 'weekly', startDate: start, pickup: 'showroom', showroom: 'new-jersey' } })).toEqual(['rental.showroom'])
    expect(issuesOf({ rental: { cartType: 'utility', plan: 'weekly', startDate: start, pickup: 'delivery', zip: '8008' } })).toEqual([
      'rental.street',
      'rental.town',
      'rental.zip',
    ])
  })

  it('is about rentals: another interest is refused, and it cannot also be a service request', () => {
    const rental = { cartType: '6-seater', plan: 'daily', startDate: newJerseyToday(), pickup: 'showroom', showroom: 'bayville' }
    expect(issuesOf({ rental, interest: 'denago' })).toEqual(['interest'])
    expect(issuesOf({ rental, service: { make: 'EZ-GO', needs: ['tires'] } })).toEqual(['service'])
  })

  it('reads as the dealer says it in emails and the inbox', () => {
    expect(
      rentalRequestFacts({
        cartType: '6-seater',
        plan: 'weekly',
        startDate: '2026-07-04',
        endDate: '2026-07-11',
        pickup: 'delivery',
        showroom: 'ocean-view',
        street: '12 Beach Ave',
        town: 'Cape May',
        zip: '08204',
        deliveryMiles: 18,
        deliveryFee: 48,
        price: 1400,
        status: 'requested',
      }),
    ).toEqual([
      ['Rental', '6 Seater, Weekly plan (7 days), $1,400'],
      ['Dates', 'Sat, Jul 4, 2026 to Sat, Jul 11, 2026'],
      ['Delivery', 'Deliver to 12 Beach Ave, Cape May, 08204 (18 miles from Ocean View; estimated fee $48)'],
      ['Status', 'Requested'],
    ])
  })
})

describe('a service request', () => {
  it('takes one need or several, as a form without JavaScript sends them, and reads the pick-up box', () => {
    const one = leadInput.parse({ ...contact, service: { make: 'Club Car', needs: 'tires', preferredDays: 'Monday', pickup: 'on' } })
    expect(one.service).toEqual({ make: 'Club Car', needs: ['tires'], preferredDays: ['Monday'], pickup: true })
    expect(issuesOf({ service: { make: 'Club Car', needs: ['tires'], preferredDays: ['Sunday'] } })).toEqual(['service.preferredDays.0'])
    expect(issuesOf({ service: { make: ' ', needs: [], year: '16' } })).toEqual(['service.make', 'service.year', 'service.needs'])
  })
})
