import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createDemoApp } from '../../demo/server.ts'
import { launchBrowser } from './browser.ts'
import { started } from './site-visits.ts'
import { startTestServer, type TestServer } from './test-server.ts'

export { addLoader, cards } from './widget-pages.ts'

/**
 * The built, minified widget bundle on partner pages served from another origin than the API,
 * in Debian's Chromium. The demo server answers on two origins: 127.0.0.1 (in ALLOWED_ORIGINS)
 * and localhost (not allowed to submit leads), and serves the pages a test writes itself
 * (Chromium refuses loopback requests from a page a test merely fulfils). Call once at the top
 * of a test file. With `site`, the API server also serves the dealer's site and staff console;
 * `env` adds settings (a local provider's, started in a `beforeAll` before this call); `clock` is
 * the server's clock of texting hours and of what its outbox finds due (api/runtime.ts).
 */
export interface PartnerPages {
  browser: Browser
  api: TestServer
  allowedOrigin: string
  foreignOrigin: string
  /** A fresh context, closed after the test. */
  newContext(options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext>
  /**
   * A demo page in a context of its own, recording page errors, console errors, failed answers and
   * every request: for a test that needs a first load (what the bundle fetches, what reaches the
   * API), or more than one page at a time.
   */
  open(path: string, origin?: string, viewport?: { width: number; height: number }): Promise<OpenedPage>
  /**
   * A demo page in the tab kept for the file (the one `openHtml` uses), recorded as `open` does
   * from this load on: a whole load of the page at `viewport`, with no sessionStorage left by
   * another test (so `<gc-inventory>` restores no search it did not make). The HTTP cache is warm,
   * so a test of what a first load fetches or asks the API uses `open`; the tab holds one page at
   * a time.
   */
  look(path: string, origin?: string, viewport?: { width: number; height: number }): Promise<OpenedPage>
  /**
   * A partner page of this HTML on the allowed origin, recorded as `open` does, in a tab kept for
   * the file (at 1280 px whatever the last test set): each page written is a new address, so
   * nothing a widget keeps for its page (`<gc-inventory>`'s search, in the tab's sessionStorage)
   * meets another test's, and a new context costs far more than a load (tests/support/site-visits.ts, `look`).
   * A test that needs a context of its own settings, or a first load of the bundle, uses `open`.
   */
  openHtml(body: string, options?: { head?: string; csp?: string }): Promise<OpenedPage>
}

export function usePartnerPages(options: { site?: boolean; env?: () => Record<string, string>; clock?: () => Date } = {}): PartnerPages {
  let browser: Browser | undefined
  let api: TestServer | undefined
  const pages: PartnerPages = {
    get browser() {
      return started(browser)
    },
    get api() {
      return started(api)
    },
    allowedOrigin: '',
    foreignOrigin: '',
    async newContext(options) {
      const context = await pages.browser.newContext(options)
      contexts.push(context)
      return context
    },
    async open(path, origin = pages.allowedOrigin, viewport = defaultViewport) {
      const opened = recorded(await (await pages.newContext({ viewport })).newPage())
      await opened.page.goto(`${origin}${path}`)
      return opened
    },
    look(path, origin = pages.allowedOrigin, viewport = defaultViewport) {
      return inKeptTab(`${origin}${path}`, viewport)
    },
    openHtml(body, { head = '', csp } = {}) {
      const name = `page-${written.size}`
      const html = `<!doctype html><html lang="en"><head><title>A partner page</title>${head}</head><body>${body}</body></html>`
      written.set(name, { html, csp })
      return inKeptTab(`${pages.allowedOrigin}/written/${name}`, defaultViewport)
    },
  }
  const contexts: BrowserContext[] = []
  let keptTab: OpenedPage | undefined
  /**
   * `url` loaded in the kept tab, its recordings emptied. The sessionStorage of the page it leaves
   * is emptied first, so every origin the tab has left holds none; a page that still finds some
   * when it has loaded (a test that went to another origin itself) fails the test here rather
   * than showing another test's search.
   */
  async function inKeptTab(url: string, viewport: { width: number; height: number }): Promise<OpenedPage> {
    // Not among `contexts`: it outlives each test, and closes with the browser.
    keptTab ??= recorded(await (await pages.browser.newContext({ viewport })).newPage())
    const { page } = keptTab
    // A page may be refused storage (a sandboxed one): then it kept none either.
    if (page.url().startsWith('http')) await page.evaluate(() => void sessionStorage.clear()).catch(() => undefined)
    keptTab.problems.length = 0
    keptTab.requests.length = 0
    await page.setViewportSize(viewport)
    await page.goto(url)
    const kept = await page.evaluate(() => Object.keys(sessionStorage)).catch(() => [])
    if (kept.length) throw new Error(`The kept tab's sessionStorage at ${url} holds ${kept.join(', ')} from an earlier test`)
    return keptTab
  }
  const written = new Map<string, { html: string; csp?: string }>()
  let demo: Server

  beforeAll(async () => {
    let apiUrl = ''
    const app = express()
    app.get('/written/:name', (req, res) => {
      const page = written.get(req.params.name)
      if (page?.csp) res.set('Content-Security-Policy', page.csp)
      res.type('html').send(page?.html)
    })
    app.use(createDemoApp(() => apiUrl))
    demo = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => demo.once('listening', resolve))
    const { port } = demo.address() as AddressInfo
    pages.allowedOrigin = `http://127.0.0.1:${port}`
    pages.foreignOrigin = `http://localhost:${port}`
    api = await startTestServer('pglite', { ...options.env?.(), ALLOWED_ORIGINS: pages.allowedOrigin }, { site: options.site, clock: options.clock })
    apiUrl = pages.api.url
    browser = await launchBrowser()
  })

  afterAll(async () => {
    await browser?.close()
    await api?.close()
    await new Promise((resolve) => demo?.close(resolve))
  })

  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()))
  })

  return pages
}

const defaultViewport = { width: 1280, height: 900 }

/** A page whose errors, failed answers and requests are recorded from now on. */
function recorded(page: Page): OpenedPage {
  const problems: string[] = []
  const requests: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`))
  page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`))
  page.on('request', (r) => requests.push(r.url()))
  return { page, problems, requests }
}

export interface OpenedPage {
  page: Page
  problems: string[]
  requests: string[]
}
