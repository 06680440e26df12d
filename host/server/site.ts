import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Express, Request, Response } from 'express'
import expressStaticGzip from 'express-static-gzip'
import { keepAnswer } from '../../api/http/answer-cache.ts'
import type { SiteContext } from '../../api/http/app.ts'
import { describeError } from '../../api/log.ts'
import { business } from '../../domain/business.ts'
import type { RenderRequest, RenderResult } from '../entry-server.tsx'
import type { PostedForm } from '../form-state.ts'
import { inlineHashes, type PageAssets, renderDocument, sha256Source } from './document.ts'
import { mountContactPost } from './contact-post.ts'
import { mountWatchPosts } from './watch-posts.ts'
import { mountAppointmentPosts, mountBookingForms } from './appointment-posts.ts'
import { mountStaffConsole, type StaffAssets, type StaffRenderer } from './staff-console.ts'
import { robotsTxt, sitemapXml } from './sitemap.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const clientDir = `${root}dist/host/client/`
const serverEntry = `${root}dist/host/server/entry-server.js`

type Render = (request: RenderRequest) => Promise<RenderResult>

/** What the site's build gives the server: the renderers, and the scripts and styles of each kind of page. */
interface Built {
  render: Render
  assets: () => Promise<PageAssets>
  staff: { renderer: () => Promise<StaffRenderer>; assets: () => Promise<StaffAssets> }
}

/**
 * Mounts the website on the API's Express app: built assets, sitemap, robots.txt, and every
 * other GET rendered on the server. In development (NODE_ENV=development) Vite serves the
 * sources with hot reload instead of the build.
 */
export async function mountSite(app: Express, context: SiteContext): Promise<void> {
  const built = context.env.nodeEnv !== 'development'
  const { render, assets, staff } = built ? await production(app) : await development(app)
  const { siteUrl } = context.env

  app.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robotsTxt(siteUrl))
  })
  app.get('/sitemap.xml', async (_req, res) => {
    res.type('application/xml').set('Cache-Control', 'public, max-age=600').send(await sitemapXml(context.services, siteUrl))
  })
  const pageAssets = await assets()
  const policy = built ? pagePolicy(inlineHashes(pageAssets)) : undefined

  /**
   * Every page answer. The same page is the same bytes every time (no nonce to rewrite), so an
   * answer that shows only what a change would clear is kept and served as bytes
   * (api/http/answer-cache.ts) until the next change.
   */
  const send = (req: Request, res: Response, page: SentPage, keep = false, pagePolicy = policy) => {
    if (pagePolicy) res.set('Content-Security-Policy', req.secure ? `${pagePolicy}; upgrade-insecure-requests` : pagePolicy)
    if (page.status === 503) res.set('Retry-After', '30')
    if (keep && built && page.complete) keepAnswer(res)
    if (page.etag) res.set('ETag', page.etag)
    // Staff pages keep the `no-store` their guard gave them.
    res.status(page.status).type('html').set('Cache-Control', res.get('Cache-Control') ?? 'no-cache').end(page.html)
  }

  const renderPage = async (request: Omit<RenderRequest, 'services' | 'siteUrl'>) => {
    const result = await render({ ...request, services: context.services, siteUrl })
    if (result.kind === 'redirect') return result
    const html = renderDocument({ head: result.head, html: result.html, state: result.state, assets: await assets() })
    const etag = `"${createHash('sha1').update(html).digest('base64url')}"`
    return { kind: 'page' as const, status: result.status, complete: result.complete, html, etag }
  }

  /**
   * One render for concurrent requests of one address: the rest wait for it. A change forgets
   * renders under way, so no request that arrives after a change is answered from before it.
   */
  const rendering = new Map<string, ReturnType<typeof renderPage>>()
  context.services.changes.onChange(() => rendering.clear())
  const renderOnce = (url: string) => {
    let pending = rendering.get(url)
    if (!pending) {
      const started = renderPage({ url }).finally(() => rendering.get(url) === started && rendering.delete(url))
      rendering.set(url, started)
      pending = started
    }
    return pending
  }

  // Console pages: their own stylesheet by its hash, their script from the site; never kept.
  const staffPolicy = built ? pagePolicy({ style: sha256Source((await staff.assets()).inlineCss) }) : undefined
  mountStaffConsole(app, context, { ...staff, send: (req, res, page) => send(req, res, page, false, staffPolicy) })

  /** A page rendered for one request and never kept: a form posted without JavaScript, an alert's link. */
  const answerOnce = async (req: Request, res: Response, url: string, postedForm?: PostedForm, status?: number) => {
    const page = await renderPage({ url, postedForm, status })
    if (page.kind === 'page') send(req, res, page)
    else res.redirect(page.status, page.location)
  }
  mountContactPost(app, context, answerOnce)
  mountWatchPosts(app, context, answerOnce)
  mountAppointmentPosts(app, context, answerOnce)
  mountBookingForms(app, context, answerOnce)

  app.get('/{*path}', async (req: Request, res: Response) => {
    try {
      const result = await renderOnce(req.originalUrl)
      if (result.kind === 'redirect') return void res.redirect(result.status, result.location)
      send(req, res, result, true)
    } catch (error) {
      context.log.error('page failed', { path: req.path.slice(0, 200), error: describeError(error) })
      res.status(500).type('html').send(errorPage)
    }
  })
}

