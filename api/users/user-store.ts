import type { Sql } from '../db/database.ts'
import { commandLine, recordChanges } from '../staff/audit.ts'
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

export interface StaffAccount {
  id: number
  username: string
  createdAt: Date
  lastSignInAt: Date | null
  /** Browsers signed in now. */
  sessions: number
}

export class AccountError extends Error {
  override name = 'AccountError'
}

export function createUserStore(sql: Sql) {
  return {
    /** Creates an account from a password, or from a hash made elsewhere (`npm run staff`). */
    async add(username: string, password: { password: string } | { hash: string } | string): Promise<{ id: number; username: string }> {
      const name = normalizeUsername(username)
      const problem = usernameProblem(name)
      if (problem) throw new AccountError(problem)
      const hash = await hashOf(password)
      return sql.begin(async (tx) => {
        const [row] = await tx<{ id: number; username: string }[]>`
          insert into users (username, password_hash) values (${name}, ${hash})
          on conflict (username) do nothing
          returning id, username
        `
        if (!row) throw new AccountError(`The account "${name}" already exists`)
        await recordChanges(tx, commandLine, 'account', row.id, [{ action: 'create', after: { username: name } }])
        return row
      })
    },

    async list(): Promise<StaffAccount[]> {
      const rows = await sql<StaffAccount[]>`
        select u.id, u.username, u.created_at, u.last_sign_in_at, count(s.token_hash)::int as sessions
        from users u left join staff_sessions s on s.user_id = u.id
        group by u.id order by u.username
      `
      return [...rows]
    },

    async count(): Promise<number> {
      const [row] = await sql<[{ n: number }]>`select count(*)::int as n from users`
      return row.n
    },

    /** Removes an account; its sessions end with it. */
    async remove(username: string): Promise<void> {
      const name = normalizeUsername(username)
      await sql.begin(async (tx) => {
        const [row] = await tx<{ id: number }[]>`delete from users where username = ${name} returning id`
        if (!row) throw new AccountError(`No account is called "${name}"`)
        await recordChanges(tx, commandLine, 'account', row.id, [{ action: 'delete', before: { username: name } }])
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
        // The hash is never copied into the log: only that the password changed.
        await recordChanges(tx, commandLine, 'account', row.id, [{ action: 'update', field: 'password' }])
      })
    },

    /**
     * The account a username and password sign in as, or undefined. An unknown username costs
     * the same hash as a wrong password. A hash made with older parameters is replaced.
     */
    /** Readies what `verify` needs, so the first sign-in costs what every other one does. */
    prepare(): void {
      void prepareNobody()
    },

    async verify(username: string, password: string): Promise<{ id: number; username: string } | undefined> {
      const name = normalizeUsername(username)
      const [row] = await sql<{ id: number; username: string; passwordHash: string }[]>`
        select id, username, password_hash from users where username = ${name}
      `
      if (!row) return void (await verifyAgainstNobody(password))
      if (!(await verifyPassword(password, row.passwordHash))) return undefined
      if (needsRehash(row.passwordHash)) {
        await sql`update users set password_hash = ${await hashPassword(password)} where id = ${row.id}`
      }
      return { id: row.id, username: row.username }
    },
  }
}

export type UserStore = ReturnType<typeof createUserStore>

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
