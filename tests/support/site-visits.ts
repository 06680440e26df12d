import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { desktop, launchBrowser } from './browser.ts'
import { startTestServer, type TestServer } from './test-server.ts'

export interface Visit {
  page: Page
  problems: string[]
  apiCalls: string[]
}

export { desktop, phone } from './browser.ts'

export interface Site {
  browser: Browser
  server: TestServer
  /** A fresh context, closed after the test. */
  newContext(options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext>
  /** Opens a page of the dealer's site and waits for hydration. */
  visit(path: string, viewport?: { width: number; height: number }): Promise<Visit>
  /**
   * The same, in one tab kept for the file and sized to `viewport`: a full load and hydration of `path`,
   * its problems recorded from this load on, without the new context and tab `visit` makes. A
   * new context costs far more than a load in a kept tab: the 20 axe checks of
   * tests/browser/site.test.ts took 41-57 CPU-s less this way, 2-2.8 CPU-s a context, on
   * a slow hour's machine. For what a visitor sees and does on a page; a test that must be a first
   * visit (what a fresh page asks the API for), routes requests or changes the context uses `visit`.
   */
  look(path: string, viewport?: { width: number; height: number }): Promise<Visit>
}

/** The dealer's own site on a fresh database, in Chromium. Call once at the top of a test file. */
export function useSite(): Site {
  const contexts: BrowserContext[] = []
  let kept: Visit | undefined
  let browser: Browser | undefined
  let server: TestServer | undefined
  const site: Site = {
    get browser() {
      return started(browser)
    },
    get server() {
      return started(server)
    },
    async newContext(options) {
      const context = await site.browser.newContext(options)
      contexts.push(context)
      return context
    },
    async visit(path, viewport = desktop) {
      const visit = recorded(await (await site.newContext({ viewport })).newPage())
      await loadHydrated(visit.page, `${site.server.url}${path}`)
      return visit
    },
    async look(path, viewport = desktop) {
      // Not among `contexts`: it outlives each test, and closes with the browser.
      kept ??= recorded(await (await site.browser.newContext({ viewport })).newPage())
      kept.problems.length = 0
      kept.apiCalls.length = 0
      await kept.page.setViewportSize(viewport)
      await loadHydrated(kept.page, `${site.server.url}${path}`)
      return kept
    },
  }

  beforeAll(async () => {
    server = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()))
  })
  return site
}

/** A page whose errors and API requests are recorded from now on. */
function recorded(page: Page): Visit {
  const problems: string[] = []
  const apiCalls: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => {
    // React reports hydration mismatches as console errors: any of them fails the test.
    if (m.type() === 'error' && !m.text().includes('404')) problems.push(`console: ${m.text()}`)
  })
  page.on('request', (r) => {
    if (r.url().includes('/trpc/') || r.url().includes('/api/')) apiCalls.push(r.url())
  })
  return { page, problems, apiCalls }
}

/** Loads `url` in the page and waits until the site's script has hydrated it. */
async function loadHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.waitForFunction(() => document.querySelector('#root')?.hasAttribute('data-hydrated'))
}

/** What beforeAll starts, for code that runs after it. */
export function started<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('Used before beforeAll started it')
  return value
}
