import { randomBytes } from 'node:crypto'
import { TRPCError } from '@trpc/server'
import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import { noMailMessage } from '../../users/account-links.ts'
import { PasskeyError, passkeyMessages, passkeyName } from '../../users/passkeys.ts'
import * as z from 'zod/mini'
import { staffRoles } from '../../../domain/staff-access.ts'
import { AccountError, lastOwnerMessage, PasswordTriesExceeded, passwordRules, wrongCurrentPassword } from '../../users/user-store.ts'
import { FieldError, fieldRefused, RateLimitedError } from '../../http/errors.ts'
import { router } from '../init.ts'
import { staffProcedure } from '../staff-procedure.ts'

/**
 * A refusal of the account store beside its field when it has one (`{ message, issues }`, the one
 * error shape), else above the form: 400, or 409 for the last-owner rule and a taken address.
 */
async function refusingAccountErrors<T>(
  fieldOf: string | ((message: string) => string) | undefined,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof PasswordTriesExceeded) {
      throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: error.message, cause: new RateLimitedError(error.retryAfterSeconds) })
    }
    if (!(error instanceof AccountError)) throw error
    const conflict = error.message === lastOwnerMessage || / already /.test(error.message)
    const field = typeof fieldOf === 'function' ? fieldOf(error.message) : fieldOf
    throw new TRPCError({
      code: conflict ? 'CONFLICT' : 'BAD_REQUEST',
      message: error.message,
      cause: field && !conflict ? new FieldError([{ path: field, message: error.message }], error.message) : error,
    })
  }
}

const username = z.string().check(z.maxLength(40))
export const password = z.string().check(z.maxLength(passwordRules.max, `A password can have at most ${passwordRules.max} characters`))

/**
 * The signed-in person's current password, refused beside the `current` field (PRODUCT.md,
 * "changes that need the password"): a signed-in browser alone changes nothing that guards the account.
 */
export function checkCurrentPassword(ctx: { staff: { accounts: { checkPassword(id: number, current: string): Promise<void> } }; session: { user: { id: number } } }, current: string) {
  return refusingAccountErrors('current', () => ctx.staff.accounts.checkPassword(ctx.session.user.id, current))
}

/** Each person's own account (`/staff/account`): every role, only themselves. */
export const staffAccountRouter = router({
  /** Who I am, my email address, and the browsers I am signed in on (this one marked). */
  get: staffProcedure.query(async ({ ctx }) => {
    const account = await ctx.staff.accounts.get(ctx.session.user.id)
    if (!account) throw new TRPCError({ code: 'NOT_FOUND', message: 'This account is gone.' })
    const sessions = await ctx.staff.sessions.list(ctx.session.user.id)
    return {
      username: account.username,
      role: account.role,
      email: account.email,
      secondStep: await ctx.staff.secondStep.status(account.id, account.username),
      sessions: sessions.map((session) => ({ ...session, current: session.id === ctx.session.id })),
    }
  }),

  /**
   * A new email address (or none), given the current password: the old address is told, and the
   * account's unused reset and invitation links are cancelled.
   */
  setEmail: staffProcedure
    .input(z.object({ email: z.string().check(z.maxLength(254, 'An email address has at most 254 characters')), current: password }))
    .mutation(async ({ ctx, input }) => {
      await checkCurrentPassword(ctx, input.current)
      return refusingAccountErrors('email', () => ctx.staff.accounts.setEmail(ctx.session.user.username, input.email || null, ctx.actor))
    }),

  /** A new password, given the current one; every other browser is signed out. */
  setPassword: staffProcedure.input(z.object({ current: password, password })).mutation(async ({ ctx, input }) => {
    await refusingAccountErrors(
      (message) => (message === wrongCurrentPassword ? 'current' : 'password'),
      () => ctx.staff.accounts.changePassword(ctx.session.user.id, input.current, input.password, ctx.session.id),
    )
    return { changed: true }
  }),

  /** Starts adding an authenticator app: the page then shows its key. */
  startAuthenticator: staffProcedure.mutation(async ({ ctx }) => {
    await ctx.staff.secondStep.startAuthenticator(ctx.session.user.id)
    return { started: true }
  }),

  /**
   * Turns the app on with a code from it, given the current password; answers the 10 recovery
   * codes, shown this once.
   */
  confirmAuthenticator: staffProcedure
    .input(z.object({ code: z.string().check(z.maxLength(40)), current: password }))
    .mutation(async ({ ctx, input }) => {
      await checkCurrentPassword(ctx, input.current)
      const codes = await ctx.staff.secondStep.confirmAuthenticator(ctx.session.user.id, ctx.session.user.username, input.code.replace(/\s/g, ''), ctx.actor)
      if (!codes) {
        const message = 'That code is not right: enter the 6 digits the app shows now.'
        throw fieldRefused('code', message)
      }
      return { recoveryCodes: codes }
    }),

  /** Removes the app and the recovery codes, given the current password. */
  removeAuthenticator: staffProcedure.input(z.object({ current: password })).mutation(async ({ ctx, input }) => {
    await checkCurrentPassword(ctx, input.current)
    await ctx.staff.secondStep.removeAuthenticator(ctx.session.user.id, ctx.actor)
    return { removed: true }
  }),

  /**
   * What this browser needs to make a passkey for my account (navigator.credentials.create); the
   * challenge in it works once, for 5 minutes.
   */
  passkeyOptions: staffProcedure.mutation(({ ctx }) => ctx.staff.secondStep.passkeyOptions(ctx.session.user)),

  /**
   * Keeps the passkey the browser made with those options, under a name, given the current
   * password. An account's first second step answers the 10 recovery codes, shown this once
   * (else an empty list).
   */
  addPasskey: staffProcedure
    .input(z.object({ name: z.string().check(z.maxLength(200)), response: z.string().check(z.maxLength(20_000)), current: password }))
    .mutation(async ({ ctx, input }) => {
      await checkCurrentPassword(ctx, input.current)
      const refuse = (message: string, field?: string) => {
        throw field ? fieldRefused(field, message) : new TRPCError({ code: 'BAD_REQUEST', message })
      }
      let response: unknown
      try {
        response = JSON.parse(input.response)
      } catch {
        response = undefined
      }
      if (!response || typeof response !== 'object') return refuse(passkeyMessages.refused)
      try {
        passkeyName(input.name)
        const added = await ctx.staff.secondStep.addPasskey(ctx.session.user.id, input.name, response as RegistrationResponseJSON, ctx.actor)
        return { name: added.passkey.name, recoveryCodes: added.recoveryCodes }
      } catch (error) {
        if (error instanceof PasskeyError) return refuse(error.message, error.field)
        throw error
      }
    }),

  /** Removes one of my passkeys, given the current password. */
  removePasskey: staffProcedure
    .input(z.object({ id: z.int('id must be a whole number').check(z.minimum(1)), current: password }))
    .mutation(async ({ ctx, input }) => {
      await checkCurrentPassword(ctx, input.current)
      if (!(await ctx.staff.secondStep.removePasskey(ctx.session.user.id, input.id, ctx.actor))) {
        throw new TRPCError({ code: 'NOT_FOUND', message: 'That passkey is not on your account any more.' })
      }
      return { removed: true }
    }),

  /** Ten new recovery codes, given the current password; the old ones stop working. */
  newRecoveryCodes: staffProcedure.input(z.object({ current: password })).mutation(async ({ ctx, input }) => {
    await checkCurrentPassword(ctx, input.current)
    if (!(await ctx.staff.secondStep.enabled(ctx.session.user.id))) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Add a passkey or an authenticator app first.' })
    return { recoveryCodes: await ctx.staff.secondStep.newRecoveryCodes(ctx.session.user.id) }
  }),

  /** Signs one of my other browsers out. */
  endSession: staffProcedure
    .input(z.object({ id: z.int('id must be a whole number').check(z.minimum(1)) }))
    .mutation(async ({ ctx, input }) => {
      if (input.id === ctx.session.id) throw new TRPCError({ code: 'BAD_REQUEST', message: 'To end this browser’s session, sign out.' })
      return { ended: await ctx.staff.sessions.endOne(ctx.session.user.id, input.id) }
    }),

  /** Signs every browser out but this one. */
  endOtherSessions: staffProcedure.mutation(async ({ ctx }) => ({
    ended: await ctx.staff.sessions.endOthers(ctx.session.user.id, ctx.session.id),
  })),
})

