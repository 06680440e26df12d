import { createHash, randomBytes } from 'node:crypto'
import type { Sql } from '../db/database.ts'
import type { Mailer } from '../leads/mailer.ts'
import { describeError, type Logger, redactEmails } from '../log.ts'
import { business } from '../../domain/business.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { type Actor, recordChanges } from '../staff/audit.ts'
import { AccountError, hashOfPassword, normalizeEmail, normalizeUsername } from './user-store.ts'

/**
 * Single-use links that set an account's password (PRODUCT.md, "password reset" and "accounts in
 * the browser"): a reset, asked for on the sign-in page, valid 30 minutes; an invitation, sent by
 * an owner, valid 72 hours. The email carries a random 256-bit token; the table keeps its SHA-256
 * only (OWASP Forgot Password Cheat Sheet). Using a link sets the password, ends every session of
 * the account and spends every other link it had.
 *
 * "Forgot your password?" always answers the same, at once: the work (the limits, finding the
 * account, the email) happens after the answer, so neither the words nor the time say whether a
 * name exists. At most `perAddress` requests from one address in `windowMs`, and at most
 * `perAccount` links an account in that window, so the form cannot flood an inbox.
 */
export const linkPolicy = {
  resetMs: 30 * 60_000,
  inviteMs: 72 * 3_600_000,
  windowMs: 15 * 60_000,
  perAddress: 5,
  perAccount: 3,
} as const

export type LinkPurpose = 'reset' | 'invite'

export interface AccountMail {
  /** Undefined when no mail transport is configured (SMTP_URL or MAIL_DIR). */
  mailer?: Mailer
  from: string
  siteUrl: string
  log?: Logger
}

export const noMailMessage =
  'This server sends no email yet (set SMTP_URL, or MAIL_DIR in development), so no link can be sent.'

const tokenShape = /^[A-Za-z0-9_-]{43}$/
const hashOf = (token: string) => createHash('sha256').update(token).digest()

/** The address of a link in the email. */
export const linkPath = (token: string) => `${staffPaths.passwordReset}/${token}`

function linkMessage(purpose: LinkPurpose, to: string, username: string, link: string, from: string, siteUrl: string) {
  const host = new URL(siteUrl).hostname
  const subject = purpose === 'reset' ? `Reset your ${business.name} staff password` : `Your ${business.name} staff account`
  const text =
    purpose === 'reset'
      ? [
          `Someone asked to reset the password of the staff account "${username}".`,
          '',
          `Choose a new password here (the link works once, for 30 minutes):`,
          link,
          '',
          'If it was not you, ignore this email: your password stays as it is.',
        ]
      : [
          `You have a staff account at ${business.name}: "${username}".`,
          '',
          `Choose your password here (the link works once, for 72 hours):`,
          link,
        ]
  return { from, to: [to], subject, text: text.join('\n'), messageId: `<${purpose}-${Date.now()}-${randomBytes(8).toString('hex')}@${host}>` }
}

