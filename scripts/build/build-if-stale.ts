import { resolve } from 'node:path'
import { type Build, builds, isStale, root } from './builds.js'

export { builds, isStale }

/**
 * Builds whatever is missing or older than its sources (or everything, with `all`), so
 * `npm start` and the browser tests work on a fresh clone without a separate build step.
 * Returns the names it built.
 */
export async function buildIfStale({ all = false }: { all?: boolean } = {}): Promise<string[]> {
  const stale = all ? builds : builds.filter(isStale)
  if (stale.length === 0) return []
  const { build } = await import('vite')
  // Vitest sets NODE_ENV=test, and React then bundles its development build (half a megabyte
  // more): what the tests and the benchmarks load must be what visitors get.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    for (const b of stale) await buildOne(b, build)
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
  return stale.map((b) => b.name)
}

async function buildOne(b: Build, build: typeof import('vite').build) {
  await build({
    configFile: resolve(root, b.config),
    root,
    logLevel: 'warn',
    ...(b.ssr && { build: { ssr: b.ssr } }),
  })
}
