import { wallClock } from '../../domain/business-hours.ts'

/**
 * An `.ics` invitation (RFC 5545) for one booking, with the times on New Jersey's clock
 * (`TZID=America/New_York`, its rules given in a VTIMEZONE so every calendar reads them alike).
 * `SEQUENCE` is the booking's revision: a moved booking's invitation replaces the earlier one in
 * the shopper's calendar (same UID), a cancelled one removes it (METHOD:CANCEL).
 */
export interface CalendarEvent {
  uid: string
  revision: number
  startsAt: Date
  minutes: number
  summary: string
  location: string
  description: string
  url: string
  organizer: { name: string; email: string }
  attendee: { name: string; email: string }
  geo?: { latitude: number; longitude: number }
  cancelled?: boolean
  stamp: Date
}

const zone = 'America/New_York'

const newYorkRules = [
  'BEGIN:VTIMEZONE',
  `TZID:${zone}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
]

const two = (n: number) => String(n).padStart(2, '0')

/** `20261212T090000`: the wall clock in New Jersey. */
function local(at: Date): string {
  const w = wallClock(at.getTime())
  return `${w.year}${two(w.month)}${two(w.day)}T${two(w.hour)}${two(w.minute)}${two(w.second)}`
}

/** `20261207T072400Z`. */
const utc = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')

/** A TEXT value: backslash, semicolon, comma and line breaks escaped; control characters dropped. */
function text(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
}

/** A parameter value (a name): quoted, without the characters a quoted value cannot hold. */
const param = (value: string) => `"${value.replace(/["\r\n\\]/g, '')}"`

/** Lines longer than 75 octets folded (RFC 5545 3.1), never inside a UTF-8 character. */
function fold(line: string): string {
  const out: string[] = []
  let current = ''
  let octets = 0
  for (const char of line) {
    const size = Buffer.byteLength(char)
    if (octets + size > (out.length === 0 ? 75 : 74)) {
      out.push(current)
      current = ''
      octets = 0
    }
    current += char
    octets += size
  }
  out.push(current)
  return out.join('\r\n ')
}

export function calendarInvitation(event: CalendarEvent): string {
  const ends = new Date(event.startsAt.getTime() + event.minutes * 60_000)
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Jersey Cart Co.//Appointments//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${event.cancelled ? 'CANCEL' : 'REQUEST'}`,
    ...newYorkRules,
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${utc(event.stamp)}`,
    `SEQUENCE:${event.revision - 1}`,
    `DTSTART;TZID=${zone}:${local(event.startsAt)}`,
    `DTEND;TZID=${zone}:${local(ends)}`,
    `SUMMARY:${text(event.summary)}`,
    `LOCATION:${text(event.location)}`,
    ...(event.geo ? [`GEO:${event.geo.latitude};${event.geo.longitude}`] : []),
    `DESCRIPTION:${text(event.description)}`,
    `URL:${event.url}`,
    `ORGANIZER;CN=${param(event.organizer.name)}:mailto:${event.organizer.email}`,
    `ATTENDEE;CN=${param(event.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:${event.attendee.email}`,
    `STATUS:${event.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ]
  return `${lines.map(fold).join('\r\n')}\r\n`
}
