import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Express, Request, Response } from 'express'
import expressStaticGzip from 'express-static-gzip'
import type { SiteContext } from '../../api/http/app.ts'
import { describeError } from '../../api/log.ts'
import { business } from '../../domain/business.ts'
import type { RenderRequest, RenderResult } from '../entry-server.tsx'
import { type PageAssets, renderDocument } from './document.ts'
import { mountContactPost } from './contact-post.ts'
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
  const pages = pageCache(built ? context.env.cartCacheMs : 0)
  context.services.carts.onChange(() => pages.clear())

  /** Every page answer: a fresh nonce in the policy and in the page. */
  const send = (req: Request, res: Response, page: { status: number; html: string }) => {
    const nonce = randomBytes(16).toString('base64')
    if (built) res.set('Content-Security-Policy', pagePolicy(nonce, req.secure))
    if (page.status === 503) res.set('Retry-After', '30')
    // No ETag: with a fresh nonce in every answer, no two answers are the same bytes. Staff
    // pages keep the `no-store` their guard gave them.
    res.status(page.status).type('html').set('Cache-Control', res.get('Cache-Control') ?? 'no-cache').end(page.html.replaceAll(nonceMark, nonce))
  }

  const renderPage = async (request: Omit<RenderRequest, 'services' | 'siteUrl'>) => {
    const result = await render({ ...request, services: context.services, siteUrl })
    if (result.kind === 'redirect') return result
    const html = renderDocument({ head: result.head, html: result.html, state: result.state, assets: await assets(), nonce: nonceMark })
    return { kind: 'page' as const, status: result.status, complete: result.complete, html }
  }

  mountStaffConsole(app, context, { ...staff, send, nonce: nonceMark })

  mountContactPost(app, context, async (req, res, url, postedForm, status) => {
    const page = await renderPage({ url, postedForm, status })
    if (page.kind === 'page') send(req, res, page)
  })

  app.get('/{*path}', async (req: Request, res: Response) => {
    try {
      let page: { status: number; html: string } | undefined = pages.get(req.originalUrl)
      if (!page) {
        const generation = pages.generation()
        const result = await renderPage({ url: req.originalUrl })
        if (result.kind === 'redirect') return void res.redirect(result.status, result.location)
        page = result
        if (result.complete) pages.set(req.originalUrl, page, generation)
      }
      send(req, res, page)
    } catch (error) {
      context.log.error('page failed', { path: req.path.slice(0, 200), error: describeError(error) })
      res.status(500).type('html').send(errorPage)
    }
  })
}

/** Stands for the nonce in a stored page; replaced by a fresh one in every answer. */
const nonceMark = `gcnonce${randomBytes(12).toString('hex')}`

/**
 * Only what the site uses: its own scripts, images and API; the inlined stylesheet by nonce
 * (the hydration data is a JSON data block and never runs); no plugins, no framing by others.
 */
function pagePolicy(nonce: string, secure: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
    ...(secure ? ['upgrade-insecure-requests'] : []),
  ].join('; ')
}

/**
 * Rendered pages reused for the same short time as the cart answers they show, and forgotten
 * on any cart write. Pages that could not load all their data are never reused.
 */
function pageCache(ttlMs: number) {
  const entries = new Map<string, { status: number; html: string; expires: number }>()
  let generation = 0
  return {
    generation: () => generation,
    get(url: string) {
      const entry = entries.get(url)
      if (!entry) return undefined
      if (entry.expires > Date.now()) return entry
      entries.delete(url)
      return undefined
    },
    set(url: string, page: { status: number; html: string }, renderedIn: number) {
      if (ttlMs <= 0 || renderedIn !== generation) return
      if (entries.size >= 500) entries.clear()
      entries.set(url, { ...page, expires: Date.now() + ttlMs })
    },
    clear() {
      generation++
      entries.clear()
    },
  }
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
  const module = (await import(pathToFileURL(serverEntry).href)) as { render: Render } & StaffRenderer
  return {
    render: module.render,
    assets: () => Promise.resolve(page),
    staff: { renderer: () => Promise.resolve(module), assets: () => Promise.resolve(staffPage) },
  }
}

async function development(app: Express): Promise<Built> {
  const { createServer } = await import('vite')
  const vite = await createServer({ root, server: { middlewareMode: true }, appType: 'custom' })
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