const role = z.enum(staffRoles, 'A role is owner, manager or sales')

/** Every account (`/staff/accounts`): owners only (PRODUCT.md, "accounts in the browser"). */
export const staffAccountsRouter = router({
  list: staffProcedure.query(async ({ ctx }) => ({ accounts: await ctx.staff.accounts.list(), me: ctx.session.user.id })),

  setRole: staffProcedure
    .input(z.object({ username, role }))
    .mutation(({ ctx, input }) => refusingAccountErrors('role', () => ctx.staff.accounts.setRole(input.username, input.role, ctx.actor))),

  setDisabled: staffProcedure
    .input(z.object({ username, disabled: z.boolean() }))
    .mutation(({ ctx, input }) => refusingAccountErrors(undefined, () => ctx.staff.accounts.setDisabled(input.username, input.disabled, ctx.actor))),

  /**
   * A new account with a role and an email address, and its invitation: a link valid 72 hours
   * that sets its password (PRODUCT.md, "accounts in the browser").
   */
  invite: staffProcedure
    .input(z.object({ username, email: z.string().check(z.maxLength(254, 'An email address has at most 254 characters')), role }))
    .mutation(async ({ ctx, input }) => {
      if (!ctx.staff.links.canSend) throw new TRPCError({ code: 'BAD_REQUEST', message: noMailMessage })
      if (!input.email.trim()) {
        const message = 'An invitation needs the email address it goes to'
        throw fieldRefused('email', message)
      }
      const account = await refusingAccountErrors(
        (message) => (/address/.test(message) ? 'email' : 'username'),
        // Nobody knows this password: the invitation's link sets the real one.
        () => ctx.staff.accounts.add(input.username, { password: randomBytes(24).toString('base64url') }, { role: input.role, email: input.email, actor: ctx.actor }),
      )
      await ctx.staff.links.invite({ id: account.id, username: account.username, email: account.email! })
      return account
    }),

  /** Emails an account a password reset link. */
  sendReset: staffProcedure
    .input(z.object({ username }))
    .mutation(({ ctx, input }) => refusingAccountErrors(undefined, () => ctx.staff.links.sendReset(input.username, ctx.actor))),

  remove: staffProcedure.input(z.object({ username })).mutation(async ({ ctx, input }) => {
    await refusingAccountErrors(undefined, () => ctx.staff.accounts.remove(input.username, ctx.actor))
    return { removed: input.username }
  }),
})
