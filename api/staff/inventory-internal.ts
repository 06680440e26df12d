import { isAbsolute } from 'node:path'
import express from 'express'
import { maxImportBytes } from '../carts/inventory-csv.ts'
import { StaleImportError } from '../carts/inventory-import.ts'
import { sendError } from '../http/errors.ts'
import { inventoryTool } from './audit.ts'
import type { Inventory } from './inventory.ts'

/**
 * `npm run inventory` against a server that holds the embedded database (mounted behind the
 * loopback token check in api/http/internal.ts). The command sends the file as it is, and the
 * folder its photo file names are read in; the server checks and applies it exactly as it would
 * for a direct connection.
 */
export function inventoryRoutes(inventory: Inventory) {
  const routes = express.Router()
  routes.post('/import', express.text({ type: () => true, limit: maxImportBytes }), async (req, res, next) => {
    try {
      const result = await inventory.importCsv(String(req.body ?? ''), inventoryTool, {
        dryRun: req.query.dryRun === '1',
        filesAllowed: true,
        // The command's CSV folder: this endpoint answers only on loopback with the data
        // folder's token, so its caller is on this machine and may read that folder anyway.
        folder: typeof req.query.folder === 'string' && isAbsolute(req.query.folder) ? req.query.folder : undefined,
      })
      res.json(result)
    } catch (error) {
      if (error instanceof StaleImportError) return sendError(res, 409, error.message)
      next(error)
    }
  })
  routes.get('/export', async (_req, res, next) => {
    try {
      res.type('text/csv').send(await inventory.exportCsv())
    } catch (error) {
      next(error)
    }
  })
  return routes
}