export function createAccountLinks(sql: Sql, mail: AccountMail, policy = linkPolicy) {
  /**
   * A new link for an account, its email sent; throws when it cannot be sent. With `limit`, none
   * when the account already had that many in the window (false): counted with the account's row
   * locked, so requests at once cannot all slip under it.
   */
  async function issue(account: { id: number; username: string; email: string }, purpose: LinkPurpose, limit?: number): Promise<boolean> {
    const mailer = mail.mailer
    if (!mailer) throw new AccountError(noMailMessage)
    const token = randomBytes(32).toString('base64url')
    const lifetime = `${purpose === 'reset' ? policy.resetMs : policy.inviteMs} milliseconds`
    const created = await sql.begin(async (tx) => {
      await tx`select id from users where id = ${account.id} for update`
      if (limit !== undefined) {
        const [{ recent }] = await tx<[{ recent: number }]>`
          select count(*)::int as recent from staff_account_links
          where user_id = ${account.id} and created_at > now() - ${`${policy.windowMs} milliseconds`}::interval
        `
        if (recent >= limit) return false
      }
      await tx`
        insert into staff_account_links (token_hash, user_id, purpose, expires_at)
        values (${hashOf(token)}, ${account.id}, ${purpose}, now() + ${lifetime}::interval)
      `
      return true
    })
    if (!created) return false
    const link = new URL(linkPath(token), mail.siteUrl).href
    await mailer.send(linkMessage(purpose, account.email, account.username, link, mail.from, mail.siteUrl))
    return true
  }

  async function accountByName(name: string) {
    const [row] = await sql<{ id: number; username: string; email: string | null; disabled: boolean }[]>`
      select id, username, email, disabled from users where username = ${name}
    `
    return row
  }

  return {
    /** Whether links can be emailed at all (a mail transport is configured). */
    canSend: Boolean(mail.mailer),

    /**
     * "Forgot your password?" with a username or email address: returns at once, the same for
     * every name; the link, if any, is sent after (`done` resolves then, for tests).
     */
    requestReset(nameOrEmail: string, address: string): { done: Promise<void> } {
      const done = (async () => {
        // Counted one request at a time per address, so a burst cannot all slip under the limit.
        const fromAddress = await sql.begin(async (tx) => {
          await tx`select pg_advisory_xact_lock(hashtext(${`staff-reset ${address}`}))`
          const [{ n }] = await tx<[{ n: number }]>`
            select count(*)::int as n from staff_reset_requests
            where address = ${address} and at > now() - ${`${policy.windowMs} milliseconds`}::interval
          `
          await tx`insert into staff_reset_requests (address) values (${address})`
          return n
        })
        if (fromAddress >= policy.perAddress) return mail.log?.warn('password reset limited', { address })
        const typed = nameOrEmail.trim().slice(0, 254)
        const email = typed.includes('@') ? normalizeEmail(typed) : undefined
        const [account] = email
          ? 'email' in email
            ? await sql<{ id: number; username: string; email: string | null; disabled: boolean }[]>`
                select id, username, email, disabled from users where lower(email) = ${email.email}
              `
            : []
          : [await accountByName(normalizeUsername(typed))]
        if (!account?.email || account.disabled) return
        const sent = await issue({ id: account.id, username: account.username, email: account.email }, 'reset', policy.perAccount)
        if (!sent) mail.log?.warn('password reset limited', { account: account.username })
        await sql`delete from staff_reset_requests where at < now() - interval '1 day'`
      })().catch((error: unknown) => {
        mail.log?.error('password reset email failed', { error: redactEmails(describeError(error)) })
      })
      return { done }
    },

    /** An owner sends an account a reset link (its sessions stay until it is used). */
    async sendReset(username: string, actor: Actor): Promise<{ email: string }> {
      const account = await accountByName(normalizeUsername(username))
      if (!account) throw new AccountError(`No account is called "${normalizeUsername(username)}"`)
      if (!account.email) throw new AccountError(`"${account.username}" has no email address to send a link to.`)
      if (account.disabled) throw new AccountError(`"${account.username}" is disabled: enable it first.`)
      await issue({ id: account.id, username: account.username, email: account.email }, 'reset')
      await sql.begin((tx) => recordChanges(tx, actor, 'account', account.id, [{ action: 'update', field: 'password reset sent' }]))
      return { email: account.email }
    },

    /** An invitation to a new account (made by the caller), by email. */
    invite: async (account: { id: number; username: string; email: string }) => void (await issue(account, 'invite')),

    /** What a link is for, while it can still be used; undefined for any other token. */
    async check(token: string): Promise<{ purpose: LinkPurpose; username: string } | undefined> {
      if (!tokenShape.test(token)) return undefined
      const [row] = await sql<{ purpose: LinkPurpose; username: string }[]>`
        select l.purpose, u.username from staff_account_links l join users u on u.id = l.user_id
        where l.token_hash = ${hashOf(token)} and l.used_at is null and l.expires_at > now() and not u.disabled
      `
      return row
    },

    /**
     * Sets the password through a link, once: the link and every other of the account are spent,
     * and every session of the account ends. Undefined when the link cannot be used (any more).
     */
    async use(token: string, password: string): Promise<{ username: string; purpose: LinkPurpose } | undefined> {
      if (!tokenShape.test(token)) return undefined
      const hash = await hashOfPassword(password)
      return sql.begin(async (tx) => {
        const [link] = await tx<{ userId: number; purpose: LinkPurpose; username: string }[]>`
          update staff_account_links l set used_at = now()
          from users u
          where l.token_hash = ${hashOf(token)} and l.used_at is null and l.expires_at > now()
            and u.id = l.user_id and not u.disabled
          returning l.user_id, l.purpose, u.username
        `
        if (!link) return undefined
        await tx`update staff_account_links set used_at = now() where user_id = ${link.userId} and used_at is null`
        await tx`update users set password_hash = ${hash} where id = ${link.userId}`
        await tx`delete from staff_sessions where user_id = ${link.userId}`
        await recordChanges(tx, { id: link.userId, name: link.username }, 'account', link.userId, [
          { action: 'update', field: 'password', after: link.purpose === 'reset' ? 'reset by email link' : 'set by invitation' },
        ])
        return { username: link.username, purpose: link.purpose }
      })
    },
  }
}

export type AccountLinks = ReturnType<typeof createAccountLinks>
