import { readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Express, Request, Response } from 'express'
import expressStaticGzip from 'express-static-gzip'
import type { SiteContext } from '../../api/server.ts'
import { describeError } from '../../api/log.ts'
import { business } from '../../domain/business.ts'
import type { RenderRequest, RenderResult } from '../entry-server.tsx'
import { type PageAssets, renderDocument } from './document.ts'
import { robotsTxt, sitemapXml } from './sitemap.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const clientDir = `${root}dist/host/client/`
const serverEntry = `${root}dist/host/server/entry-server.js`

type Render = (request: RenderRequest) => Promise<RenderResult>

/**
 * Mounts the website on the API's Express app: built assets, sitemap, robots.txt, and every
 * other GET rendered on the server. In development (NODE_ENV=development) Vite serves the
 * sources with hot reload instead of the build.
 */
export async function mountSite(app: Express, context: SiteContext): Promise<void> {
  const { render, assets } = context.env.nodeEnv === 'development' ? await development(app) : await production(app)
  const { siteUrl } = context.env

  app.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robotsTxt(siteUrl))
  })
  app.get('/sitemap.xml', async (_req, res) => {
    res.type('application/xml').set('Cache-Control', 'public, max-age=600').send(await sitemapXml(context.services, siteUrl))
  })
  app.get('/{*path}', async (req: Request, res: Response) => {
    try {
      const result = await render({ url: req.originalUrl, services: context.services, siteUrl })
      if (result.kind === 'redirect') return void res.redirect(result.status, result.location)
      res
        .status(result.status)
        .type('html')
        .set('Cache-Control', 'no-cache')
        .send(renderDocument({ head: result.head, html: result.html, state: result.state, assets: await assets() }))
    } catch (error) {
      context.log.error('page failed', { path: req.path.slice(0, 200), error: describeError(error) })
      res.status(500).type('html').send(errorPage)
    }
  })
}

async function production(app: Express): Promise<{ render: Render; assets: () => Promise<PageAssets> }> {
  const manifest = JSON.parse(readFileSync(`${clientDir}.vite/manifest.json`, 'utf8')) as Record<
    string,
    { file: string; css?: string[]; imports?: string[] }
  >
  const entry = manifest['host/entry-client.tsx']
  if (!entry) throw new Error('The site build has no entry; run npm run build')
  const page: PageAssets = {
    scripts: [`/${entry.file}`],
    styles: [],
    inlineCss: (entry.css ?? []).map((file) => readFileSync(`${clientDir}${file}`, 'utf8').replaceAll('</style', '<\\/style')).join('\n'),
    preloads: (entry.imports ?? []).flatMap((key) => (manifest[key] ? [`/${manifest[key].file}`] : [])),
  }
  app.use(
    '/assets',
    expressStaticGzip(`${clientDir}assets`, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { immutable: true, maxAge: '1y', fallthrough: false },
    }),
  )
  const { render } = (await import(pathToFileURL(serverEntry).href)) as { render: Render }
  return { render, assets: async () => page }
}

async function development(app: Express): Promise<{ render: Render; assets: () => Promise<PageAssets> }> {
  const { createServer } = await import('vite')
  const vite = await createServer({ root, server: { middlewareMode: true }, appType: 'custom' })
  app.use(vite.middlewares)
  return {
    render: async (request) => {
      const module = (await vite.ssrLoadModule('/host/entry-server.tsx')) as { render: Render }
      return module.render(request)
    },
    assets: async () => ({ scripts: ['/@vite/client', '/host/entry-client.tsx'], styles: [], preloads: [] }),
  }
}

/** When rendering itself fails: a plain page that still gives the visitor the phone number. */
const errorPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Something went wrong</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1>Something went wrong on our side</h1><p>Please try again in a moment, or call us at <a href="tel:${business.tollFree.tel}">${business.tollFree.display}</a>.</p></body></html>`
