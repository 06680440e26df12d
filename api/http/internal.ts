import { timingSafeEqual } from 'node:crypto'
import express from 'express'
import { backupStream } from '../db/backup-files.ts'
import type { Sql } from '../db/database.ts'
import { parseSince, recentLeads } from '../leads/leads-report.ts'
import { staffAccountRoutes } from '../staff/accounts-internal.ts'
import type { UserStore } from '../users/user-store.ts'
import { inventoryRoutes } from '../staff/inventory-internal.ts'
import type { Inventory } from '../staff/inventory.ts'
import { sendError } from './errors.ts'

/**
 * Staff tools that use the embedded database while the server holds it (`npm run leads`,
 * `npm run staff`, `npm run inventory`, `npm run backup`).
 * Loopback only, and only with the token the server writes into its data folder at start, so
 * only someone who can read that folder can read the leads.
 */
export function internalRoutes(sql: Sql, token: string, accounts: UserStore, inventory: Inventory) {
  const routes = express.Router()
  routes.use((req, res, next) => {
    const loopback = ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(req.socket.remoteAddress ?? '')
    const given = Buffer.from(req.get('authorization')?.replace(/^Bearer /, '') ?? '')
    const expected = Buffer.from(token)
    if (!loopback || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return sendError(res, 404, `No API endpoint at ${req.method} ${req.originalUrl.split('?')[0]}`)
    }
    res.set('Cache-Control', 'no-store')
    next()
  })
  routes.use('/staff', staffAccountRoutes(accounts))
  routes.use('/inventory', inventoryRoutes(inventory))
  // `npm run backup`: the embedded database can be read only by this process, so it writes the
  // backup and the command saves and checks it (api/db/backup-files.ts).
  routes.get('/backup', (_req, res) => {
    res.type('application/gzip')
    backupStream({ sql, embedded: true })
      .on('error', () => res.destroy())
      .pipe(res)
  })
  routes.get('/leads', async (req, res) => {
    try {
      const since = req.query.since ?? '7d'
      if (typeof since !== 'string') return sendError(res, 400, 'Give since once, as a duration such as 7d.')
      res.json(await recentLeads(sql, parseSince(since), { spam: req.query.spam === '1' }))
    } catch (error) {
      sendError(res, 400, (error as Error).message)
    }
  })
  return routes
}
