import { defineConfig } from '@playwright/test'
import { launchOptions } from './tests/support/browser.ts'

/**
 * Playwright Test runs the browser specs, tests/browser/*.spec.ts (tests/browser/README.md);
 * vitest runs everything else. `npm test` runs both (scripts/test.js).
 */
export default defineConfig({
  testDir: 'tests/browser',
  testMatch: '*.spec.ts',
  outputDir: 'test-results',
  // The build and the database templates, once per run, by vitest's own set-up modules.
  globalSetup: './tests/browser/global-setup.ts',
  // A suite that passes by retrying hides its flakiness: a failure fails the run.
  retries: 0,
  // Two, one a core: each worker holds its own server and Chromium, and beside vitest's three
  // workers more would only queue for the cores. Not yet measured against 1 and 3 on an idle
  // machine (2026-12-07 the machine's load stood at 9-28 from other runs): measure when more
  // specs are migrated, with `npx playwright test --workers N` and scripts/test.js's CPU line.
  workers: 2,
  fullyParallel: false,
  forbidOnly: true,
  // A page waits on a server, a database and Chromium sharing two cores with vitest, the lint and
  // the type check. A bound against a hang: the longest console stories took 48 s in vitest under load, and hit 60 s
  // in a clean-clone npm test at load 14.
  timeout: 120_000,
  // Web-first assertions wait for what they mean; this is the bound after which one that never
  // comes fails, not a speed check. Every test starts with an empty cache: a cold first load of
  // the partner page with every widget (widgets.spec.ts) took over 10 s at load 30.
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    // Debian's Chromium, never a downloaded one, kept off the network (tests/support/browser.ts).
    launchOptions,
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
  },
})
