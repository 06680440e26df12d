import type { Sql, TransactionSql } from '../db/database.ts'
import { type Actor, commandLine, recordChanges } from '../staff/audit.ts'
import { controlCharacter } from '../../domain/plain-text.ts'
import { isStaffRole, type StaffRole } from '../../domain/staff-access.ts'
import { emailChangedNotice, queueAccountNotice } from './account-notices.ts'
import { hashPassword, needsRehash, prepareNobody, verifyAgainstNobody, verifyPassword } from './passwords.ts'

/**
 * Staff accounts: SPEC's `users` table (PRODUCT.md, "The dealer's staff"). Usernames are kept in
 * lower case, so "Maria" and "maria" are one account; passwords only as hashes (passwords.ts).
 */
export const passwordRules = { min: 12, max: 256 } as const

/** Why a username cannot be used, or undefined. */
export function usernameProblem(username: string): string | undefined {
  if (!/^[a-z0-9][a-z0-9._-]{1,39}$/.test(username)) {
    return 'A username is 2 to 40 characters: lower-case letters, digits, and . _ - after the first'
  }
  return undefined
}

/** Why a password cannot be used, or undefined (NIST SP 800-63B: length, not composition rules). */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length
  if (length < passwordRules.min) return `A password needs at least ${passwordRules.min} characters`
  if (length > passwordRules.max) return `A password can have at most ${passwordRules.max} characters`
  return undefined
}

export const normalizeUsername = (username: string) => username.trim().toLowerCase()

/** An email address as accounts keep it (trimmed, lower case), or the reason it cannot be one. */
export function normalizeEmail(email: string): { email: string } | { problem: string } {
  const trimmed = email.trim().toLowerCase()
  if (trimmed.length > 254 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(trimmed) || controlCharacter.test(trimmed)) {
    return { problem: 'Enter a valid email address, like name@example.com' }
  }
  return { email: trimmed }
}

export function roleProblem(role: string): string | undefined {
  return isStaffRole(role) ? undefined : 'A role is owner, manager or sales'
}

export const wrongCurrentPassword = 'That is not your current password.'

export const takenAddressMessage = (email: string) => `Another account already has the address ${email}.`

export const lastOwnerMessage =
  'The dealership needs at least one owner: make another account an owner first.'

export interface StaffAccount {
  id: number
  username: string
  role: StaffRole
  email: string | null
  disabled: boolean
  createdAt: Date
  lastSignInAt: Date | null
  /** Browsers signed in now. */
  sessions: number
  /** Its second step: an authenticator app turned on, and how many passkeys. */
  authenticatorApp: boolean
  passkeys: number
}

export class AccountError extends Error {
  override name = 'AccountError'
}

/**
 * Wrong current passwords on Your account are limited (issue #29): a browser left signed in must
 * not become a way to guess the password and then change it or remove the second step.
 */
export const passwordCheckLimit = { perWindow: 5, windowMs: 15 * 60_000 } as const

export class PasswordTriesExceeded extends AccountError {
  override name = 'PasswordTriesExceeded'
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
    super(`Too many wrong passwords. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`)
  }
}

const accountColumns = (sql: Sql) => sql`
  u.id, u.username, u.role, u.email, u.disabled, u.created_at, u.last_sign_in_at,
  count(s.token_hash)::int as sessions,
  u.totp_enabled_at is not null as authenticator_app,
  (select count(*)::int from staff_passkeys p where p.user_id = u.id) as passkeys
`

export interface UserStoreOptions {
  /** The site's address, for the links in account notices. */
  siteUrl?: string
  /** An account notice was queued: wake the outbox worker. */
  onQueued?(): void
}

/**
 * Cancels every unused reset and invitation link of an account: a link sent before its password
 * or address changed must not outlive what it was sent for (PRODUCT.md, "changes that need the password").
 */
async function cancelLinks(tx: TransactionSql, userId: number): Promise<void> {
  await tx`update staff_account_links set used_at = now() where user_id = ${userId} and used_at is null`
}

