import { setTimeout as sleep } from 'node:timers/promises'
import type { Sql } from '../db/database.ts'
import { normalizeUsername, type UserStore } from '../users/user-store.ts'
import type { SessionStore, StaffUser } from './sessions.ts'

/**
 * Signing in, built for someone hostile trying every door (OWASP Authentication Cheat Sheet):
 * - "no such user" and "wrong password" get one answer, after the same work (one scrypt hash);
 * - failures are counted in the database per username and per client address over a sliding
 *   window, so every server process shares the count; over either limit, sign-in is refused
 *   without checking the password until the window moves on;
 * - each failure answers more slowly than the last (`delayStepMs` per recent failure of that
 *   username or address, up to `maxDelayMs`), so guessing is slow even under the limits.
 * Unknown usernames are counted like real ones, so neither the limit nor the delay tells an
 * attacker which usernames exist.
 */
export interface SignInPolicy {
  windowMs: number
  perUsername: number
  perAddress: number
  delayStepMs: number
  maxDelayMs: number
}

export const signInPolicy: SignInPolicy = {
  windowMs: 15 * 60_000,
  perUsername: 10,
  perAddress: 30,
  delayStepMs: 500,
  maxDelayMs: 5000,
}

export type SignInOutcome =
  | { ok: true; user: StaffUser; token: string; expiresAt: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'limited'; retryAfterSeconds: number }

export const signInMessages = {
  invalid: 'That username and password do not match an account.',
  limited: (seconds: number) => {
    const minutes = Math.max(1, Math.ceil(seconds / 60))
    return `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
  },
  missing: 'Enter your username and password.',
}

export function createSignIn(sql: Sql, users: UserStore, sessions: SessionStore, policy: SignInPolicy = signInPolicy) {
  const window = `${policy.windowMs} milliseconds`
  let sinceCleanup = 0

  /**
   * Failures in the window for the username and the address, this attempt included, and how
   * long until each is back under its limit (null when it is not over).
   */
  async function recentFailures(attempt: number, username: string, address: string) {
    const recent = sql`at > now() - ${window}::interval and id <> ${attempt}`
    const [row] = await sql<[{ byUser: number; byAddress: number; userWait: number | null; addressWait: number | null }]>`
      select
        (select count(*)::int from staff_sign_in_failures where username = ${username} and at > now() - ${window}::interval) as by_user,
        (select count(*)::int from staff_sign_in_failures where address = ${address} and at > now() - ${window}::interval) as by_address,
        (select ceil(extract(epoch from at + ${window}::interval - now()))::int from staff_sign_in_failures
          where username = ${username} and ${recent}
          order by at desc offset ${policy.perUsername - 1} limit 1) as user_wait,
        (select ceil(extract(epoch from at + ${window}::interval - now()))::int from staff_sign_in_failures
          where address = ${address} and ${recent}
          order by at desc offset ${policy.perAddress - 1} limit 1) as address_wait
    `
    return row
  }

  return {
    async signIn(attempt: {
      username: string
      password: string
      address: string
      userAgent?: string
      /** The session token the browser already had, ended by this sign-in. */
      previousToken?: string
    }): Promise<SignInOutcome> {
      const started = Date.now()
      const username = normalizeUsername(attempt.username).slice(0, 100)
      // Counted as a failure before the password is checked, so attempts sent all at once are
      // counted against each other; a success takes it back.
      const [{ id }] = await sql<[{ id: number }]>`
        insert into staff_sign_in_failures (username, address) values (${username}, ${attempt.address})
        returning id::int as id
      `
      const failures = await recentFailures(id, username, attempt.address)
      if (failures.byUser > policy.perUsername || failures.byAddress > policy.perAddress) {
        // Refused without a guess, so a refusal does not count and the lock ends on time.
        await sql`delete from staff_sign_in_failures where id = ${id}`
        const waits = [failures.userWait, failures.addressWait].filter((w): w is number => w !== null)
        return { ok: false, reason: 'limited', retryAfterSeconds: Math.max(1, ...waits) }
      }

      const user = await users.verify(username, attempt.password)
      if (!user) {
        if (++sinceCleanup >= 100) {
          sinceCleanup = 0
          await sql`delete from staff_sign_in_failures where at < now() - interval '1 day'`
        }
        const delay = Math.min(policy.maxDelayMs, policy.delayStepMs * Math.max(failures.byUser, failures.byAddress))
        const remaining = delay - (Date.now() - started)
        if (remaining > 0) await sleep(remaining)
        return { ok: false, reason: 'invalid' }
      }
      // The account's own count starts again; the address keeps its count.
      await sql`delete from staff_sign_in_failures where username = ${username} or id = ${id}`
      const session = await sessions.start(user, {
        address: attempt.address,
        userAgent: attempt.userAgent,
        replacing: attempt.previousToken,
      })
      return { ok: true, user, ...session }
    },
  }
}

export type SignIn = ReturnType<typeof createSignIn>
