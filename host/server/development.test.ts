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

  it('loads the renderer and every console page from the sources', async () => {
    const server = await vite
    const entry = (await server.ssrLoadModule('/host/entry-server.tsx')) as typeof import('../entry-server.tsx')
    const { staffPages } = (await server.ssrLoadModule('/host/staff/pages.ts')) as typeof import('../staff/pages.ts')
    expect(staffPages.length).toBeGreaterThan(20)
    expect(entry.consoleRoutes.map((route) => route.key)).toContain('GET /staff/carts/{id}')
    // React renders there: the sign-in form, with where it goes next.
    const { html } = entry.renderSignIn(undefined, undefined, '/staff/feeds')
    expect(html).toContain('<form')
    expect(html).toContain('/staff/feeds')
  })
})