export function createUserStore(sql: Sql, options: UserStoreOptions = {}) {
  const siteUrl = options.siteUrl ?? 'http://localhost:3000'
  /**
   * Refuses (AccountError) a current password that is wrong, and every try once 5 were wrong in
   * 15 minutes (PasswordTriesExceeded). A try counts before it is checked, so tries sent at once
   * count against each other; a right one clears the count.
   */
  async function checkCurrent(id: number, current: string): Promise<{ username: string }> {
    const window = `${passwordCheckLimit.windowMs} milliseconds`
    const [{ attempt }] = await sql<[{ attempt: number }]>`insert into staff_password_checks (user_id) values (${id}) returning id as attempt`
    const [tries] = await sql<[{ n: number; wait: number | null }]>`
      select (select count(*)::int from staff_password_checks where user_id = ${id} and at > now() - ${window}::interval) as n,
        (select ceil(extract(epoch from at + ${window}::interval - now()))::int from staff_password_checks
          where user_id = ${id} and id <> ${attempt} and at > now() - ${window}::interval
          order by at desc offset ${passwordCheckLimit.perWindow - 1} limit 1) as wait
    `
    if (tries.n > passwordCheckLimit.perWindow) {
      await sql`delete from staff_password_checks where id = ${attempt}`
      throw new PasswordTriesExceeded(tries.wait ?? 1)
    }
    const [row] = await sql<{ username: string; passwordHash: string }[]>`select username, password_hash from users where id = ${id}`
    if (!row || [...current].length > passwordRules.max || !(await verifyPassword(current, row.passwordHash))) {
      throw new AccountError(wrongCurrentPassword)
    }
    await sql`delete from staff_password_checks where user_id = ${id}`
    return row
  }

  return {
    /**
     * Creates an account from a password, or from a hash made elsewhere (`npm run staff`). The
     * first account is the owner (someone has to be); later ones are sales unless a role is given.
     */
    async add(
      username: string,
      password: { password: string } | { hash: string } | string,
      options: { role?: StaffRole; email?: string | null; actor?: Actor } = {},
    ): Promise<{ id: number; username: string; role: StaffRole; email: string | null }> {
      const name = normalizeUsername(username)
      const problem = usernameProblem(name)
      if (problem) throw new AccountError(problem)
      if (options.role !== undefined && roleProblem(options.role)) throw new AccountError(roleProblem(options.role))
      const email = options.email ? emailOf(options.email) : null
      const hash = await hashOf(password)
      return sql.begin(async (tx) => {
        // One at a time, so two first accounts made at once are not both owners.
        await tx`lock table users in share row exclusive mode`
        const [{ n }] = await tx<[{ n: number }]>`select count(*)::int as n from users`
        const role = options.role ?? (n === 0 ? 'owner' : 'sales')
        if (email) await emailFree(tx, email)
        const [row] = await tx<{ id: number; username: string; role: StaffRole; email: string | null }[]>`
          insert into users (username, password_hash, role, email) values (${name}, ${hash}, ${role}, ${email})
          on conflict (username) do nothing
          returning id, username, role, email
        `
        if (!row) throw new AccountError(`The account "${name}" already exists`)
        await recordChanges(tx, options.actor ?? commandLine, 'account', row.id, [
          { action: 'create', after: { username: name, role, ...(email ? { email } : {}) } },
        ])
        return row
      })
    },

    /** Gives an account another role; the last owner keeps theirs (PRODUCT.md). */
    async setRole(username: string, role: string, actor: Actor = commandLine): Promise<{ id: number; username: string; role: StaffRole }> {
      const name = normalizeUsername(username)
      if (!isStaffRole(role)) throw new AccountError(roleProblem(role))
      return sql.begin(async (tx) => {
        const account = await accountFor(tx, name)
        if (account.role === role) return { id: account.id, username: name, role }
        if (account.role === 'owner') await keepAnOwner(tx, account.id)
        await tx`update users set role = ${role} where id = ${account.id}`
        await recordChanges(tx, actor, 'account', account.id, [{ action: 'update', field: 'role', before: account.role, after: role }])
        return { id: account.id, username: name, role }
      })
    },

    async list(): Promise<StaffAccount[]> {
      const rows = await sql<StaffAccount[]>`
        select ${accountColumns(sql)}
        from users u left join staff_sessions s on s.user_id = u.id
        group by u.id order by u.username
      `
      return [...rows]
    },

    /** One account as `list` shows it, by id, or undefined. */
    async get(id: number): Promise<StaffAccount | undefined> {
      const [row] = await sql<StaffAccount[]>`
        select ${accountColumns(sql)}
        from users u left join staff_sessions s on s.user_id = u.id
        where u.id = ${id}
        group by u.id
      `
      return row
    },

    /**
     * Disables an account (it keeps its history and its leads; its sessions end) or enables it
     * again. The last owner who can sign in cannot be disabled (PRODUCT.md).
     */
    async setDisabled(username: string, disabled: boolean, actor: Actor = commandLine): Promise<{ id: number; username: string; disabled: boolean }> {
      const name = normalizeUsername(username)
      return sql.begin(async (tx) => {
        const account = await accountFor(tx, name)
        if (account.disabled === disabled) return { id: account.id, username: name, disabled }
        if (disabled && account.role === 'owner') await keepAnOwner(tx, account.id)
        await tx`update users set disabled = ${disabled} where id = ${account.id}`
        if (disabled) await tx`delete from staff_sessions where user_id = ${account.id}`
        await recordChanges(tx, actor, 'account', account.id, [{ action: 'update', field: 'disabled', before: account.disabled, after: disabled }])
        return { id: account.id, username: name, disabled }
      })
    },

    /**
     * Sets or clears an account's email address (one address, one account). The old address is
     * told, and the account's unused reset and invitation links are cancelled.
     */
    async setEmail(username: string, email: string | null, actor: Actor = commandLine): Promise<{ id: number; email: string | null }> {
      const name = normalizeUsername(username)
      const address = email?.trim() ? emailOf(email) : null
      const changed = await sql.begin(async (tx) => {
        const [row] = await tx<{ id: number; email: string | null }[]>`select id, email from users where username = ${name} for update`
        if (!row) throw new AccountError(`No account is called "${name}"`)
        if (row.email === address) return { ...row, queued: false }
        if (address) await emailFree(tx, address, row.id)
        await tx`update users set email = ${address} where id = ${row.id}`
        await cancelLinks(tx, row.id)
        if (row.email) await queueAccountNotice(tx, row.id, emailChangedNotice(name, row.email, address, new Date(), siteUrl))
        await recordChanges(tx, actor, 'account', row.id, [{ action: 'update', field: 'email', before: row.email, after: address }])
        return { id: row.id, email: address, queued: row.email !== null }
      })
      if (changed.queued) options.onQueued?.()
      return { id: changed.id, email: changed.email }
    },

    /**
     * A signed-in person's own new password, given the current one (OWASP: re-authenticate
     * before a change). Every other session of the account ends; `keepSession` (this browser's
     * session, by id) stays signed in.
     */
    async changePassword(id: number, current: string, next: string, keepSession: number): Promise<void> {
      const problem = passwordProblem(next)
      if (problem) throw new AccountError(problem)
      const row = await checkCurrent(id, current)
      const hash = await hashPassword(next)
      await sql.begin(async (tx) => {
        await tx`update users set password_hash = ${hash} where id = ${id}`
        await tx`delete from staff_sessions where user_id = ${id} and id <> ${keepSession}`
        await cancelLinks(tx, id)
        await recordChanges(tx, { id, name: row.username }, 'account', id, [{ action: 'update', field: 'password' }])
      })
    },

    async count(): Promise<number> {
      const [row] = await sql<[{ n: number }]>`select count(*)::int as n from users`
      return row.n
    },

    /** Removes an account; its sessions end with it. The last owner cannot be removed. */
    async remove(username: string, actor: Actor = commandLine): Promise<void> {
      const name = normalizeUsername(username)
      await sql.begin(async (tx) => {
        const account = await accountFor(tx, name)
        if (account.role === 'owner') await keepAnOwner(tx, account.id)
        await tx`delete from users where id = ${account.id}`
        await recordChanges(tx, actor, 'account', account.id, [{ action: 'delete', before: { username: name, role: account.role } }])
      })
    },

    /** A new password ends every session of the account (OWASP: re-authenticate after a change). */
    async setPassword(username: string, password: { password: string } | { hash: string } | string): Promise<void> {
      const name = normalizeUsername(username)
      const hash = await hashOf(password)
      await sql.begin(async (tx) => {
        const [row] = await tx<{ id: number }[]>`update users set password_hash = ${hash} where username = ${name} returning id`
        if (!row) throw new AccountError(`No account is called "${name}"`)
        await tx`delete from staff_sessions where user_id = ${row.id}`
        await cancelLinks(tx, row.id)
        // The hash is never copied into the log: only that the password changed.
        await recordChanges(tx, commandLine, 'account', row.id, [{ action: 'update', field: 'password' }])
      })
    },

    /** Refuses (AccountError) a password that is not the account's current one. */
    async checkPassword(id: number, current: string): Promise<void> {
      await checkCurrent(id, current)
    },

    /**
     * The account a username and password sign in as, or undefined. An unknown username costs
     * the same hash as a wrong password. A hash made with older parameters is replaced.
     */
    /** Readies what `verify` needs, so the first sign-in costs what every other one does. */
    prepare(): void {
      void prepareNobody()
    },

    async verify(username: string, password: string): Promise<{ id: number; username: string; role: StaffRole } | undefined> {
      const name = normalizeUsername(username)
      // A disabled account answers as an unknown one, after the same work.
      const [row] = await sql<{ id: number; username: string; role: StaffRole; passwordHash: string }[]>`
        select id, username, role, password_hash from users where username = ${name} and not disabled
      `
      if (!row) return void (await verifyAgainstNobody(password))
      if (!(await verifyPassword(password, row.passwordHash))) return undefined
      if (needsRehash(row.passwordHash)) {
        await sql`update users set password_hash = ${await hashPassword(password)} where id = ${row.id}`
      }
      return { id: row.id, username: row.username, role: row.role }
    },
  }
}

