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
 * Debian's Chromium, driven by Playwright, for a benchmark or a tool outside the tests (the specs
 * launch it through playwright.config.ts); Playwright never downloads a browser of its own. The
 * flags keep it off the network this machine does not have.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch(launchOptions)
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
