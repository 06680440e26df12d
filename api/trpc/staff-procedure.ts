import { TRPCError } from '@trpc/server'
import type { Actor } from '../staff/audit.ts'
import { publicProcedure } from './init.ts'

export const staffMessages = {
  signIn: 'Sign in to use the staff console.',
  foreignOrigin: 'Staff changes are accepted only from the site itself.',
}

/**
 * Every `staff.*` procedure is built on this (epic-stack's `requireUserId`, as tRPC middleware):
 * no valid session, 401; a write (mutation) that does not come from the site's own origin, 403.
 * It runs before input is read, so nothing about a procedure leaks to someone not signed in.
 */
export const staffProcedure = publicProcedure.use(async ({ ctx, type, next }) => {
  const session = await ctx.staff.sessions.resolve(ctx.request.staffToken)
  if (!session) throw new TRPCError({ code: 'UNAUTHORIZED', message: staffMessages.signIn })
  if (type !== 'query' && ctx.request.sameOrigin !== true) {
    throw new TRPCError({ code: 'FORBIDDEN', message: staffMessages.foreignOrigin })
  }
  const actor: Actor = { id: session.user.id, name: session.user.username }
  return next({ ctx: { session, actor } })
})
