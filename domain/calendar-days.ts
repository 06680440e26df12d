/**
 * Days as the dealer counts them: `YYYY-MM-DD` text in New Jersey's calendar, the form an
 * `<input type="date">` sends and PostgreSQL's `date` reads. Rental dates are days, not moments,
 * so the arithmetic is done at noon UTC, where no daylight-saving change can move a day.
 */
export type Day = string

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/

/** Whether the text is a real day of the calendar ("2026-02-30" is not). */
export function isDay(text: string): boolean {
  const match = dayPattern.exec(text)
  if (!match) return false
  const date = atNoon(text)
  return date.getUTCFullYear() === Number(match[1]) && date.getUTCMonth() + 1 === Number(match[2]) && date.getUTCDate() === Number(match[3])
}

function atNoon(day: Day): Date {
  return new Date(`${day}T12:00:00Z`)
}

export function addDays(day: Day, days: number): Day {
  const date = atNoon(day)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: Day, to: Day): number {
  return Math.round((atNoon(to).getTime() - atNoon(from).getTime()) / 86_400_000)
}

/** Today in New Jersey (the dealer's calendar, whatever the server's or visitor's zone). */
export function newJerseyToday(now: Date = new Date()): Day {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(now)
}

/** "Sat, Jul 4, 2026". */
export function formatDay(day: Day): string {
  return atNoon(day).toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
}

/** "Saturday" for a day. */
export function weekdayOf(day: Day): string {
  return atNoon(day).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' })
}
