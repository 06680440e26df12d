import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Browser, chromium, type Page } from 'playwright-core'

/** Debian's Chromium (CHROMIUM_PATH overrides), off the network: also Playwright Test's (playwright.config.ts). */
export const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
}

/** The two widths pages are checked at: a phone's 390 px and a desk's 1280 px. */
export const phone = { width: 390, height: 844 }
export const desktop = { width: 1280, height: 900 }

/**
 * Debian's Chromium, driven by Playwright; Playwright never downloads a browser of its own.
 * The flags keep it off the network this machine does not have.
 *
 * In a test run, the run's one Chromium (tests/support/browser-setup.ts), connected to: the
 * Browser is the caller's own (its contexts are its own, and `close()` closes them and
 * disconnects), only the browser process is shared. Elsewhere (a benchmark, a screenshot
 * tool) a Chromium of its own.
 */
export function launchBrowser(): Promise<Browser> {
  const shared = process.env.GC_TEST_BROWSER
  return shared ? chromium.connect(shared) : chromium.launch(launchOptions)
}

/** Starts the Chromium that `launchBrowser()` connects to from now on; returns what stops it. */
export async function launchSharedBrowser(): Promise<() => Promise<void>> {
  const server = await chromium.launchServer(launchOptions)
  process.env.GC_TEST_BROWSER = server.wsEndpoint()
  return async () => {
    delete process.env.GC_TEST_BROWSER
    await server.close()
  }
}

/**
 * The page at rest, for a test that checks something did NOT happen after an action (no refetch,
 * no navigation, nothing lost): no request in flight for 500 ms (Playwright's "networkidle"), and
 * two frames painted since, so every handler of the action has run. It waits for the page to have
 * had its chance, never for a fixed time.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: string[]
}

/**
 * axe-core in the page, shadow roots included, against WCAG 2.1 A and AA and axe's best
 * practices. Returns the violations, each with the selectors of the offending nodes.
 */
export async function axeViolations(page: Page, include?: string): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
  // govern; a <script> tag added to the page would be refused by it, as it should be. Once per
  // document: a page checked again after a click still has it (measured: about 0.16 s of
  // Chromium's CPU a copy, and 0.4-0.6 s for the check itself).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  return page.evaluate(async (context) => {
    // The page at rest: an element fading in (a toast's 0.2 s entrance) has its colours part-way
    // and fails the contrast check until it ends. Every animation that ends is waited for, in
    // the document and in every shadow root (document.getAnimations() leaves shadow roots out);
    // one that runs for ever or is paused would never end, and is not waited for.
    const roots: (Document | ShadowRoot)[] = [document]
    for (let i = 0; i < roots.length; i++) {
      for (const element of roots[i]!.querySelectorAll('*')) if (element.shadowRoot) roots.push(element.shadowRoot)
    }
    const ending = roots.flatMap((root) => root.getAnimations()).filter((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime))
    await Promise.all(ending.map((a) => a.finished.catch(() => undefined)))
    const axe = (window as typeof window & { axe: typeof import('axe-core') }).axe
    const result = await axe.run(context ?? document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    })
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => JSON.stringify(n.target)),
    }))
  }, include)
}
