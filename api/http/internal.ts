import { timingSafeEqual } from 'node:crypto'
import express from 'express'
import { pipeline } from 'node:stream/promises'
import { backupEstimate, backupStream } from '../db/backup-files.ts'
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
/** How long a backup waits for its reader to take more before it is given up. */
const backupStallMs = 30_000

export function internalRoutes(sql: Sql, token: string, accounts: UserStore, inventory: Inventory) {
  const routes = express.Router()
  routes.use((req, res, next) => {
    // Through a proxy on this machine every visitor comes from loopback: a request a proxy
    // forwarded (it says so in its headers) is not a staff command's (issue #47).
    const forwarded = ['x-forwarded-for', 'forwarded', 'via', 'x-real-ip'].some((header) => req.headers[header] !== undefined)
    const loopback = !forwarded && ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(req.socket.remoteAddress ?? '')
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
  // backup and the command saves and checks it (api/db/backup-files.ts). The command asks for the
  // estimate first, to refuse a disk without room before anything starts. Whatever becomes of the
  // command (a full disk, Ctrl+C, a stalled pipe), the backup's transaction ends with its
  // connection: a reader that takes nothing for 30 s is cut, so the database's one connection is
  // never held for good and leads keep being taken.
  routes.get('/backup/estimate', async (_req, res) => {
    res.json({ bytes: await backupEstimate(sql) })
  })
  routes.get('/backup', (req, res) => {
    res.type('application/gzip')
    req.socket.setTimeout(backupStallMs, () => req.socket.destroy())
    pipeline(backupStream({ sql, embedded: true }), res).catch(() => res.destroy())
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
