import { setTimeout as sleep } from 'node:timers/promises'
import type { Sql } from '../db/database.ts'
import { normalizeUsername, passwordRules, usernameProblem, type UserStore } from '../users/user-store.ts'
import type { SessionStore, StaffUser } from './sessions.ts'
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server'
import { newStepToken, type SecondStep, stepTokenHash } from '../users/second-step.ts'
import { createDeviceCookies, type DeviceCookies } from './devices.ts'

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
  /** Failures of one browser with a device cookie for the account (./devices.ts); perUsername when unset. */
  perDevice?: number
}

export const signInPolicy: SignInPolicy = {
  windowMs: 15 * 60_000,
  perUsername: 10,
  perAddress: 30,
  delayStepMs: 500,
  maxDelayMs: 5000,
}

export type SignInOutcome =
  /** Signed in: the session's token, and the browser's device cookie with this account in it. */
  | { ok: true; user: StaffUser; token: string; expiresAt: string; deviceCookie: string }
  | { ok: false; reason: 'invalid' }
  /** No account can have this username or password (its shape, its length): refused before any work. */
  | { ok: false; reason: 'malformed' }
  | { ok: false; reason: 'limited'; retryAfterSeconds: number }
  /** The password was right; the account's second step is asked next, with this token (5 minutes). */
  | { ok: false; reason: 'second-step'; stepToken: string }
  /** A second step whose token is unknown, used or older than 5 minutes: sign in again. */
  | { ok: false; reason: 'expired' }

