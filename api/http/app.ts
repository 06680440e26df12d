import type { IncomingMessage, ServerResponse } from 'node:http'
import { createExpressMiddleware } from '@trpc/server/adapters/express'
import express, { type Express } from 'express'
import expressStaticGzip from 'express-static-gzip'
import compression from 'compression'
import type { Env } from '../config/env.ts'
import { staticFolders } from '../config/files.ts'
import type { Database } from '../db/database.ts'
import { appliedVersions } from '../db/migrate.ts'
import { describeError, type Logger } from '../log.ts'
import { createContextInner } from '../trpc/context.ts'
import type { Services } from '../services.ts'
import { appRouter } from '../trpc/router.ts'
import { maxBodyBytes } from './body-limit.ts'
import { widgetReleases } from './widget-releases.ts'
import { cors } from './cors.ts'
import { errorAnswer, errorHandler, HttpError, malformedUrlMessage, sendError } from './errors.ts'
import { createHealth } from './health.ts'
import { internalRoutes } from './internal.ts'
import { capPendingRequestsPerAddress } from './per-address.ts'
import { originStatus } from './origin.ts'
import { createAnswerCache } from './answer-cache.ts'
import { requestInfo } from './request-info.ts'
import { apiPolicy, securityHeaders } from './security.ts'
import { requestLog, requestLogger } from './request-log.ts'
import { restRoutes } from './rest.ts'
import type { StaffRoute } from '../staff/routes.ts'
import { consoleRefusalAnswer, type RespondToRefusal, signInRefusalAnswer, staffRequestInfo, staffRoutes } from '../staff/http.ts'
import { type RespondToConsoleRefusal, staffApiAccess } from '../staff/access.ts'
import { leadDownloads } from '../staff/lead-downloads.ts'
import { feedRoutes } from '../feeds/listing-feeds.ts'
import { staffInventoryUploads } from '../staff/inventory-uploads.ts'
import { photoFiles, staffPhotoUploads } from '../photos/http.ts'
import { refuseAmbiguousSession } from '../staff/cookie.ts'
import { twilioWebhooks } from '../texts/twilio-webhooks.ts'
import { stripeRoutes } from '../deposits/stripe-webhooks.ts'
import { shopperWorkerPath, shopperWorkerSource } from '../alerts/service-worker.ts'

/** What a site mounted on the API server gets to work with. */
export interface SiteContext {
  env: Env
  log: Logger
  services: Services
  /** The site's own answer to a refused staff sign-in: the sign-in page again, the refusal beside the form. */
  answerSignInRefusal(respond: RespondToRefusal): void
  /** The site's own answer to a console request refused by role (403) or not there (404). */
  answerConsoleRefusal(respond: RespondToConsoleRefusal): void
  /**
   * The console's pages, each with its rules (declared in its module, host/staff/page.ts): the
   * guard in front of `/staff` checks them with the plain routes' (api/staff/routes.ts).
   */
  declareConsolePages(pages: () => Promise<readonly StaffRoute[]>): void
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
  const siteOrigin = new URL(env.siteUrl).origin
  const logRequest = requestLogger(log)
  const answers = createAnswerCache(logRequest, {
    maxBytes: env.cacheBytes,
    maxAgeMs: env.cacheMaxAgeMs,
    trustProxy: env.trustProxy,
    keeping: () => services.changes.listening,
  })
  services.changes.onChange(() => answers.clear())
  app.use(requestLog(logRequest))
  app.use(securityHeaders())
  app.use(capPendingRequestsPerAddress())
  app.use(onlyKnownMethods)
  app.use(onlyDecodablePaths)
  // Pages and JSON; precompressed static files already carry their encoding and are skipped.
  app.use(compression())
  app.use(answers.record)

  const health = await createHealth({
    appliedMigrations: () => appliedVersions(db.sql),
    dataDir: db.dataDir,
    env,
    log,
    writeRefusals: services.writeRefusals,
  })
  app.use(health.routes)
  // Two staff session cookies (one tossed in over plain HTTP): refused, never one picked.
  app.use(refuseAmbiguousSession)

