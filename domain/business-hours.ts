import { business, type OpeningHours } from './business.ts'

/**
 * Business hours as moments: the opening hours of the business facts (domain/business.ts), read
 * in New Jersey's time whatever the server's zone, daylight saving included. Escalation counts
 * its minutes in them (PRODUCT.md, "escalation").
 */
const zone = 'America/New_York'

const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const

const partsFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: zone,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
})

/** The wall clock in New Jersey at a moment. */
export function wallClock(ms: number) {
  const parts = Object.fromEntries(partsFormat.formatToParts(ms).map((p) => [p.type, p.value]))
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  }
}

/** The moment New Jersey's clocks show this time of this day (the first, should it happen twice). */
export function atWallClock(year: number, month: number, day: number, hour: number, minute: number): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute)
  let guess = asUtc
  for (let i = 0; i < 2; i++) {
    const w = wallClock(guess)
    guess -= Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - asUtc
  }
  return guess
}

const minutesOf = (time: string) => {
  const [h, m] = time.split(':').map(Number)
  return { hour: h ?? 0, minute: m ?? 0 }
}

/**
 * When a New Jersey day's business hours open and close, as moments; undefined on a day the hours
 * close (Sunday). Escalation counts in these, and appointments are offered inside them.
 */
export function openingOn(year: number, month: number, day: number, hours: readonly OpeningHours[] = business.hours): { opens: number; closes: number } | undefined {
  const weekday = weekdays[new Date(Date.UTC(year, month - 1, day, 12)).getUTCDay()]!
  const today = hours.find((h) => h.dayOfWeek.includes(weekday))
  if (!today?.opens || !today.closes) return undefined
  const opens = minutesOf(today.opens)
  const closes = minutesOf(today.closes)
  return { opens: atWallClock(year, month, day, opens.hour, opens.minute), closes: atWallClock(year, month, day, closes.hour, closes.minute) }
}

/**
 * The moment `minutes` of business hours have passed since `from`. Time outside the opening
 * hours does not count: a lead on Saturday evening waits through Sunday (closed) and is due on
 * Monday after opening. Hours that open no day at all count every minute instead.
 */
export function afterBusinessMinutes(from: Date, minutes: number, hours: readonly OpeningHours[] = business.hours): Date {
  let left = minutes * 60_000
  const start = wallClock(from.getTime())
  // Noon UTC of each New Jersey day, so adding days never trips on a clock change.
  const noon = new Date(Date.UTC(start.year, start.month - 1, start.day, 12))
  for (let days = 0; days < 8 + Math.ceil(minutes / 60 / 24) * 7; days++) {
    const today = openingOn(noon.getUTCFullYear(), noon.getUTCMonth() + 1, noon.getUTCDate(), hours)
    if (today) {
      const open = Math.max(from.getTime(), today.opens)
      const close = today.closes
      if (open < close) {
        if (close - open >= left) return new Date(open + left)
        left -= close - open
      }
    }
    noon.setUTCDate(noon.getUTCDate() + 1)
  }
  return new Date(from.getTime() + minutes * 60_000)
}