export type UserStore = ReturnType<typeof createUserStore>

function emailOf(email: string): string {
  const normalized = normalizeEmail(email)
  if ('problem' in normalized) throw new AccountError(normalized.problem)
  return normalized.email
}

async function emailFree(tx: TransactionSql, email: string, except?: number): Promise<void> {
  const [taken] = await tx<{ id: number }[]>`
    select id from users where lower(email) = ${email} ${except === undefined ? tx`` : tx`and id <> ${except}`}
  `
  // Which account has it is not said: the sentence could otherwise tell anyone who tries
  // addresses which colleague has which (PRODUCT.md, "changes that need the password").
  if (taken) throw new AccountError(takenAddressMessage(email))
}

async function accountFor(tx: TransactionSql, name: string): Promise<{ id: number; role: StaffRole; disabled: boolean }> {
  const [row] = await tx<{ id: number; role: StaffRole; disabled: boolean }[]>`
    select id, role, disabled from users where username = ${name} for update
  `
  if (!row) throw new AccountError(`No account is called "${name}"`)
  return row
}

/**
 * Refuses a change that would leave no owner who can sign in, should `leaving` stop being one.
 * The owners' rows are locked, so two owners demoting each other at once cannot both succeed.
 */
async function keepAnOwner(tx: TransactionSql, leaving: number): Promise<void> {
  const owners = await tx<{ id: number }[]>`select id from users where role = 'owner' and not disabled for update`
  if (!owners.some((o) => o.id !== leaving)) throw new AccountError(lastOwnerMessage)
}

/** A hash of a new password, refused (AccountError) when the password does not meet the rules. */
export const hashOfPassword = (password: string): Promise<string> => hashOf(password)

async function hashOf(password: { password: string } | { hash: string } | string): Promise<string> {
  const given = typeof password === 'string' ? { password } : password
  if ('hash' in given) {
    if (!/^scrypt\$N=\d+,r=\d+,p=\d+\$[\w-]+\$[\w-]+$/.test(given.hash)) throw new AccountError('That is not a password hash')
    return given.hash
  }
  const problem = passwordProblem(given.password)
  if (problem) throw new AccountError(problem)
  return hashPassword(given.password)
}
