import { createHash, randomBytes, randomInt } from 'node:crypto'
import { Secret, TOTP } from 'otpauth'
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { Sql, TransactionSql } from '../db/database.ts'
import { business } from '../../domain/business.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'
import { createPasskeys, passkeyName, type Passkeys, type PasskeySummary } from './passkeys.ts'

/**
 * The second sign-in step (PRODUCT.md, "second step"): an authenticator app (TOTP, RFC 6238: six
 * digits, 30 seconds, SHA-1, as every app reads it), passkeys (WebAuthn, ./passkeys.ts), and 10
 * single-use recovery codes, shown once and kept as SHA-256 (they are random, 50 bits each, so a
 * fast hash is enough). The codes come with an account's first second step, whichever it is, and
 * go with its last. A code is accepted one step either side of now (a phone's clock a little off)
 * and never twice: the last step used is kept. Guessing is limited by the sign-in's own limits
 * (api/staff/sign-in.ts).
 */
export const recoveryCodeCount = 10
const codeAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789'

export interface SecondStepStatus {
  authenticator: boolean
  /** An app being added: the key to type into it and its otpauth:// address. */
  pending?: { secret: string; uri: string }
  recoveryCodesLeft: number
  passkeys: PasskeySummary[]
}

const hashOf = (code: string) => createHash('sha256').update(code).digest()
/** A recovery code as typed: spaces and dashes dropped, lower case. */
const normalizeCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase()

