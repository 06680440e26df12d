import * as z from 'zod/mini'
import { atWallClock } from './business-hours.ts'
import { plainText } from './inquiry.ts'

/**
 * Follow-ups (PRODUCT.md, "follow-ups"): a task on a lead, a due time and a note. At the due time
 * the lead's owner gets an email and a push; the console's first page lists today's and overdue
 * tasks; a lead with a task not yet due is not escalated. Pure: the schema and the words.
 */
export const taskLimits = { note: 1000 } as const

const localPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/

/**
 * A due time as a moment: ISO 8601 with its zone (`2026-12-08T15:00:00Z`), or a wall-clock time
 * as a `datetime-local` field posts it (`2026-12-08T10:00`), read in New Jersey.
 */
export function dueMoment(text: string): Date | undefined {
  const local = localPattern.exec(text)
  if (local) {
    const [, y, m, d, h, min] = local.map(Number) as [number, number, number, number, number, number]
    if (m < 1 || m > 12 || d < 1 || d > 31 || h > 23 || min > 59) return undefined
    return new Date(atWallClock(y, m, d, h, min))
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined
  const at = new Date(text)
  return Number.isNaN(at.getTime()) ? undefined : at
}

/** `staff.task.create`. */
export const taskInput = z.object({
  leadId: z.int('leadId must be a whole number').check(z.positive('leadId must be a whole number')),
  dueAt: z.pipe(
    z.string('Due is required').check(z.trim(), z.maxLength(40), z.refine((v) => dueMoment(v) !== undefined, 'Enter the due date and time, like 2026-12-08 10:00')),
    z.transform((v: string) => dueMoment(v)!),
  ),
  note: z.string('Note is required').check(
    z.trim(),
    z.minLength(1, 'Note is required: what to do, like “call about the 6-seater”'),
    z.maxLength(taskLimits.note, `Note must be at most ${taskLimits.note} characters`),
    plainText('Note', { lines: true }),
  ),
})
export type TaskInput = z.input<typeof taskInput>

export const taskId = z.object({ id: z.int('id must be a whole number').check(z.positive('id must be a whole number')) })

/** "Tue, Dec 8, 10:00 AM", New Jersey time. */
export function dueWords(at: Date | string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(at))
}

/** The `datetime-local` value of a moment in New Jersey: what the add form offers by default. */
export function localInputValue(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`
}
