import express from 'express'
import { sendError } from '../http/errors.ts'
import { AccountError, roleProblem, type UserStore } from '../users/user-store.ts'
import type { StaffRole } from '../../domain/staff-access.ts'

/**
 * `npm run staff` against a server that holds the embedded database (mounted behind the loopback
 * token check in api/http/internal.ts). The command hashes the password itself: only the hash
 * crosses the socket.
 */
export function staffAccountRoutes(accounts: UserStore) {
  const routes = express.Router()
  routes.use(express.json({ limit: '10kb' }))
  const run = (work: (req: express.Request) => Promise<unknown>): express.RequestHandler => async (req, res, next) => {
    try {
      res.json((await work(req)) ?? { ok: true })
    } catch (error) {
      if (error instanceof AccountError) return sendError(res, 400, error.message)
      next(error)
    }
  }
  const body = (req: express.Request) => (req.body ?? {}) as { username?: unknown; hash?: unknown; role?: unknown; email?: unknown }
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  routes.get('/', run(() => accounts.list()))
  routes.post(
    '/',
    run((req) => {
      const { role, email } = body(req)
      if (role !== undefined && (typeof role !== 'string' || roleProblem(role))) throw new AccountError('A role is owner, manager or sales')
      return accounts.add(text(body(req).username), { hash: text(body(req).hash) }, {
        role: role as StaffRole | undefined,
        email: typeof email === 'string' ? email : undefined,
      })
    }),
  )
  routes.put('/:username/role', run((req) => accounts.setRole(String(req.params.username), text(body(req).role))))
  routes.put('/:username/password', run((req) => accounts.setPassword(String(req.params.username), { hash: text(body(req).hash) })))
  routes.delete('/:username', run((req) => accounts.remove(String(req.params.username))))
  return routes
}
