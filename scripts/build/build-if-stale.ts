import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** Each browser build: its Vite config, the file that proves it ran, and what it is built from. */
export const builds = [
  {
    name: 'widgets',
    config: 'vite.widgets.config.ts',
    output: 'dist/widgets/gc-widgets.js',
    sources: ['widgets', 'domain', 'scripts/build', 'vite.widgets.config.ts', 'package-lock.json'],
  },
  {
    name: 'site',
    config: 'vite.config.ts',
    output: 'dist/host/client/.vite/manifest.json',
    sources: ['host', 'widgets', 'domain', 'scripts/build', 'vite.config.ts', 'package-lock.json'],
  },
  {
    name: 'site renderer',
    config: 'vite.config.ts',
    ssr: 'host/entry-server.tsx',
    output: 'dist/host/server/entry-server.js',
    sources: ['host', 'widgets', 'domain', 'api', 'scripts/build', 'vite.config.ts', 'package-lock.json'],
  },
] as const

function newestMtime(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtime(join(path, entry))), stat.mtimeMs)
}

export function isStale(build: (typeof builds)[number]): boolean {
  const output = resolve(root, build.output)
  if (!existsSync(output)) return true
  const built = statSync(output).mtimeMs
  return build.sources.some((source) => existsSync(resolve(root, source)) && newestMtime(resolve(root, source)) > built)
}

/**
 * Builds whatever is missing or older than its sources, so `npm start` and the browser tests
 * work on a fresh clone without a separate build step. Returns the names it built.
 */
export async function buildIfStale(): Promise<string[]> {
  const stale = builds.filter(isStale)
  if (stale.length === 0) return []
  const { build } = await import('vite')
  // Vitest sets NODE_ENV=test, and React then bundles its development build (half a megabyte
  // more): what the tests and the benchmarks load must be what visitors get.
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    for (const b of stale) {
      await build({
        configFile: resolve(root, b.config),
        root,
        logLevel: 'warn',
        ...('ssr' in b && { build: { ssr: b.ssr } }),
      })
    }
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
  return stale.map((b) => b.name)
}
