import { createHash, randomBytes } from 'node:crypto'
import type { Sql } from '../db/database.ts'
import type { StaffRole } from '../../domain/staff-access.ts'

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
  /** Read with the session on every request, so a changed role counts at the next click. */
  role: StaffRole
}

export interface ResolvedSession {
  /** The session's number (never its token or the token's hash): to tell it apart in a list. */
  id: number
  user: StaffUser
  signedInAt: string
  /** When the session ends if it stays in use (the absolute limit). */
  expiresAt: string
  /**
   * The owner requires a second step for every account and this one has none yet: until it adds
   * one, Your account is all it may use (PRODUCT.md, "second step").
   */
  secondStepMissing: boolean
}

/** A signed-in browser as its person sees it in their account. */
export interface StaffSessionSummary {
  id: number
  address: string | null
  userAgent: string | null
  signedInAt: string
  lastSeenAt: string
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
      const [row] = await sql<
        { sessionId: number; id: number; username: string; role: StaffRole; signedInAt: string; expiresAt: string; stale: boolean; secondStepMissing: boolean }[]
      >`
        select s.id::int as session_id, u.id, u.username, u.role,
          u.totp_enabled_at is null
            and not exists (select 1 from staff_passkeys p where p.user_id = u.id)
            and coalesce((select value = 'true'::jsonb from dealer_settings where key = 'requireSecondStep'), false) as second_step_missing,
          to_json(s.created_at) #>> '{}' as signed_in_at,
          to_json(s.created_at + ${absolute}::interval) #>> '{}' as expires_at,
          s.last_seen_at < now() - ${`${policy.touchEveryMs} milliseconds`}::interval as stale
        from staff_sessions s join users u on u.id = s.user_id
        where s.token_hash = ${tokenHash}
          and not u.disabled
          and s.last_seen_at > now() - ${idle}::interval
          and s.created_at > now() - ${absolute}::interval
      `
      if (!row) return undefined
      if (row.stale) await sql`update staff_sessions set last_seen_at = now() where token_hash = ${tokenHash}`
      return { id: row.sessionId, user: { id: row.id, username: row.username, role: row.role }, signedInAt: row.signedInAt, expiresAt: row.expiresAt, secondStepMissing: row.secondStepMissing }
    },

    async end(token: string | undefined): Promise<void> {
      if (!token || !tokenShape.test(token)) return
      await sql`delete from staff_sessions where token_hash = ${hashOf(token)}`
    },

    /** The browsers a user is signed in on now, the latest used first. */
    async list(userId: number): Promise<StaffSessionSummary[]> {
      const rows = await sql<StaffSessionSummary[]>`
        select id::int as id, address, user_agent,
          to_json(created_at) #>> '{}' as signed_in_at, to_json(last_seen_at) #>> '{}' as last_seen_at
        from staff_sessions
        where user_id = ${userId}
          and last_seen_at > now() - ${idle}::interval and created_at > now() - ${absolute}::interval
        order by last_seen_at desc, id desc
      `
      return [...rows]
    },

    /** Ends one of a user's sessions (by its number); false when it was not theirs or is gone. */
    async endOne(userId: number, sessionId: number): Promise<boolean> {
      const rows = await sql`delete from staff_sessions where user_id = ${userId} and id = ${sessionId} returning 1`
      return rows.length > 0
    },

    /** Ends every session of a user but one (this browser's); returns how many ended. */
    async endOthers(userId: number, keep: number): Promise<number> {
      const rows = await sql`delete from staff_sessions where user_id = ${userId} and id <> ${keep} returning 1`
      return rows.length
    },

    /** Signs a user out on every browser; returns how many sessions ended. */
    async endAll(userId: number): Promise<number> {
      const rows = await sql`delete from staff_sessions where user_id = ${userId} returning 1`
      return rows.length
    },
  }
}

export type SessionStore = ReturnType<typeof createSessionStore>
