import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startServerProcess } from '../../tests/support/server-process.ts'

/**
 * The site tests' set-up builds inside Vitest, which sets NODE_ENV=test; what they test must
 * still be the bundle visitors get: React's production build, minified.
 */
describe('the built site bundle', () => {
  it('is React production code, minified', () => {
    // The site's entry, the staff console's and the chunks they share: every one is what a
    // browser gets, so every one must be the production build.
    const dir = fileURLToPath(new URL('../../dist/host/client/assets/', import.meta.url))
    const files = readdirSync(dir).filter((f) => f.endsWith('.js'))
    expect(files.some((f) => f.startsWith('entry-client'))).toBe(true)
    let total = 0
    for (const file of files) {
      const code = readFileSync(`${dir}${file}`, 'utf8')
      expect(code, file).not.toContain('react-dom.development')
      expect(code, file).not.toMatch(/Warning: [A-Z]/)
      total += code.length
    }
    expect(total).toBeLessThan(500_000)
  })
})

describe('the site server', () => {
  it('runs in production mode when NODE_ENV is unset, as npm start leaves it', async () => {
    // React chooses its development or production build from NODE_ENV when first loaded; the
    // development build renders pages several times slower (the soak benchmark found it).
    const server = await startServerProcess({ DATA_DIR: mkdtempSync(join(tmpdir(), 'gc-mode-')) }, 60_000, 'host/server/main.ts')
    try {
      expect(server.output()).toContain('"msg":"server started"')
      expect(server.output()).toContain('"mode":"production"')
      const home = await fetch(server.url)
      expect(home.status).toBe(200)
      expect(await home.text()).toContain('<h1')
    } finally {
      await server.stop()
    }
  }, 90_000)
})

describe('npm start', () => {
  it('serves from the built server with Node alone: no TypeScript loader, no build tools in the process', async () => {
    const server = await startServerProcess({ DATA_DIR: mkdtempSync(join(tmpdir(), 'gc-start-')) }, 60_000, 'scripts/start.js')
    try {
      expect(server.output()).toContain('"mode":"production"')
      expect(await (await fetch(server.url)).text()).toContain('<h1')
      const list = await fetch(`${server.url}/api/golf-carts`)
      // The starting inventory: "100+ carts in stock".
      expect(Number(list.headers.get('x-total-count'))).toBeGreaterThanOrEqual(100)
      expect(((await list.json()) as unknown[]).length).toBeGreaterThan(0)
      // tsx starts an esbuild service and Vite loads Rolldown's native binding: neither may be
      // there. The process's mapped files and its children say what it loaded.
      const pid = server.child.pid!
      const maps = readFileSync(`/proc/${pid}/maps`, 'utf8')
      expect(maps).not.toMatch(/esbuild|rolldown|lightningcss/)
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim()
      expect(children).toBe('')
    } finally {
      await server.stop()
    }
  }, 90_000)
})
