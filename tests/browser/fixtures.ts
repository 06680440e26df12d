import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import AxeBuilder from '@axe-core/playwright'
import { type APIRequest, type BrowserContext, type BrowserContextOptions, test as base, expect, type Page } from '@playwright/test'
import express from 'express'
import { createDemoApp } from '../../demo/server.ts'
import type { StaffRole } from '../../domain/staff-access.ts'
import { phone } from '../support/browser.ts'
import '../support/lighter-work.ts'
import { staffPassword } from '../support/staff.ts'
import { startTestServer, type TestServer } from '../support/test-server.ts'

/**
 * The fixtures every browser spec takes its server, pages and checks from (tests/browser/README.md).
 * Import `test` and `expect` from here, not from @playwright/test.
 *
 * Per worker (started the first time a test of the worker asks, closed when the worker ends):
 * - `server`: the real app with the dealer's site and console over a fresh seeded PGlite
 *   database, with `serverEnv` and the `staffAccounts` added;
 * - `partner`: the demo's partner pages on another origin than their own API server.
 *
 * Per test: Playwright's own `page` in a fresh context, signed in as `signedInAs` through
 * `storageState` when a spec sets it; `problems`, what went wrong in the page; `requests`, every
 * URL the page asked for; and `axe`, the page's accessibility violations.
 */

/** A phone: 390 px, a touch screen. */
/** How long a fixture may take to start a server (see `server`). */
export const serverStartMs = 120_000

export const onPhone: BrowserContextOptions = { viewport: phone, hasTouch: true, isMobile: true }

export interface StaffAccount {
  username: string
  role?: StaffRole
  email?: string
}

export interface PartnerPages {
  /** The API server the widgets talk to; its ALLOWED_ORIGINS is `allowedOrigin`. */
  api: TestServer
  /** The demo server on 127.0.0.1, an allowed origin. */
  allowedOrigin: string
  /** The same demo server on localhost, not allowed to send leads. */
  foreignOrigin: string
  /**
   * The address of a partner page of this HTML on the allowed origin, served with `csp` as its
   * Content-Security-Policy (Chromium refuses loopback requests from a page a test only fulfils).
   */
  write(body: string, options?: { head?: string; csp?: string }): string
}

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: string[]
}

interface WorkerFixtures {
  /** Settings of the worker's `server` (`test.use({ serverEnv })` at the top of a spec). */
  serverEnv: Record<string, string>
  /** Accounts the worker's `server` holds, all with `staffPassword`. */
  staffAccounts: StaffAccount[]
  /** Starts `server`, once: what `server` and `staffSession` take it from. */
  startServer: () => Promise<TestServer>
  /**
   * The worker's `server`'s options beyond its settings: a port named by SITE_URL, a local push
   * service's agent, a clock. A spec's own worker fixture sets them through `test.extend`.
   */
  serverOptions: Omit<NonNullable<Parameters<typeof startTestServer>[2]>, 'site'>
  server: TestServer
  /** Settings of the worker's `partner.api` (`test.use({ partnerEnv })`), beside its ALLOWED_ORIGINS. */
  partnerEnv: Record<string, string>
  /** Whether `partner.api` also serves the dealer's site and console (`test.use({ partnerSite: true })`). */
  partnerSite: boolean
  partner: PartnerPages
  /** The signed-in storage state of an account on `server`, made once per worker and account. */
  staffSession: (username: string) => Promise<BrowserContextOptions['storageState']>
}

