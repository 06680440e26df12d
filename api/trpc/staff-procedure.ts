import { TRPCError } from '@trpc/server'
import { abilityAccess, procedureAccess, refusalMessage, roleAllows, secondStepNeeded, type StaffAbility } from '../../domain/staff-access.ts'
import type { Actor } from '../staff/audit.ts'
import type { ResolvedSession } from '../staff/sessions.ts'
import { publicProcedure } from './init.ts'

export const staffMessages = {
  signIn: 'Sign in to use the staff console.',
  foreignOrigin: 'Staff changes are accepted only from the site itself.',
  /** A procedure missing from domain/staff-access.ts: refused to everyone until someone decides. */
  undeclared: 'No role may use this yet.',
}

/**
 * Every `staff.*` procedure is built on this (epic-stack's `requireUserId`, as tRPC middleware):
 * no valid session, 401; a role that the procedure's rule in domain/staff-access.ts does not
 * allow (or no rule at all), 403 with a sentence; a write (mutation) that does not come from the
 * site's own origin, 403. It runs before input is read, so nothing about a procedure leaks to
 * someone not allowed to use it.
 */
export const staffProcedure = publicProcedure.use(async ({ ctx, type, path, next }) => {
  // Resolved once per request: by the guard in front of the console and /api/staff, else here.
  const session = ctx.request.session ?? (await ctx.staff.sessions.resolve(ctx.request.staffToken))
  if (!session) throw new TRPCError({ code: 'UNAUTHORIZED', message: staffMessages.signIn })
  const rule = procedureAccess[path]
  if (!rule) throw new TRPCError({ code: 'FORBIDDEN', message: staffMessages.undeclared })
  if (!roleAllows(session.user.role, rule[0])) {
    throw new TRPCError({ code: 'FORBIDDEN', message: refusalMessage(rule, session.user.role) })
  }
  if (session.secondStepMissing && !secondStepNeeded.procedure(path)) {
    throw new TRPCError({ code: 'FORBIDDEN', message: secondStepNeeded.message })
  }
  if (type !== 'query' && ctx.request.sameOrigin !== true) {
    throw new TRPCError({ code: 'FORBIDDEN', message: staffMessages.foreignOrigin })
  }
  const actor: Actor = { id: session.user.id, name: session.user.username }
  return next({ ctx: { session, actor } })
})

/**
 * Inside a procedure, what only some of its callers may do (domain/staff-access.ts,
 * `abilityAccess`): 403 with the sentence for the others.
 */
export function requireAbility(session: ResolvedSession, ability: StaffAbility): void {
  const rule = abilityAccess[ability]
  if (!roleAllows(session.user.role, rule[0])) {
    throw new TRPCError({ code: 'FORBIDDEN', message: refusalMessage(rule, session.user.role) })
  }
}

/** Whether the signed-in person may do `ability` (to show or leave out a control; the server checks again). */
export function hasAbility(session: ResolvedSession, ability: StaffAbility): boolean {
  return roleAllows(session.user.role, abilityAccess[ability][0])
}
