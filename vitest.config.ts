import { defineConfig } from 'vitest/config'
import { LongestFirst } from './tests/support/sequencer.ts'

export default defineConfig({
  test: {
    // Three test files at a time on two cores (docs/ARCHITECTURE.md, "Tests"): most files spend
    // their time waiting on a server process, a database or Chromium, not on their own CPU.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: { name: 'unit', isolate: false, include: ['domain/**/*.test.ts', 'tests/lint/**/*.test.ts', 'host/content/**/*.test.ts', 'scripts/build/**/*.test.ts', 'demo/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'components',
          isolate: false,
          include: ['widgets/**/*.test.tsx', 'host/components/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['tests/support/component-setup.ts'],
        },
      },
      {
        test: {
          name: 'api',
          isolate: false,
          include: ['api/**/*.test.ts'],
          environment: 'node',
          // The build: spawned servers run the built server, as npm start does (tests/support/server-process.ts).
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/build-setup.ts'],
          setupFiles: ['tests/support/lighter-work.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'site',
          isolate: false,
          include: ['host/**/*.test.ts'],
          exclude: ['host/content/**'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/build-setup.ts'],
          setupFiles: ['tests/support/lighter-work.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'browser',
          isolate: false,
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          // A page waits on a server, a database and Chromium sharing two cores with two other test
          // files: expect.poll's default second was seen too short on loaded CI runs for a first
          // draw of a widget. A poll that would never succeed still fails, after 10 s.
          expect: { poll: { timeout: 10_000 } },
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/build-setup.ts', 'tests/support/browser-setup.ts'],
          setupFiles: ['tests/support/lighter-work.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