interface TestFixtures {
  /** The account each test's context is signed in as (an account of `staffAccounts`), or none. */
  signedInAs: string | undefined
  /** Console and page problems that are expected, as a pattern matched against each `problems` line. */
  expectedProblems: RegExp | undefined
  /** `pageerror: …`, `console: …` (errors) and `<status>: <url>` (answers of 400 and above) of `page`. */
  problems: string[]
  /** Every URL `page` asked for. */
  requests: string[]
  /**
   * Another page, in a fresh context of its own (`options`: a viewport, a phone; signed in as
   * no one), its problems recorded as `problems` records `page`'s; closed after the test. For a
   * test that needs a second visitor, or a fresh visit per step of a loop.
   */
  newPage: (options?: BrowserContextOptions) => Promise<{ page: Page; problems: string[] }>
  /** axe-core against WCAG 2.1 A and AA and axe's best practices, in `page` or the page given. */
  axe: (target?: Page, options?: { include?: string }) => Promise<AxeViolation[]>
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  serverEnv: [{}, { scope: 'worker', option: true }],
  staffAccounts: [[], { scope: 'worker', option: true }],
  partnerEnv: [{}, { scope: 'worker', option: true }],
  partnerSite: [false, { scope: 'worker', option: true }],
  serverOptions: [{}, { scope: 'worker', option: true }],

  // Started the first time it is asked for: by a test that takes `server`, or by a sign-in. Every
  // context's `storageState` depends on `staffSession`, and a spec of the partner's pages alone
  // would otherwise start a server it never uses (under load, past the fixture's 60 s).
  startServer: [
    async ({ serverEnv, serverOptions, staffAccounts }, use) => {
      let started: Promise<TestServer> | undefined
      const start = async () => {
        const server = await startTestServer('pglite', { LOG_LEVEL: 'silent', ...serverEnv }, { ...serverOptions, site: true })
        for (const { username, role, email } of staffAccounts) await server.runtime.services.staff.accounts.add(username, staffPassword, { role, email })
        return server
      }
      await use(() => (started ??= start()))
      if (started) await (await started).close()
    },
    { scope: 'worker' },
  ],

  // A server's start (a database, migrations, the seed, the site) took over 60 s at load 40: the
  // same 120 s vitest gave it, a bound against a hang, not a speed check.
  server: [async ({ startServer }, use) => use(await startServer()), { scope: 'worker', timeout: serverStartMs }],

  partner: [
    async ({ partnerEnv, partnerSite }, use) => {
      let apiUrl = ''
      const written = new Map<string, { html: string; csp?: string }>()
      const app = express()
      app.get('/written/:name', (req, res) => {
        const page = written.get(req.params.name)
        if (page?.csp) res.set('Content-Security-Policy', page.csp)
        res.type('html').send(page?.html)
      })
      app.use(createDemoApp(() => apiUrl))
      const demo: Server = app.listen(0, '127.0.0.1')
      await new Promise((resolve) => demo.once('listening', resolve))
      const { port } = demo.address() as AddressInfo
      const allowedOrigin = `http://127.0.0.1:${port}`
      const api = await startTestServer('pglite', { LOG_LEVEL: 'silent', ...partnerEnv, ALLOWED_ORIGINS: allowedOrigin }, { site: partnerSite })
      apiUrl = api.url
      const write: PartnerPages['write'] = (body, { head = '', csp } = {}) => {
        const name = `page-${written.size}`
        written.set(name, { html: `<!doctype html><html lang="en"><head><title>A partner page</title>${head}</head><body>${body}</body></html>`, csp })
        return `${allowedOrigin}/written/${name}`
      }
      await use({ api, allowedOrigin, foreignOrigin: `http://localhost:${port}`, write })
      await api.close()
      await new Promise((resolve) => demo.close(resolve))
    },
    { scope: 'worker', timeout: serverStartMs },
  ],

  staffSession: [
    async ({ startServer, playwright }, use) => {
      const sessions = new Map<string, Promise<BrowserContextOptions['storageState']>>()
      const signIn = async (username: string) => signedInState(playwright.request, (await startServer()).url, username)
      await use((username) => {
        let session = sessions.get(username)
        if (!session) sessions.set(username, (session = signIn(username)))
        return session
      })
    },
    { scope: 'worker' },
  ],

  signedInAs: [undefined, { option: true }],
  // Its first sign-in may start the worker's server (see `server`).
  storageState: [
    async ({ signedInAs, staffSession, storageState }, use) => {
      await use(signedInAs ? await staffSession(signedInAs) : storageState)
    },
    { scope: 'test', timeout: serverStartMs },
  ],