export const signInMessages = {
  invalid: 'That username and password do not match an account.',
  limited: (seconds: number) => {
    const minutes = Math.max(1, Math.ceil(seconds / 60))
    return `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
  },
  missing: 'Enter your username and password.',
  wrongCode: 'That code is not right. Enter the 6 digits your app shows now, or one of your recovery codes.',
  missingCode: 'Enter the code from your authenticator app, or a recovery code.',
  wrongPasskey: 'That passkey did not sign you in. Try again, or enter one of your recovery codes.',
  expired: 'That took too long: sign in again.',
}

/** How long a right password waits for its second step. */
export const secondStepMinutes = 5

/** What the second step's page offers an account: its app's code, its passkeys (with a fresh challenge). */
export interface StepChoices {
  app: boolean
  passkey?: PublicKeyCredentialRequestOptionsJSON
}

/** A browser's passkey answer as posted in the sign-in form (JSON), or undefined when it is not one. */
function parseAssertion(posted: string): AuthenticationResponseJSON | undefined {
  if (posted.length > 16_000) return undefined
  try {
    const value = JSON.parse(posted) as unknown
    if (!value || typeof value !== 'object') return undefined
    const { id, rawId, type, response } = value as Record<string, unknown>
    if (typeof id !== 'string' || typeof rawId !== 'string' || type !== 'public-key' || !response || typeof response !== 'object') return undefined
    return value as AuthenticationResponseJSON
  } catch {
    return undefined
  }
}

export function createSignIn(
  sql: Sql,
  users: UserStore,
  sessions: SessionStore,
  steps: SecondStep,
  policy: SignInPolicy = signInPolicy,
  devices: DeviceCookies = createDeviceCookies(sql),
) {
  const window = `${policy.windowMs} milliseconds`
  const perDevice = policy.perDevice ?? policy.perUsername
  let sinceCleanup = 0

  /**
   * Counts this attempt as a failure before anything is checked, so attempts sent all at once are
   * counted against each other (a success takes it back), and says whether it is over a limit
   * (refused unheard, and then not counted) and how long to slow a wrong guess.
   *
   * A stranger (no device cookie for this username) is counted by username and by address, over
   * strangers' failures only. A browser with one is counted by its cookie alone: nobody else's
   * failures slow or lock it, and its own lock only it (OWASP device cookies).
   */
  async function countAttempt(username: string, address: string, device: string | undefined) {
    const [{ id }] = await sql<[{ id: number }]>`
      insert into staff_sign_in_failures (username, address, device) values (${username}, ${address}, ${device ?? null})
      returning id::int as id
    `
    const fresh = sql`at > now() - ${window}::interval`
    const recent = sql`at > now() - ${window}::interval and id <> ${id}`
    const waitAfter = (where: ReturnType<typeof sql>, limit: number) => sql`
      (select ceil(extract(epoch from at + ${window}::interval - now()))::int from staff_sign_in_failures
        where ${where} and ${recent} order by at desc offset ${limit - 1} limit 1)
    `
    let counts: { over: boolean; waits: (number | null)[]; failures: number }
    if (device) {
      const [row] = await sql<[{ byDevice: number; deviceWait: number | null }]>`
        select (select count(*)::int from staff_sign_in_failures where device = ${device} and ${fresh}) as by_device,
          ${waitAfter(sql`device = ${device}`, perDevice)} as device_wait
      `
      counts = { over: row.byDevice > perDevice, waits: [row.deviceWait], failures: row.byDevice }
    } else {
      const stranger = sql`device is null`
      const [row] = await sql<[{ byUser: number; byAddress: number; userWait: number | null; addressWait: number | null }]>`
        select
          (select count(*)::int from staff_sign_in_failures where username = ${username} and ${stranger} and ${fresh}) as by_user,
          (select count(*)::int from staff_sign_in_failures where address = ${address} and ${stranger} and ${fresh}) as by_address,
          ${waitAfter(sql`username = ${username} and ${stranger}`, policy.perUsername)} as user_wait,
          ${waitAfter(sql`address = ${address} and ${stranger}`, policy.perAddress)} as address_wait
      `
      counts = {
        over: row.byUser > policy.perUsername || row.byAddress > policy.perAddress,
        waits: [row.userWait, row.addressWait],
        failures: Math.max(row.byUser, row.byAddress),
      }
    }
    if (counts.over) {
      // Refused without a guess, so a refusal does not count and the lock ends on time.
      await sql`delete from staff_sign_in_failures where id = ${id}`
      const waits = counts.waits.filter((w): w is number => w !== null)
      return { id, limited: { ok: false, reason: 'limited', retryAfterSeconds: Math.max(1, ...waits) } as const }
    }
    return { id, delayMs: Math.min(policy.maxDelayMs, policy.delayStepMs * counts.failures) }
  }

  /** A right sign-in: its failures (this browser's, or strangers' for a stranger) start again, and the session. */
  async function succeed(user: StaffUser, attempt: number, device: string | undefined, details: { address: string; userAgent?: string; previousToken?: string; deviceCookie?: string }) {
    await sql`
      delete from staff_sign_in_failures
      where id = ${attempt} or (username = ${user.username} and ${device ? sql`device = ${device}` : sql`device is null`})
    `
    const session = await sessions.start(user, { address: details.address, userAgent: details.userAgent, replacing: details.previousToken })
    return { ok: true as const, user, ...session, deviceCookie: await devices.issue(details.deviceCookie, user.username) }
  }

  /** A passkey's answer to the challenge the step's page last gave; the challenge is spent by trying. */
  async function passkeyIsRight(stepToken: string, userId: number, assertion: AuthenticationResponseJSON): Promise<boolean> {
    const [row] = await sql<{ challenge: string | null }[]>`
      update staff_sign_in_steps s set passkey_challenge = null
      from (select token_hash, passkey_challenge from staff_sign_in_steps where token_hash = ${stepTokenHash(stepToken)} for update) before
      where s.token_hash = before.token_hash
      returning before.passkey_challenge as challenge
    `
    if (!row?.challenge) return false
    return steps.verifyPasskey(userId, assertion, row.challenge)
  }

  return {
    async signIn(attempt: {
      username: string
      password: string
      address: string
      userAgent?: string
      /** The session token the browser already had, ended by this sign-in. */
      previousToken?: string
      /** The browser's device cookie, if it has one (./devices.ts). */
      deviceCookie?: string
    }): Promise<SignInOutcome> {
      const started = Date.now()
      const username = normalizeUsername(attempt.username)
      // Before the database and the hash: a 9 kB username or password costs nothing, and a
      // control character never reaches SQL (issue #26). The rules are public, so this says
      // nothing about which accounts exist.
      if (usernameProblem(username) || [...attempt.password].length > passwordRules.max) return { ok: false, reason: 'malformed' }
      const device = await devices.trusted(attempt.deviceCookie, username)
      const counted = await countAttempt(username, attempt.address, device)
      if (counted.limited) return counted.limited
      const { id } = counted

      const user = await users.verify(username, attempt.password)
      if (!user) {
        if (++sinceCleanup >= 100) {
          sinceCleanup = 0
          await sql`delete from staff_sign_in_failures where at < now() - interval '1 day'`
        }
        const remaining = counted.delayMs - (Date.now() - started)
        if (remaining > 0) await sleep(remaining)
        return { ok: false, reason: 'invalid' }
      }
      if (await steps.enabled(user.id)) {
        // Not a success yet: the account's count stays until its second step is right, so a
        // known password does not buy unlimited guesses at the codes.
        await sql`delete from staff_sign_in_failures where id = ${id}`
        const step = newStepToken()
        await sql`delete from staff_sign_in_steps where created_at < now() - ${`${secondStepMinutes} minutes`}::interval`
        await sql`insert into staff_sign_in_steps (token_hash, user_id) values (${step.hash}, ${user.id})`
        return { ok: false, reason: 'second-step', stepToken: step.token }
      }
      // The account's own count starts again (this browser's, or strangers'); the address keeps its count.
      return succeed(user, id, device, attempt)
    },

    /**
     * What the second step's page offers the sign-in waiting with this token: the app's code (or
     * a recovery code) and, for an account with passkeys, the options its browser signs, whose
     * challenge replaces any the page had before. Undefined once the token is unknown or old.
     */
    async stepChoices(stepToken: string | undefined): Promise<StepChoices | undefined> {
      if (!stepToken || !/^[A-Za-z0-9_-]{43}$/.test(stepToken)) return undefined
      const [pending] = await sql<{ userId: number }[]>`
        select user_id from staff_sign_in_steps
        where token_hash = ${stepTokenHash(stepToken)} and created_at > now() - ${`${secondStepMinutes} minutes`}::interval
      `
      if (!pending) return undefined
      const kinds = await steps.kinds(pending.userId)
      const passkey = kinds.passkeys > 0 ? await steps.passkeys.authenticationOptions(pending.userId) : undefined
      if (passkey) await sql`update staff_sign_in_steps set passkey_challenge = ${passkey.challenge} where token_hash = ${stepTokenHash(stepToken)}`
      return { app: kinds.app, passkey }
    },

    /**
     * The second step of a sign-in whose password was right: a code from the app, a recovery
     * code, or a passkey's answer (JSON, as the browser gave it), counted and limited as password
     * guesses are (per account and per address).
     */
    async secondStep(attempt: {
      stepToken: string
      code?: string
      passkey?: string
      address: string
      userAgent?: string
      previousToken?: string
      deviceCookie?: string
    }): Promise<SignInOutcome> {
      const started = Date.now()
      if (!/^[A-Za-z0-9_-]{43}$/.test(attempt.stepToken)) return { ok: false, reason: 'expired' }
      const [pending] = await sql<{ id: number; username: string; role: StaffUser['role'] }[]>`
        select u.id, u.username, u.role from staff_sign_in_steps s join users u on u.id = s.user_id
        where s.token_hash = ${stepTokenHash(attempt.stepToken)} and not u.disabled
          and s.created_at > now() - ${`${secondStepMinutes} minutes`}::interval
      `
      if (!pending) return { ok: false, reason: 'expired' }
      const assertion = attempt.passkey === undefined ? undefined : parseAssertion(attempt.passkey)
      if (attempt.passkey === undefined ? (attempt.code ?? '').length > 40 : !assertion) return { ok: false, reason: 'malformed' }
      const device = await devices.trusted(attempt.deviceCookie, pending.username)
      const counted = await countAttempt(pending.username, attempt.address, device)
      if (counted.limited) return counted.limited
      const { id } = counted
      const right = assertion
        ? await passkeyIsRight(attempt.stepToken, pending.id, assertion)
        : await steps.verify(pending.id, pending.username, attempt.code ?? '')
      if (!right) {
        const remaining = counted.delayMs - (Date.now() - started)
        if (remaining > 0) await sleep(remaining)
        return { ok: false, reason: 'invalid' }
      }
      await sql`delete from staff_sign_in_steps where token_hash = ${stepTokenHash(attempt.stepToken)}`
      return succeed({ id: pending.id, username: pending.username, role: pending.role }, id, device, attempt)
    },
  }
}

export type SignIn = ReturnType<typeof createSignIn>