function totpFor(secret: string, username: string): TOTP {
  return new TOTP({ issuer: business.name, label: username, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
}

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => codeAlphabet[randomInt(codeAlphabet.length)])
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`
}

export function createSecondStep(sql: Sql, clock: () => number = Date.now, passkeys: Passkeys = createPasskeys(sql, 'http://localhost:3000')) {
  async function writeRecoveryCodes(tx: TransactionSql, userId: number): Promise<string[]> {
    const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode)
    await tx`delete from staff_recovery_codes where user_id = ${userId}`
    for (const code of codes) await tx`insert into staff_recovery_codes (user_id, code_hash) values (${userId}, ${hashOf(normalizeCode(code))})`
    return codes
  }
  const replaceRecoveryCodes = (userId: number) => sql.begin((tx) => writeRecoveryCodes(tx, userId))

  /** Whether the account has an app turned on, and how many passkeys, as the transaction sees it. */
  async function stepsOf(tx: Sql | TransactionSql, userId: number): Promise<{ app: boolean; passkeys: number }> {
    const [row] = await tx<{ app: boolean; passkeys: number }[]>`
      select totp_enabled_at is not null as app, (select count(*)::int from staff_passkeys where user_id = ${userId}) as passkeys
      from users where id = ${userId}
    `
    return row ?? { app: false, passkeys: 0 }
  }

  return {
    async status(userId: number, username: string): Promise<SecondStepStatus> {
      const [row] = await sql<{ secret: string | null; enabled: boolean; left: number }[]>`
        select totp_secret as secret, totp_enabled_at is not null as enabled,
          (select count(*)::int from staff_recovery_codes where user_id = ${userId} and used_at is null) as left
        from users where id = ${userId}
      `
      if (!row) return { authenticator: false, recoveryCodesLeft: 0, passkeys: [] }
      const pending = !row.enabled && row.secret ? { secret: row.secret, uri: totpFor(row.secret, username).toString() } : undefined
      return { authenticator: row.enabled, pending, recoveryCodesLeft: row.left, passkeys: await passkeys.list(userId) }
    },

    /** Whether the account signs in with a second step: an app, or a passkey. */
    async enabled(userId: number): Promise<boolean> {
      const steps = await stepsOf(sql, userId)
      return steps.app || steps.passkeys > 0
    },

    /** Which second steps the account has (the sign-in's page offers those). */
    kinds: (userId: number) => stepsOf(sql, userId),

    passkeys,

    /** Starts adding an app: a new secret, not used for signing in until a code from it is checked. */
    async startAuthenticator(userId: number): Promise<void> {
      const secret = new Secret({ size: 20 }).base32
      await sql`update users set totp_secret = ${secret}, totp_last_counter = null where id = ${userId} and totp_enabled_at is null`
    },

    /**
     * Turns the app on once a code from it is right; false when the code is wrong. An account's
     * first second step gives the 10 recovery codes (shown once); one that has passkeys keeps its
     * codes, and gets an empty list.
     */
    async confirmAuthenticator(userId: number, username: string, code: string, actor: Actor): Promise<string[] | false> {
      const [row] = await sql<{ secret: string | null }[]>`select totp_secret as secret from users where id = ${userId} and totp_enabled_at is null`
      if (!row?.secret) return false
      const counter = checkTotp(row.secret, username, code, null)
      if (counter === undefined) return false
      return sql.begin(async (tx) => {
        await tx`select 1 from users where id = ${userId} for update`
        const first = (await stepsOf(tx, userId)).passkeys === 0
        await tx`update users set totp_enabled_at = now(), totp_last_counter = ${counter} where id = ${userId}`
        await recordChanges(tx, actor, 'account', userId, [{ action: 'update', field: 'authenticator app', before: 'none', after: 'added' }])
        const codes: string[] = first ? await writeRecoveryCodes(tx, userId) : []
        return codes
      })
    },

    /** Removes the app; with no passkey left, the recovery codes too: the password alone signs in. */
    async removeAuthenticator(userId: number, actor: Actor): Promise<void> {
      await sql.begin(async (tx) => {
        await tx`select 1 from users where id = ${userId} for update`
        await tx`update users set totp_secret = null, totp_enabled_at = null, totp_last_counter = null where id = ${userId}`
        if ((await stepsOf(tx, userId)).passkeys === 0) await tx`delete from staff_recovery_codes where user_id = ${userId}`
        await recordChanges(tx, actor, 'account', userId, [{ action: 'update', field: 'authenticator app', before: 'added', after: 'none' }])
      })
    },

    /** What the browser needs to make a passkey for the account (its challenge kept 5 minutes). */
    passkeyOptions: (user: { id: number; username: string }): Promise<PublicKeyCredentialCreationOptionsJSON> => passkeys.registrationOptions(user),

    /**
     * Keeps a passkey the browser made with that challenge (throws a PasskeyError with the
     * sentence otherwise). An account's first second step gives the 10 recovery codes.
     */
    async addPasskey(userId: number, name: string, response: RegistrationResponseJSON, actor: Actor): Promise<{ passkey: PasskeySummary; recoveryCodes: string[] }> {
      passkeyName(name)
      // Spent whatever the answer: a wrong one needs new options.
      const challenge = await passkeys.takeChallenge(userId)
      return sql.begin(async (tx) => {
        await tx`select 1 from users where id = ${userId} for update`
        const before = await stepsOf(tx, userId)
        const passkey = await passkeys.register(tx, userId, name, response, challenge, actor)
        const first = !before.app && before.passkeys === 0
        return { passkey, recoveryCodes: first ? await writeRecoveryCodes(tx, userId) : [] }
      })
    },

    /** Removes one passkey; with no app and no passkey left, the recovery codes too. */
    async removePasskey(userId: number, passkeyId: number, actor: Actor): Promise<boolean> {
      return sql.begin(async (tx) => {
        await tx`select 1 from users where id = ${userId} for update`
        if (!(await passkeys.remove(tx, userId, passkeyId, actor))) return false
        const left = await stepsOf(tx, userId)
        if (!left.app && left.passkeys === 0) await tx`delete from staff_recovery_codes where user_id = ${userId}`
        return true
      })
    },

    /** Whether a passkey's answer to `challenge` is right for the account (api/users/passkeys.ts). */
    verifyPasskey: (userId: number, response: AuthenticationResponseJSON, challenge: string) => passkeys.verify(userId, response, challenge),

    /** Ten new recovery codes; the old ones stop working. */
    newRecoveryCodes: replaceRecoveryCodes,

    /**
     * Whether a code from the app, or an unused recovery code, is right for the account; either
     * is spent by being accepted.
     */
    async verify(userId: number, username: string, code: string): Promise<boolean> {
      const typed = code.trim()
      if (/^\d{6}$/.test(typed.replace(/\s/g, ''))) {
        const [row] = await sql<{ secret: string | null; last: string | null }[]>`
          select totp_secret as secret, totp_last_counter::text as last from users where id = ${userId} and totp_enabled_at is not null
        `
        if (!row?.secret) return false
        const counter = checkTotp(row.secret, username, typed.replace(/\s/g, ''), row.last === null ? null : Number(row.last))
        if (counter === undefined) return false
        // Spent only if no other sign-in spent this step first.
        const spent = await sql`
          update users set totp_last_counter = ${counter}
          where id = ${userId} and (totp_last_counter is null or totp_last_counter < ${counter}) returning 1
        `
        return spent.length > 0
      }
      const normalized = normalizeCode(typed)
      if (normalized.length !== 10) return false
      const used = await sql`
        update staff_recovery_codes set used_at = now()
        where user_id = ${userId} and code_hash = ${hashOf(normalized)} and used_at is null returning 1
      `
      return used.length > 0
    },
  }

  /** The time step a right code is for, later than `after`, or undefined. */
  function checkTotp(secret: string, username: string, code: string, after: number | null): number | undefined {
    const totp = totpFor(secret, username)
    const timestamp = clock()
    const delta = totp.validate({ token: code, timestamp, window: 1 })
    if (delta === null) return undefined
    const counter = totp.counter({ timestamp }) + delta
    return after !== null && counter <= after ? undefined : counter
  }
}

export type SecondStep = ReturnType<typeof createSecondStep>

/** A random token for a pending second step, and its hash. */
export function newStepToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: hashOf(token) }
}

export const stepTokenHash = hashOf