  expectedProblems: [undefined, { option: true }],
  problems: async ({ page, expectedProblems }, use) => {
    await use(recordProblems(page, expectedProblems))
  },

  newPage: async ({ browser, expectedProblems }, use) => {
    const contexts: BrowserContext[] = []
    await use(async (options) => {
      const context = await browser.newContext(options)
      contexts.push(context)
      const page = await context.newPage()
      return { page, problems: recordProblems(page, expectedProblems) }
    })
    await Promise.all(contexts.map((context) => context.close()))
  },

  requests: async ({ page }, use) => {
    const requests: string[] = []
    page.on('request', (r) => void requests.push(r.url()))
    await use(requests)
  },

  axe: async ({ page }, use) => {
    await use(async (target = page, { include } = {}) => {
      await animationsEnded(target)
      const builder = new AxeBuilder({ page: target })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        // axe.run in the page (and its same-origin frames), as tests/support/browser.ts's check did,
        // rather than a partial run finished in a blank page opened for each check.
        .setLegacyMode()
        // Only violations are read: axe then describes one node at most of its passes and the
        // rest, which took about 40% of each check (docs/BENCHMARKS.md, "The test suite"); the
        // violations and every node of them are the same.
        .options({ resultTypes: ['violations'] })
      if (include) builder.include(include)
      const { violations } = await builder.analyze()
      return violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }))
    })
  },
})

export { expect }
export { desktop, phone, settled } from '../support/browser.ts'
export { addLoader, cards } from '../support/widget-pages.ts'

/** What goes wrong in `page` from now on, but what `expected` matches (see `problems`). */
function recordProblems(page: Page, expected: RegExp | undefined): string[] {
  const problems: string[] = []
  const add = (line: string) => void (expected?.test(line) || problems.push(line))
  page.on('pageerror', (e) => add(`pageerror: ${e.message}`))
  page.on('console', (m) => m.type() === 'error' && add(`console: ${m.text()}`))
  page.on('response', (r) => r.status() >= 400 && add(`${r.status()}: ${r.url()}`))
  return problems
}

/**
 * The page at rest for axe: an element fading in (a toast's 0.2 s entrance) has its colours part-way
 * and fails the contrast check until it ends. Every animation that ends is waited for, in the
 * document and in every shadow root (document.getAnimations() leaves shadow roots out); one that
 * runs for ever or is paused would never end, and is not waited for.
 */
async function animationsEnded(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const roots: (Document | ShadowRoot)[] = [document]
    for (let i = 0; i < roots.length; i++) {
      for (const element of roots[i]!.querySelectorAll('*')) if (element.shadowRoot) roots.push(element.shadowRoot)
    }
    const ending = roots.flatMap((root) => root.getAnimations()).filter((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime))
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)))
  })
}

/**
 * The storage state of `username` signed in at the server at `url`: the sign-in form's post, as
 * tests/support/staff.ts's `signIn` sends it, and the session cookie it sets.
 */
export async function signedInState(request: APIRequest, url: string, username: string): Promise<BrowserContextOptions['storageState']> {
  // An empty storage state said outright: Playwright Test gives a request context the test's
  // own `use` options, so a sign-in asked for inside a test signed in as another account
  // would carry that account's cookie, and the sign-in would end that account's session.
  const context = await request.newContext({ baseURL: url, storageState: { cookies: [], origins: [] } })
  try {
    const answer = await context.post('/staff/login', { form: { username, password: staffPassword }, headers: { origin: url }, maxRedirects: 0 })
    if (answer.status() !== 303) throw new Error(`sign-in of ${username} failed: ${answer.status()} ${await answer.text()}`)
    return await context.storageState()
  } finally {
    await context.dispose()
  }
}

/** Loads a page of the dealer's site and waits until its script has hydrated it. */
export async function visitHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await expect(page.locator('#root')).toHaveAttribute('data-hydrated')
}

/** How far the page scrolls sideways: 0 when it fits its viewport. */
export function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
}
