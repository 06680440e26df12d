import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['domain/**/*.test.ts', 'tests/lint/**/*.test.ts', 'host/content/**/*.test.ts', 'scripts/build/**/*.test.ts', 'demo/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'components',
          include: ['widgets/**/*.test.tsx', 'host/components/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['tests/support/component-setup.ts'],
        },
      },
      {
        test: {
          name: 'api',
          include: ['api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'site',
          include: ['host/**/*.test.ts'],
          exclude: ['host/content/**'],
          environment: 'node',
          globalSetup: ['tests/support/build-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/build-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
