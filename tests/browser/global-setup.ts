import buildSetup from '../support/build-setup.ts'
import templatesSetup from '../support/global-setup.ts'

/**
 * Playwright Test's global set-up (playwright.config.ts): what vitest's global set-up does for its
 * browser tests, by the same modules. The bundles are built when out of date, and the database
 * templates made and named in GC_TEST_TEMPLATES, which the workers inherit. Returns what removes them.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  await buildSetup()
  const removeTemplates = await templatesSetup()
  return async () => {
    await removeTemplates?.()
  }
}
