import { createHash } from 'node:crypto'
import express, { type Request, type Response, type Router } from 'express'
import { maxImportBytes } from '../carts/inventory-csv.ts'
import { type ImportPlan, StaleImportError } from '../carts/inventory-import.ts'
import type { RowPhotos } from '../carts/import-photos.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { sendError } from '../http/errors.ts'
import type { Services } from '../services.ts'
import { guardedSession } from './access.ts'
import { isSameOrigin } from './http.ts'

/**
 * The inventory spreadsheet for the console (PRODUCT.md, "import and export"): upload a file to
 * see every change it would make, then confirm exactly that preview. Files are too large for
 * tRPC's body limit, so these are plain routes, guarded like every staff write: no session, 401;
 * a write not from the site's own pages, 403, before the body is read.
 *
 * - `POST /api/staff/inventory/check`, the CSV as the body: `{ ok: false, problems }` (every bad
 *   row, nothing changed) or `{ ok: true, adds, updates, unchanged, fingerprint }`.
 * - `POST /api/staff/inventory/import?fingerprint=...`, the same CSV: applies it only if checking
 *   it again gives the same plan (409 otherwise: someone changed the inventory since the preview).
 * - `GET /api/staff/inventory.csv`: the export, every cart.
 *
 * In the console, photos come as uploads, so photo file names in the file are refused; photos
 * named by URL are fetched (api/carts/import-photos.ts): header-checked for the preview,
 * processed for the import, before its transaction.
 */
export const inventoryUploadPaths = {
  check: staffPaths.inventoryCheckApi,
  import: staffPaths.inventoryImportApi,
  export: staffPaths.inventoryExport,
} as const

/** One plan, one fingerprint: the preview a person confirmed is the one applied, photos included. */
export function planFingerprint(plan: ImportPlan, photos: readonly RowPhotos[] = []): string {
  const shape = {
    adds: plan.adds.map((a) => [a.line, a.record]),
    updates: plan.updates.map((u) => [u.line, u.id, u.version, u.changes]),
    unchanged: plan.unchanged,
    photos: photos.map((r) => [r.line, r.photos.map((p) => p.key)]),
  }
  return createHash('sha256').update(JSON.stringify(shape)).digest('base64url')
}

export function staffInventoryUploads(services: Services, siteOrigin: string): Router {
  const routes = express.Router()
  const readBody = express.text({ type: () => true, limit: maxImportBytes })

  routes.use('/inventory', (_req, res, next) => {
    res.set('Cache-Control', 'no-store')
    next()
  })

  /** The staff member, or an answer already sent. */
  const guard = async (req: Request, res: Response, write: boolean) => {
    const session = guardedSession(res)
    if (!session) return refuse(req, res, 401, 'Sign in to use the console.')
    if (write && !isSameOrigin(req, siteOrigin)) return refuse(req, res, 403, 'Console changes are accepted only from the site itself.')
    if (write && Number(req.get('content-length') ?? 0) > maxImportBytes) {
      return refuse(req, res, 413, `The file is larger than ${maxImportBytes / 1024 / 1024} MB.`)
    }
    return { id: session.user.id, name: session.user.username }
  }
  const body = (req: Request, res: Response) =>
    new Promise<string>((resolve, reject) => readBody(req, res, (error?: Error) => (error ? reject(error) : resolve(typeof req.body === 'string' ? req.body : ''))))

  routes.post('/inventory/check', async (req, res, next) => {
    try {
      const actor = await guard(req, res, true)
      if (!actor) return
      const checked = await services.staff.inventory.check(await body(req, res), { filesAllowed: false })
      if (!checked.ok) return res.json(checked)
      const { plan, photosNamed, photosToAdd, photos } = checked
      res.json({
        ok: true,
        adds: plan.adds,
        updates: plan.updates,
        unchanged: plan.unchanged,
        photosNamed,
        photosToAdd,
        fingerprint: planFingerprint(plan, photos),
      })
    } catch (error) {
      next(error)
    }
  })

  routes.post('/inventory/import', async (req, res, next) => {
    try {
      const actor = await guard(req, res, true)
      if (!actor) return
      const fingerprint = typeof req.query.fingerprint === 'string' ? req.query.fingerprint : ''
      // Photos are fetched and processed before the write; the preview only checked them.
      const checked = await services.staff.inventory.check(await body(req, res), { filesAllowed: false, processPhotos: true })
      if (!checked.ok) return res.status(400).json({ message: 'The file has problems; nothing was imported.', ...checked })
      if (planFingerprint(checked.plan, checked.photos) !== fingerprint) {
        return sendError(res, 409, 'The inventory or the file changed since the preview. Check the file again to see what it would change now.')
      }
      res.json(await services.staff.inventory.apply(checked.plan, actor, checked.photos))
    } catch (error) {
      if (error instanceof StaleImportError) return sendError(res, 409, error.message)
      next(error)
    }
  })

  routes.get('/inventory.csv', async (req, res, next) => {
    try {
      if (!(await guard(req, res, false))) return
      res.set('Content-Disposition', `attachment; filename="inventory-${new Date().toISOString().slice(0, 10)}.csv"`)
      res.type('text/csv; charset=utf-8').send(await services.staff.inventory.exportCsv())
    } catch (error) {
      next(error)
    }
  })
  return routes
}

/** A refusal in the one error shape; a body not read yet is not waited for. */
function refuse(req: Request, res: Response, status: number, message: string): undefined {
  if (!req.complete) res.set('Connection', 'close')
  sendError(res, status, message)
  return undefined
}
