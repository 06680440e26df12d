import { describeError, type Logger } from '../log.ts'
import type { SpamBox } from '../staff/lead-spam.ts'
import type { LeadEscalation } from './lead-escalation.ts'

/**
 * Lead chores on a timer, in every server process (each is safe run twice at once): spam older
 * than 30 days is deleted, shortly after start and then every `spamEveryMs`; leads waiting too
 * long are escalated, checked every `escalateEveryMs` (api/leads/lead-escalation.ts).
 */
export function startLeadUpkeep(options: {
  spam: SpamBox
  escalation: LeadEscalation
  log: Logger
  firstMs?: number
  spamEveryMs?: number
  escalateEveryMs?: number
}) {
  const { log } = options
  const timers = new Set<NodeJS.Timeout>()
  let stopped = false
  const every = (firstMs: number, everyMs: number, chore: () => Promise<void>) => {
    const tick = async () => {
      timers.delete(timer)
      await chore()
      if (!stopped) {
        timer = setTimeout(() => void tick(), everyMs).unref()
        timers.add(timer)
      }
    }
    let timer = setTimeout(() => void tick(), firstMs).unref()
    timers.add(timer)
  }
  every(options.firstMs ?? 60_000, options.spamEveryMs ?? 3_600_000, async () => {
    try {
      const deleted = await options.spam.purge()
      if (deleted > 0) log.info('old spam deleted', { leads: deleted })
    } catch (error) {
      log.warn('old spam not deleted', { step: 'database', error: describeError(error) })
    }
  })
  const escalateEveryMs = options.escalateEveryMs ?? 20_000
  every(Math.min(escalateEveryMs, options.firstMs ?? escalateEveryMs), escalateEveryMs, async () => {
    try {
      const leads = await options.escalation.run()
      if (leads.length > 0) log.info('waiting leads escalated', { leads: leads.length })
    } catch (error) {
      log.warn('waiting leads not escalated', { step: 'database', error: describeError(error) })
    }
  })
  return {
    stop() {
      stopped = true
      for (const timer of timers) clearTimeout(timer)
    },
  }
}
