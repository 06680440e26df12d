import { afterAll, describe, expect, it } from 'vitest'
import { developmentVite } from './site.ts'

/**
 * `npm run dev` loads the renderer and the console from the sources through Vite's module runner
 * (host/server/site.ts), not from the build: what the build bundles in (React, CommonJS) must
 * load there too, and the console's pages are found by `import.meta.glob` there as in the build.
 */
describe('npm run dev', () => {
  const vite = developmentVite(false)
  afterAll(async () => (await vite).close())

  it('loads the console and its pages from the sources, React with them', async () => {
    // The console's pages import React, its components and the procedures' schemas: what failed
    // ("module is not defined") when the build's bundling-in reached the module runner.
    const { staffPages } = (await (await vite).ssrLoadModule('/host/staff/pages.ts')) as typeof import('../staff/pages.ts')
    expect(staffPages.length).toBeGreaterThan(20)
    expect(staffPages.map((page) => page.path)).toContain('/staff/carts/{id}')
  })
})
