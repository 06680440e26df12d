import { type WriteRefusal, writeRefusal } from './unavailable.ts'

/**
 * The last time the database refused a write (its disk full, or read-only), so `/readyz` can say
 * why leads are answered "not sent" while the database still answers reads. Noted by the
 * procedures' database guard (api/trpc/init.ts), through which every lead and staff write passes.
 */
export interface WriteRefusals {
  note(error: unknown): void
  /** The latest refusal within `withinMs`. */
  latest(withinMs: number): { kind: WriteRefusal; at: Date } | undefined
}

export function createWriteRefusals(now = () => Date.now()): WriteRefusals {
  let last: { kind: WriteRefusal; at: number } | undefined
  return {
    note(error) {
      const kind = writeRefusal(error)
      if (kind) last = { kind, at: now() }
    },
    latest(withinMs) {
      return last && now() - last.at <= withinMs ? { kind: last.kind, at: new Date(last.at) } : undefined
    },
  }
}
