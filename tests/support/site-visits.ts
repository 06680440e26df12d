import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { launchBrowser } from './browser.ts'
import { startTestServer, type TestServer } from './test-server.ts'

export interface Visit {
  page: Page
  problems: string[]
  apiCalls: string[]
}

export const phone = { width: 390, height: 844 }
export const desktop = { width: 1280, height: 900 }

export interface Site {
  browser: Browser
  server: TestServer
  /** A fresh context, closed after the test. */
  newContext(options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext>
  /** Opens a page of the dealer's site and waits for hydration. */
  visit(path: string, viewport?: { width: number; height: number }): Promise<Visit>
}

/** The dealer's own site on a fresh database, in Chromium. Call once at the top of a test file. */
export function useSite(): Site {
  const contexts: BrowserContext[] = []
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
      const page = await (await site.newContext({ viewport })).newPage()
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
      await page.goto(`${site.server.url}${path}`)
      await page.waitForFunction(() => document.querySelector('#root')?.hasAttribute('data-hydrated'))
      return { page, problems, apiCalls }
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

/** What beforeAll starts, for code that runs after it. */
export function started<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('Used before beforeAll started it')
  return value
}