  if (internalToken) app.use('/internal', internalRoutes(db.sql, internalToken, services.staff.accounts, services.staff.inventory))
  app.use('/widgets', widgetReleases({ sql: db.sql, dir: widgetsDir, siteUrl: env.siteUrl, log }), widgetFiles(widgetsDir))
  // Photo uploads are staff writes with their own session and origin checks (api/photos/http.ts),
  // before the lead CORS rule, which would let partners' origins through.
  // Everything under /api/staff needs a session and a role its rule allows (domain/staff-access.ts).
  app.use('/api/staff', apiPolicy, staffApiAccess(services))
  app.use('/api/staff', staffPhotoUploads(services, siteOrigin))
  app.use(['/api', '/trpc'], cors(env.allowedOrigins), apiPolicy)
  app.use('/api/staff', staffInventoryUploads(services, siteOrigin))
  app.use('/api', restRoutes(services))
  // Twilio's and Stripe's posts: signature-checked on their raw bodies before anything else.
  app.use(twilioWebhooks({ env, texts: services.texts, log }))
  app.use(stripeRoutes({ env, deposits: services.deposits, rentalDeposits: services.rentalDeposits, log }))
  app.use(
    '/trpc',
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res }) =>
        createContextInner(services, {
          ...requestInfo(req),
          ...staffRequestInfo(req, res, siteOrigin),
          leadOrigin: originStatus(req, env.allowedOrigins),
        }),
      maxBodySize: maxBodyBytes,
      // One procedure per request keeps reads plain cacheable GETs. The lead rate limit does not
      // depend on it: it counts calls of the procedure, batched or not.
      allowBatching: false,
      // Retry-After where the error boundary says one is due (429, 503). Staff answers are for
      // one person's eyes: never stored by a browser or a proxy.
      responseMeta: ({ errors, type, paths }) => {
        const retryAfter = errors
          .map((error) => errorAnswer(error, { mutation: type === 'mutation' }).retryAfter)
          .find((seconds) => seconds !== undefined)
        const staff = paths?.some((p) => p.includes('staff.'))
        // The origin check answers each page for itself: never stored, by a browser or a CDN.
        const perOrigin = paths?.includes('inquiry.originStatus')
        // A price alert's link state is one shopper's, read with the link's token.
        const watchLink = paths?.some((p) => p.startsWith('alert.'))
        return {
          headers: {
            ...(retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) }),
            ...(staff || perOrigin || watchLink ? { 'Cache-Control': 'no-store' } : {}),
            ...(perOrigin ? { Vary: 'Origin' } : {}),
          },
        }
      },
      onError: ({ error, path, type }) => {
        const { failure, status } = errorAnswer(error, { mutation: type === 'mutation' })
        if (failure !== undefined && status !== 503) {
          log.error('procedure failed', { procedure: path, error: describeError(failure) })
        }
      },
    }),
  )

  // The site mounted below renders the sign-in page; until it says how, a refusal is JSON.
  let signInRefusal: RespondToRefusal | undefined
  let consoleRefusal: RespondToConsoleRefusal | undefined
  let consolePages: (() => Promise<readonly StaffRoute[]>) | undefined
  app.use(
    '/staff',
    staffRoutes(services, siteOrigin, signInRefusalAnswer(() => signInRefusal), consoleRefusalAnswer(() => consoleRefusal), () =>
      consolePages ? consolePages() : Promise.resolve([]),
    ),
  )
  app.use('/staff', leadDownloads(services))
  app.use('/feeds', feedRoutes(services, env.siteUrl))

  // Only the two things the public folder holds, so page requests never wait on a file lookup.
  app.use('/images', express.static(`${staticFolders.public}images`, { maxAge: '1d', index: false, fallthrough: false }))
  app.use('/photos', photoFiles(services))
  app.get('/favicon.svg', (_req, res) => res.sendFile(`${staticFolders.public}favicon.svg`, { maxAge: '1d' }))
  // Shoppers' alerts by Web Push (api/alerts/service-worker.ts); fetched again at every registration.
  app.get(shopperWorkerPath, (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('text/javascript').send(shopperWorkerSource)
  })
  await mountSite?.(app, {
    env,
    log,
    services,
    answerSignInRefusal: (respond) => void (signInRefusal = respond),
    answerConsoleRefusal: (respond) => void (consoleRefusal = respond),
    declareConsolePages: (pages) => void (consolePages = pages),
  })
  app.use((req, res) => sendError(res, 404, `Nothing at ${req.method} ${req.path}`))
  app.use(errorHandler(log))
  /** The server's request listener: kept answers first, Express for everything else. */
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (!answers.serve(req, res)) app(req, res)
  }
  return { app, listener, answers, health }
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
 * A path that does not decode (`/widgets/%c0%ae`) is refused here, in the one error shape and
 * with every usual header, before a static file server answers it in its own words.
 */
const onlyDecodablePaths: express.RequestHandler = (req, _res, next) => {
  try {
    decodeURIComponent(req.path)
  } catch {
    return next(new HttpError(400, malformedUrlMessage))
  }
  next()
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
