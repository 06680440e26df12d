import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'domain', include: ['domain/**/*.test.ts'], environment: 'node' },
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
    ],
  },
})
