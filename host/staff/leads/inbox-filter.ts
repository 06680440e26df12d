import { type LeadInterest, leadInterestOptions } from '../../../domain/inquiry.ts'
import { dealerTimeZone, leadStatuses, type LeadStatus } from '../../../domain/lead-status.ts'

/**
 * The inbox's filters as they sit in its address (`/staff/leads?status=new&owner=me&page=2`), so
 * every filtered view is a link staff can bookmark or send, and the server renders it. Values the
 * inbox does not know are dropped rather than refused: a stale bookmark still opens.
 */
export const inboxPageSize = 50

export interface InboxFilter {
  status?: LeadStatus
  owner?: number | 'me' | 'none'
  interest?: LeadInterest | 'none'
  source?: string
  from?: string
  to?: string
  q?: string
  page: number
}

const day = /^\d{4}-\d{2}-\d{2}$/
const realDay = (v: string | null) => (v && day.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) ? v : undefined)

export function inboxFilterFromSearch(search: string): InboxFilter {
  const params = new URLSearchParams(search)
  const text = (name: string, max: number) => {
    const value = params.get(name)?.trim()
    return value ? value.slice(0, max) : undefined
  }
  const status = params.get('status')
  const owner = params.get('owner')
  const interest = params.get('interest')
  const page = Number(params.get('page'))
  return {
    status: leadStatuses.includes(status as LeadStatus) ? (status as LeadStatus) : undefined,
    owner: owner === 'me' || owner === 'none' ? owner : owner && /^[1-9]\d{0,8}$/.test(owner) ? Number(owner) : undefined,
    interest: interest === 'none' || leadInterestOptions.some((o) => o.value === interest) ? (interest as LeadInterest | 'none') : undefined,
    source: text('source', 200),
    from: realDay(params.get('from')),
    to: realDay(params.get('to')),
    q: text('q', 100),
    page: Number.isInteger(page) && page > 1 && page <= 20_000 ? page : 1,
  }
}

/** The address of the inbox with these filters (the first page unless one is given). */
export function inboxHref(filter: Partial<InboxFilter>): string {
  const params = new URLSearchParams()
  for (const key of ['q', 'status', 'owner', 'interest', 'source', 'from', 'to'] as const) {
    const value = filter[key]
    if (value !== undefined && value !== '') params.set(key, String(value))
  }
  if (filter.page && filter.page > 1) params.set('page', String(filter.page))
  const query = params.toString()
  return `/staff/leads${query ? `?${query}` : ''}`
}

/** What `staff.lead.list` is asked for a filter. */
export function listInput({ page, ...filter }: InboxFilter) {
  return { ...filter, limit: inboxPageSize, offset: (page - 1) * inboxPageSize }
}

export const isFiltered = (filter: InboxFilter) =>
  Object.entries(filter).some(([key, value]) => key !== 'page' && value !== undefined)

export const interestLabel = (value: string | null) =>
  leadInterestOptions.find((o) => o.value === value)?.label ?? (value === null ? 'None given' : value)

const timeFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: dealerTimeZone,
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
})

/** "Nov 23, 4:05 PM", the dealer's time, the same on the server and in the browser. */
export const dealerTime = (iso: string) => timeFormat.format(new Date(iso))

/** "less than a minute", "12 minutes", "3 hours 5 minutes", "2 days 4 hours". */
export function duration(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000))
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`
  if (minutes < 1) return 'less than a minute'
  if (minutes < 60) return plural(minutes, 'minute')
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return [plural(hours, 'hour'), ...(minutes % 60 ? [plural(minutes % 60, 'minute')] : [])].join(' ')
  return [plural(Math.floor(hours / 24), 'day'), ...(hours % 24 ? [plural(hours % 24, 'hour')] : [])].join(' ')
}

/** The page's host, for a short "where it came from". */
export function pageHost(url: string | null): string | undefined {
  if (!url) return undefined
  try {
    return new URL(url).host
  } catch {
    return undefined
  }
}

/**
 * Digits and a leading + only, for a `tel:` link every phone dials: a ten-digit number is
 * American (+1), an extension is dialled after a pause (`,`).
 */
export function telHref(phone: string): string {
  const [number = '', extension] = phone.split(/\s*(?:x|ext\.?)\s*/i)
  const digits = number.trim().replace(/(?!^\+)[^\d]/g, '')
  const dialled = /^\d{10}$/.test(digits) ? `+1${digits}` : digits
  return `tel:${dialled}${extension ? `,${extension.replace(/\D/g, '')}` : ''}`
}
