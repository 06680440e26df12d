import type { AlertUpkeep } from '../alerts/alert-upkeep.ts'
import { describeError, type Logger } from '../log.ts'
import type { SpamBox } from '../staff/lead-spam.ts'
import type { LeadEscalation } from './lead-escalation.ts'
import type { HoldUpkeep } from '../deposits/hold-upkeep.ts'
import type { FollowUpUpkeep } from '../appointments/follow-up-upkeep.ts'

/**
 * Lead chores on a timer, in every server process (each is safe run twice at once): spam older
 * than 30 days is deleted, shortly after start and then every `spamEveryMs`; leads waiting too
 * long are escalated, checked every `escalateEveryMs` (api/leads/lead-escalation.ts); deposits'
 * holds that have ended make their carts available again, and owners are told a day before,
 * checked as often (api/deposits/hold-upkeep.ts); bookings' reminders and follow-ups due, every
 * `followUpEveryMs` (api/appointments/follow-up-upkeep.ts); and, on the spam's timer, shoppers' addresses
 * no longer of use are deleted (api/alerts/alert-upkeep.ts).
 */
export function startLeadUpkeep(options: {
  spam: SpamBox
  escalation: LeadEscalation
  holds?: HoldUpkeep
  watches?: AlertUpkeep
  followUps?: FollowUpUpkeep
  log: Logger
  firstMs?: number
  spamEveryMs?: number
  escalateEveryMs?: number
  /** How often reminders and follow-ups due are looked for: a task due in 5 s alerts within this of it. */
  followUpEveryMs?: number
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
    if (!options.watches) return
    try {
      const deleted = await options.watches.purge()
      if (deleted > 0) log.info("shoppers' watches no longer of use deleted", { watches: deleted })
    } catch (error) {
      log.warn("shoppers' old watches not deleted", { step: 'database', error: describeError(error) })
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
  const { holds } = options
  if (holds) {
    every(Math.min(escalateEveryMs, options.firstMs ?? escalateEveryMs), escalateEveryMs, async () => {
      try {
        const { told, ended } = await holds.run(new Date())
        if (told.length > 0 || ended.length > 0) log.info('deposit holds kept', { ownersTold: told.length, holdsEnded: ended.length })
      } catch (error) {
        log.warn('deposit holds not checked', { step: 'database', error: describeError(error) })
      }
    })
  }
  const { followUps } = options
  if (followUps) {
    const everyMs = options.followUpEveryMs ?? 5_000
    every(Math.min(everyMs, options.firstMs ?? everyMs), everyMs, async () => {
      try {
        const { reminded, alerted } = await followUps.run(new Date())
        if (reminded.length > 0 || alerted.length > 0) log.info('reminders and follow-ups queued', { reminders: reminded.length, followUps: alerted.length })
      } catch (error) {
        log.warn('reminders and follow-ups not checked', { step: 'database', error: describeError(error) })
      }
    })
  }
  return {
    stop() {
      stopped = true
      for (const timer of timers) clearTimeout(timer)
    },
  }
}
