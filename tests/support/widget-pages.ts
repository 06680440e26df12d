import type { Page } from 'playwright-core'

/** Widgets on a partner page, for the browser specs (through tests/browser/fixtures.ts). */

/** The loaded cards of an element (skeletons excluded). */
export const cards = (page: Page, element: string) => page.locator(`${element} .gc-card:not(.gc-card--skeleton)`)

/** Adds the loader the way a CMS or a framework does: a module script, appended after the page loaded. */
export async function addLoader(page: Page, apiUrl: string, query = '') {
  await page.evaluate(
    ({ apiUrl, query }) => {
      const script = document.createElement('script')
      script.type = 'module'
      script.src = `${apiUrl}/widgets/gc-widgets.js${query}`
      document.head.append(script)
    },
    { apiUrl, query },
  )
}
