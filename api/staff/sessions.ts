import { createHash, randomBytes } from 'node:crypto'
import type { Sql } from '../db/database.ts'

/**
 * Staff sessions (OWASP Session Management Cheat Sheet), stored in the database so any server
 * process can answer any request. The browser holds a random 256-bit token; the table holds
 * only its SHA-256, so reading the table (a backup, a leaked dump) signs nobody in.
 *
 * A session ends after 12 hours without a request (PRODUCT.md) and, in any case, 24 hours after
 * sign-in: a stolen cookie is worth one working day at most.
 */
export const sessionPolicy = {
  idleMs: 12 * 3_600_000,
  absoluteMs: 24 * 3_600_000,
  /** `last_seen_at` is written at most this often, not on every request. */
  touchEveryMs: 60_000,
} as const

export interface StaffUser {
  id: number
  username: string
}

export interface ResolvedSession {
  user: StaffUser
  signedInAt: string
  /** When the session ends if it stays in use (the absolute limit). */
  expiresAt: string
}

const tokenShape = /^[A-Za-z0-9_-]{43}$/

const hashOf = (token: string) => createHash('sha256').update(token).digest()

export function createSessionStore(sql: Sql, policy = sessionPolicy) {
  const idle = `${policy.idleMs} milliseconds`
  const absolute = `${policy.absoluteMs} milliseconds`

  return {
    /**
     * A new session for a user who just proved who they are. The token is new at every sign-in,
     * and the session the browser came with (if any) ends, so a token planted before sign-in is
     * worth nothing after it.
     */
    async start(user: StaffUser, details: { address?: string; userAgent?: string; replacing?: string }) {
      const token = randomBytes(32).toString('base64url')
      const [row] = await sql.begin(async (tx) => {
        if (details.replacing && tokenShape.test(details.replacing)) {
          await tx`delete from staff_sessions where token_hash = ${hashOf(details.replacing)}`
        }
        // Expired sessions of anyone are swept here, where sign-ins are rare and cheap.
        await tx`
          delete from staff_sessions
          where last_seen_at < now() - ${idle}::interval or created_at < now() - ${absolute}::interval
        `
        await tx`update users set last_sign_in_at = now() where id = ${user.id}`
        return tx<[{ expiresAt: string }]>`
          insert into staff_sessions (token_hash, user_id, address, user_agent)
          values (${hashOf(token)}, ${user.id}, ${details.address ?? null}, ${details.userAgent?.slice(0, 300) ?? null})
          returning to_json(created_at + ${absolute}::interval) #>> '{}' as expires_at
        `
      })
      return { token, expiresAt: row.expiresAt }
    },

    /** The signed-in user a token stands for, or undefined when it is unknown or expired. */
    async resolve(token: string | undefined): Promise<ResolvedSession | undefined> {
      if (!token || !tokenShape.test(token)) return undefined
      const tokenHash = hashOf(token)
      const [row] = await sql<{ id: number; username: string; signedInAt: string; expiresAt: string; stale: boolean }[]>`
        select u.id, u.username,
          to_json(s.created_at) #>> '{}' as signed_in_at,
          to_json(s.created_at + ${absolute}::interval) #>> '{}' as expires_at,
          s.last_seen_at < now() - ${`${policy.touchEveryMs} milliseconds`}::interval as stale
        from staff_sessions s join users u on u.id = s.user_id
        where s.token_hash = ${tokenHash}
          and s.last_seen_at > now() - ${idle}::interval
          and s.created_at > now() - ${absolute}::interval
      `
      if (!row) return undefined
      if (row.stale) await sql`update staff_sessions set last_seen_at = now() where token_hash = ${tokenHash}`
      return { user: { id: row.id, username: row.username }, signedInAt: row.signedInAt, expiresAt: row.expiresAt }
    },

    async end(token: string | undefined): Promise<void> {
      if (!token || !tokenShape.test(token)) return
      await sql`delete from staff_sessions where token_hash = ${hashOf(token)}`
    },

    /** Signs a user out on every browser; returns how many sessions ended. */
    async endAll(userId: number): Promise<number> {
      const rows = await sql`delete from staff_sessions where user_id = ${userId} returning 1`
      return rows.length
    },
  }
}

export type SessionStore = ReturnType<typeof createSessionStore>
