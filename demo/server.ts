import { readFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import express from 'express'

/**
 * `npm run demo`: partner pages on a second origin (port 3001) that embed the widgets from the
 * dealer's server (DEMO_API_URL, default http://localhost:3000), exactly as a partner would.
 */
const pagesDir = fileURLToPath(new URL('./pages/', import.meta.url))
export const demoPages = ['index', 'dealer-network', 'rentals-landing', 'quote-landing', 'all-elements', 'themed', 'strict-csp'] as const

/** A pinned release as the dealer's `/widgets/versions.json` lists it. */
export interface PinnedRelease {
  version: string
  integrity: string
}

/**
 * The strictest policy a partner page can have with every widget working: nothing by default;
 * in `script-src` only the pinned release's folder, `/widgets/v/{version}/`, which holds its
 * loader and every chunk the loader imports (a policy naming the loader's file alone lets it run
 * and refuses its chunks: every widget would stay blank); the dealer's origin in `connect-src`
 * (data and leads) and `img-src` (cart pictures). The widgets' styles are constructed
 * stylesheets, which `style-src` does not govern, so the page's own `'self'` is enough.
 */
export function strictPolicy(apiUrl: string, pinned: PinnedRelease): string {
  const dealer = new URL(apiUrl).origin
  return [
    "default-src 'none'",
    `script-src 'self' ${dealer}/widgets/v/${pinned.version}/`,
    `connect-src ${dealer}`,
    `img-src 'self' ${dealer}`,
    "style-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

export function createDemoApp(apiUrl: string | (() => string)) {
  const app = express()
  app.disable('x-powered-by')
  app.get(['/', '/:page.html'], async (req, res) => {
    const page = (req.params as { page?: string }).page ?? 'index'
    if (!(demoPages as readonly string[]).includes(page)) return void res.status(404).type('text').send('No such demo page')
    const html = await readFile(`${pagesDir}${page}.html`, 'utf8')
    const api = typeof apiUrl === 'string' ? apiUrl : apiUrl()
    let pinned: PinnedRelease | undefined
    if (page === 'strict-csp') {
      pinned = await latestRelease(api).catch(() => undefined)
      if (!pinned) return void res.status(502).type('text').send(`The dealer's server (${api}) did not say its widget versions: start it first.`)
      res.set('Content-Security-Policy', strictPolicy(api, pinned))
    }
    res.type('html').send(fillIn(html, api, pinned))
  })
  app.get('/demo.css', (_req, res) => res.sendFile(`${pagesDir}demo.css`))
  app.get('/favicon.ico', (_req, res) => res.status(204).end())
  return app
}

/** The newest release the dealer's servers run, with its loader's integrity hash. */
async function latestRelease(apiUrl: string): Promise<PinnedRelease> {
  const answer = await fetch(new URL('/widgets/versions.json', apiUrl))
  const { latest, versions } = (await answer.json()) as { latest: string; versions: PinnedRelease[] }
  const release = versions.find((v) => v.version === latest)
  if (!release) throw new Error('no latest release')
  return release
}

/**
 * `{{API}}` becomes the dealer's origin, `{{VERSION}}` and `{{INTEGRITY}}` a pinned release's
 * (the strict-policy page), `{{CSP}}` the strict policy (a directive a line), and `{{SNIPPET}}`
 * what a partner pastes to get this page: read off the page itself (its theme `<style>`, the
 * loader tag, every element with its fallback content, and a `<template data-snippet>` of
 * optional extras), so what it shows is exactly what it runs.
 */
export function fillIn(html: string, apiUrl: string, pinned?: PinnedRelease): string {
  const filled = html
    .replaceAll('{{API}}', apiUrl.replace(/\/+$/, ''))
    .replaceAll('{{VERSION}}', pinned?.version ?? '')
    .replaceAll('{{INTEGRITY}}', pinned?.integrity ?? '')
    .replaceAll('{{CSP}}', () => (pinned ? strictPolicy(apiUrl, pinned).replaceAll('; ', ';\n    ') : ''))
  return filled.replace('{{SNIPPET}}', () => escapeHtml(snippetOf(filled)))
}

function snippetOf(html: string): string {
  const head = html.slice(0, html.indexOf('</head>'))
  const body = html.slice(html.indexOf('<body'))
  const style = head.match(/<style>\n([\s\S]*?)\n\s*<\/style>/)?.[1]
  const loader = head.match(/<script type="module" src="[^"]+\/widgets\/(?:v\/[^/"]+\/)?gc-widgets\.js"(?: integrity="[^"]+" crossorigin="anonymous")?><\/script>/)?.[0]
  if (!loader) throw new Error('a demo page with a snippet must load the widgets')
  const elements = [...body.matchAll(/<(gc-[a-z-]+)\b[^>]*>[\s\S]*?<\/\1>/g)].map((m) => m[0])
  const extras = body.match(/<template data-snippet>\n([\s\S]*?)\n\s*<\/template>/)?.[1]
  return [
    [style && `<style>\n${dedent(style).replace(/^/gm, '  ')}\n</style>`, loader].filter(Boolean).join('\n'),
    elements.join('\n'),
    extras && dedent(extras),
  ]
    .filter(Boolean)
    .join('\n\n')
}

/** The block's lines less the indent of its first line (the page's own nesting). */
function dedent(block: string): string {
  const indent = block.match(/^ */)![0].length
  return block
    .split('\n')
    .map((line) => line.slice(Math.min(indent, line.match(/^ */)![0].length)))
    .join('\n')
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

export function startDemoServer(port: number, apiUrl: string | (() => string), host = '127.0.0.1'): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createDemoApp(apiUrl).listen(port, host, () => resolve(server))
    server.once('error', reject)
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.DEMO_PORT ?? 3001)
  const apiUrl = process.env.DEMO_API_URL ?? 'http://localhost:3000'
  await startDemoServer(port, apiUrl, process.env.HOST ?? '0.0.0.0')
  console.log(`Partner demo pages on http://localhost:${port}, embedding widgets from ${apiUrl}`)
  console.log(`Start the dealer's server too (npm start), with ALLOWED_ORIGINS=http://localhost:${port} to accept leads from here.`)
}
