import type { IncomingMessage, ServerResponse } from 'node:http'
import { createExpressMiddleware } from '@trpc/server/adapters/express'
import express, { type Express, type RequestHandler } from 'express'
import expressStaticGzip from 'express-static-gzip'
import compression from 'compression'
import type { Env } from '../config/env.ts'
import { staticFolders } from '../config/files.ts'
import type { Database } from '../db/database.ts'
import { readDeadlineMs, withDeadline } from '../db/unavailable.ts'
import { describeError, type Logger } from '../log.ts'
import { createContextInner, type Services } from '../trpc/context.ts'
import { appRouter } from '../trpc/router.ts'
import { cors } from './cors.ts'
import { errorHandler, sendError } from './errors.ts'
import { internalRoutes } from './internal.ts'
import { createHotCache } from './hot-cache.ts'
import { leadRateLimit } from './rate-limit.ts'
import { apiPolicy, securityHeaders } from './security.ts'
import { requestLog, requestLogger } from './request-log.ts'
import { restRoutes } from './rest.ts'

/** What a site mounted on the API server gets to work with. */
export interface SiteContext {
  env: Env
  log: Logger
  services: Services
  /** The lead rate limit, for the site's own form posts. */
  leadRateLimit: RequestHandler
}

/** Adds the website's routes after the API's and before the final not-found answer. */
export type MountSite = (app: Express, context: SiteContext) => Promise<void> | void

export interface AppDependencies {
  db: Database
  env: Env
  log: Logger
  services: Services
  /** Another widget build to serve (the benchmark compares a React build). */
  widgetsDir?: string
  /** Enables the loopback staff routes (`npm run leads` against the embedded database). */
  internalToken?: string
  mountSite?: MountSite
}

export async function createApp({
  db,
  env,
  log,
  services,
  widgetsDir = staticFolders.widgets,
  internalToken,
  mountSite,
}: AppDependencies) {
  const app = express()
  app.disable('x-powered-by')
  if (env.trustProxy > 0) app.set('trust proxy', env.trustProxy)
  const logRequest = requestLogger(log)
  const hot = createHotCache(logRequest, env.cartCacheMs)
  services.carts.onChange(() => hot.clear())
  app.use(requestLog(logRequest))
  app.use(securityHeaders())
  app.use(onlyKnownMethods)
  // Pages and JSON; precompressed static files already carry their encoding and are skipped.
  app.use(compression())
  app.use(hot.record)

  app.get('/healthz', async (_req, res) => {
    try {
      await withDeadline(db.sql`select 1`, readDeadlineMs)
      res.json({ status: 'ok' })
    } catch (error) {
      log.warn('health check failed', { error: describeError(error) })
      sendError(res, 503, 'The database is not answering')
    }
  })

  if (internalToken) app.use('/internal', internalRoutes(db.sql, internalToken))
  app.use('/widgets', widgetFiles(widgetsDir))
  app.use(['/api', '/trpc'], cors(env.allowedOrigins), apiPolicy)
  const rateLimit = leadRateLimit(db.sql, env.leadRateLimit)
  app.post(['/api/contact', '/trpc/inquiry.submit'], rateLimit)
  app.use('/api', restRoutes(services))
  app.use(
    '/trpc',
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req }) => createContextInner(services, { referer: req.get('referer') }),
      maxBodySize: 100 * 1024,
      // One procedure per request: a batch could slip several submissions past the rate limit.
      allowBatching: false,
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') {
          log.error('procedure failed', { procedure: path, error: describeError(error.cause ?? error) })
        }
      },
    }),
  )

  // Only the two things the public folder holds, so page requests never wait on a file lookup.
  app.use('/images', express.static(`${staticFolders.public}images`, { maxAge: '1d', index: false, fallthrough: false }))
  app.get('/favicon.svg', (_req, res) => res.sendFile(`${staticFolders.public}favicon.svg`, { maxAge: '1d' }))
  await mountSite?.(app, { env, log, services, leadRateLimit: rateLimit })
  app.use((req, res) => sendError(res, 404, `Nothing at ${req.method} ${req.path}`))
  app.use(errorHandler(log))
  /** The server's request listener: the hot cache first, Express for everything else. */
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (!hot.serve(req, res)) app(req, res)
  }
  return { app, listener }
}

/**
 * The partner bundle: readable from any origin (module scripts need CORS), precompressed, the
 * hashed chunks cached for a year, the loader for five minutes so a release reaches partners.
 */
function widgetFiles(dir: string) {
  return expressStaticGzip(dir, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      fallthrough: true,
      setHeaders(res, path) {
        res.setHeader('Access-Control-Allow-Origin', '*')
        res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin')
        res.setHeader(
          'Cache-Control',
          path.includes('/chunks/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        )
      },
    },
  })
}

/**
 * The everyday methods go on to the routes, which answer 404 or 405 with their own Allow;
 * TRACE, PROPFIND and the like stop here with 405, before any handler can trip over them.
 */
const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
const onlyKnownMethods: express.RequestHandler = (req, res, next) => {
  if (knownMethods.has(req.method)) return next()
  res.set('Allow', 'GET, HEAD, POST, OPTIONS')
  sendError(res, 405, `${req.method.slice(0, 20)} is not supported`)
}
