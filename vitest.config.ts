import { existsSync } from 'node:fs'
import { defineConfig } from 'vitest/config'
import { LongestFirst } from './tests/support/sequencer.ts'

/**
 * The API's files that spend most of their wall time waiting out real time: leases and a slow mail
 * server, sign-in delays, slow clients, push deliveries, and the server processes and commands
 * they start, stop, kill and start again. They run in the `long` project, whose files start first
 * (tests/support/sequencer.ts). In the `api` project the largest of them started together, and
 * the cores idled for 22-27 CPU-s (docs/ARCHITECTURE.md, "Tests"); they were then spread one at a
 * time among this project's browser files. Those are Playwright Test's specs now, run beside
 * vitest (scripts/test.js), and these files start together again: how the cores fare is not yet
 * measured. A worker is kept only for files of its own project, so they are the `long` project's
 * files rather than placed between its files from another project.
 */
const apiFilesThatWait = [
  'api/leads/outbox-worker.test.ts',
  'api/staff/sign-in-limits.test.ts',
  'api/server.test.ts',
  'api/leads/lead-alerts.test.ts',
  'api/start-waits.test.ts',
  'api/staff/staff-command.test.ts',
  'api/staff/inventory-command.test.ts',
  'api/db/backup-command.test.ts',
  'api/leads/restart.test.ts',
  'api/main.test.ts',
  'api/crash.test.ts',
  'api/alerts/alert-processes.test.ts',
  'api/staff/featured-two-processes.test.ts',
]
const missing = apiFilesThatWait.filter((file) => !existsSync(new URL(file, import.meta.url)))
if (missing.length) throw new Error(`vitest.config.ts names test files that are not there: ${missing.join(', ')}`)

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
          // A bound against a hang, not a speed check: a grid of 24 cards took 5.2-5.8 s in
          // happy-dom with the whole suite at load 10, past vitest's default 5 s.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'api',
          isolate: false,
          include: ['api/**/*.test.ts'],
          exclude: apiFilesThatWait,
          environment: 'node',
          // The build: spawned servers run the built server, as npm start does (tests/support/server-process.ts).
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/build-setup.ts'],
          setupFiles: ['tests/support/lighter-work.ts'],
          // Bounds against a hang, not speed checks: at load 20 (a clean-clone run beside two
          // Lighthouse benches) one test of 80 procedures × 4 requests took 30 s.
          testTimeout: 60_000,
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
          // Bounds against a hang, as the api project's.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // The API's files that wait (above): the files that take longest.
          name: 'long',
          isolate: false,
          include: apiFilesThatWait,
          environment: 'node',
          // A server, a database and the processes a file starts share two cores with two other
          // test files and the browser specs: expect.poll's default second was seen too short on
          // loaded CI runs. These files poll for something to arrive, never that it came within a
          // second; a poll that would never succeed still fails, after 10 s.
          expect: { poll: { timeout: 10_000 } },
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/build-setup.ts'],
          setupFiles: ['tests/support/lighter-work.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