interface SentPage {
  status: number
  html: string
  /** Only a complete page is kept. */
  complete?: boolean
  etag?: string
}

/**
 * Only what the site uses: its own scripts, images and API; the inlined stylesheet and the one
 * inline script by their hashes (the hydration data is a JSON data block and never runs); no
 * plugins, no framing by others.
 */
function pagePolicy(hashes: { style?: string; script?: string }): string {
  return [
    "default-src 'self'",
    ['script-src', "'self'", hashes.script].filter(Boolean).join(' '),
    ['style-src', "'self'", hashes.style].filter(Boolean).join(' '),
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ')
}

let renderer: Promise<{ render: Render } & StaffRenderer> | undefined

/**
 * The built renderer (React's server renderer and every page), loaded once. `npm start` asks for
 * it while the database opens (host/server/main.ts), so the first page does not wait for it.
 */
export function loadRenderer(): Promise<{ render: Render } & StaffRenderer> {
  renderer ??= import(pathToFileURL(serverEntry).href) as Promise<{ render: Render } & StaffRenderer>
  return renderer
}

async function production(app: Express): Promise<Built> {
  const manifest = JSON.parse(readFileSync(`${clientDir}.vite/manifest.json`, 'utf8')) as Record<
    string,
    { file: string; css?: string[]; imports?: string[] }
  >
  const entryAssets = (name: string): PageAssets => {
    const entry = manifest[name]
    if (!entry) throw new Error(`The site build has no ${name}; run npm run build`)
    return {
      scripts: [`/${entry.file}`],
      styles: [],
      inlineCss: (entry.css ?? []).map((file) => readFileSync(`${clientDir}${file}`, 'utf8').replaceAll('</style', '<\\/style')).join('\n'),
    }
  }
  const page = entryAssets('host/entry-client.tsx')
  const staffPage = entryAssets('host/staff/entry-client.tsx')
  app.use(
    '/assets',
    expressStaticGzip(`${clientDir}assets`, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { immutable: true, maxAge: '1y', fallthrough: false },
    }),
  )
  const module = await loadRenderer()
  return {
    render: module.render,
    assets: () => Promise.resolve(page),
    staff: { renderer: () => Promise.resolve(module), assets: () => Promise.resolve(staffPage) },
  }
}

/**
 * `npm run dev`'s Vite: the sources served with hot reload (none for a test: no socket), and
 * loaded for the server's render.
 */
export async function developmentVite(hotReload = true) {
  const { createServer } = await import('vite')
  return createServer({ root, server: { middlewareMode: true, ...(hotReload ? {} : { hmr: false, ws: false }) }, appType: 'custom' })
}

async function development(app: Express): Promise<Built> {
  const vite = await developmentVite()
  app.use(vite.middlewares)
  const module = async () => (await vite.ssrLoadModule('/host/entry-server.tsx')) as { render: Render } & StaffRenderer
  return {
    render: async (request) => (await module()).render(request),
    assets: () => Promise.resolve({ scripts: ['/@vite/client', '/host/entry-client.tsx'], styles: [] }),
    staff: {
      renderer: module,
      assets: () => Promise.resolve({ scripts: ['/@vite/client', '/host/staff/entry-client.tsx'], styles: [] }),
    },
  }
}

/** When rendering itself fails: a plain page that still gives the visitor the phone number. */
const errorPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Something went wrong</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1>Something went wrong on our side</h1><p>Please try again in a moment, or call us at <a href="tel:${business.tollFree.tel}">${business.tollFree.display}</a>.</p></body></html>`
