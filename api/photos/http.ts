import express, { type Request, type Response, type Router } from 'express'
import { parsePhotoFile, photoLimits, photoTypes } from '../../domain/photos.ts'
import { sendError } from '../http/errors.ts'
import { isSameOrigin } from '../staff/http.ts'
import { guardedSession } from '../staff/access.ts'
import { NoSuchCartError } from '../staff/cart-records.ts'
import type { Services } from '../services.ts'
import { staffMessages } from '../trpc/staff-procedure.ts'
import { PhotoConflictError } from './photo-store.ts'
import { photoMessages, photoQueue, PhotoRejectedError, processPhoto } from './processing.ts'

/**
 * `GET /photos/<key>-<width>.<avif|webp|jpg>`: a stored file, from the database every process
 * shares. The name is the content's hash, so the answer never changes: cached for a year,
 * immutable, by browsers and any CDN in front.
 */
export function photoFiles(services: Services): Router {
  const routes = express.Router()
  routes.get('/:file', async (req, res, next) => {
    try {
      const file = parsePhotoFile(req.params.file ?? '')
      if (!file) return sendError(res, 404, `No photo at ${req.path.slice(0, 200)}`)
      if (req.get('if-none-match') === `"${req.params.file}"`) return void res.status(304).end()
      const bytes = await services.photos.file(file.key, file.width, file.format)
      if (!bytes) return sendError(res, 404, `No photo at ${req.path.slice(0, 200)}`)
      res.set({
        'Content-Type': photoTypes[file.format],
        'Cache-Control': 'public, max-age=31536000, immutable',
        ETag: `"${req.params.file}"`,
        'Content-Length': String(bytes.length),
      })
      res.end(req.method === 'HEAD' ? undefined : bytes)
    } catch (error) {
      next(error)
    }
  })
  return routes
}

/**
 * `POST /api/staff/carts/:id/photos`: one photo's bytes as the body (any image type; the file's
 * own header decides), `?alt=` optional, `?place=` (0 is the cover) the place it was picked for
 * (photo-store.ts `add`: photos picked together end in the order picked, whichever arrives first). Guarded like every staff write (api/trpc/staff-procedure.ts):
 * no session, 401; not from the site's own pages, 403; both before a byte of the body is read.
 * Answers 201 with the stored photo.
 */
export function staffPhotoUploads(services: Services, siteOrigin: string): Router {
  const routes = express.Router()
  const readBody = express.raw({ type: () => true, limit: photoLimits.uploadBytes })

  routes.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store')
    next()
  })

  routes.post('/carts/:id/photos', async (req, res, next) => {
    try {
      const session = guardedSession(res)
      if (!session) return refuse(req, res, 401, staffMessages.signIn)
      if (!isSameOrigin(req, siteOrigin)) return refuse(req, res, 403, staffMessages.foreignOrigin)
      const cartId = Number(req.params.id)
      if (!Number.isSafeInteger(cartId) || cartId < 1) return refuse(req, res, 400, 'The cart id must be a positive whole number.')
      const declared = Number(req.get('content-length') ?? 0)
      if (declared > photoLimits.uploadBytes) return refuse(req, res, 413, photoMessages.tooLarge)
      const alt = typeof req.query.alt === 'string' ? req.query.alt.trim().slice(0, photoLimits.alt) : undefined
      const place = req.query.place === undefined ? undefined : Number(req.query.place)
      if (place !== undefined && !(Number.isSafeInteger(place) && place >= 0 && place < photoLimits.perCart)) {
        return refuse(req, res, 400, photoMessages.place)
      }
      const body = await new Promise<Buffer>((resolve, reject) =>
        readBody(req, res, (error?: Error) => (error ? reject(error) : resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)))),
      ).catch((error: { type?: string }) => {
        if (error.type === 'entity.too.large') throw new PhotoRejectedError(photoMessages.tooLarge, 413)
        throw error
      })
      const processed = await photoQueue.run(() => processPhoto(body))
      const actor = { id: session.user.id, name: session.user.username }
      const photo = await services.photos.add(actor, cartId, processed, alt?.replace(/\0/g, ''), place)
      res.status(201).json({ ...photo, processingMs: processed.ms })
    } catch (error) {
      if (error instanceof PhotoRejectedError) return refuse(req, res, error.status, error.message)
      if (error instanceof NoSuchCartError) return refuse(req, res, 404, error.message)
      if (error instanceof PhotoConflictError) return refuse(req, res, 409, error.message)
      next(error)
    }
  })
  return routes
}

/** A refusal in the one error shape; a body not read yet is not waited for. */
function refuse(req: Request, res: Response, status: number, message: string): void {
  if (!req.complete) res.set('Connection', 'close')
  sendError(res, status, message)
}
