import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startServerProcess } from '../../tests/support/server-process.ts'
import { templateDataDir } from '../../tests/support/database-templates.ts'

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
    // The console's script carries drag and drop and the photo scaling (docs/decisions/0030); visitor pages' budgets are below.
    expect(total).toBeLessThan(600_000)
  })

  it("leaves React's browser renderer out of the server's renderer, which carries React's production build", () => {
    // Components that hydrate themselves import react-dom/client; kept in the server's renderer,
    // it ran at every start for 100 ms (docs/decisions/0013-lean-start.md). The build gives the
    // renderer host/server/no-browser-renderer.ts in its place (which nothing the server runs
    // calls, so it is left out too), and bundles the rest of React.
    const renderer = readFileSync(fileURLToPath(new URL('../../dist/host/server/entry-server.js', import.meta.url)), 'utf8')
    expect(renderer).toContain('react-dom-server-legacy.node.production')
    expect(renderer).not.toContain('react-dom-client.')
    expect(renderer).not.toMatch(/from ["']react-dom\/client["']|import ["']react-dom\/client["']/)
    expect(renderer).not.toMatch(/react(-dom-server(-legacy)?\.node)?\.development/)
  })
})

/**
 * What each kind of page downloads (docs/decisions/0014-islands.md): the entry, and for a page
 * with islands the island runtime, each island's chunk and what they import, as the build's
 * manifest links them. Bytes are those sent: the brotli file where the build made one. Before
 * islands every page loaded one bundle of 121,153 bytes (454,877 uncompressed).
 */
describe('JavaScript per page', () => {
  const dir = fileURLToPath(new URL('../../dist/host/client/', import.meta.url))
  const manifest = JSON.parse(readFileSync(`${dir}.vite/manifest.json`, 'utf8')) as Record<
    string,
    { file: string; imports?: string[]; dynamicImports?: string[] }
  >
  const files = (keys: string[], into = new Set<string>()): Set<string> => {
    for (const key of keys) {
      const chunk = manifest[key]
      if (!chunk) throw new Error(`The site build has no ${key}`)
      if (into.has(chunk.file)) continue
      into.add(chunk.file)
      files(chunk.imports ?? [], into)
    }
    return into
  }
  const sent = (file: string) => {
    try {
      return statSync(`${dir}${file}.br`).size
    } catch {
      return statSync(`${dir}${file}`).size
    }
  }
  const entry = 'host/entry-client.tsx'
  /** The plain script that starts a page's islands, each now or when the shopper reaches for it; it imports the runtime. */
  const starter = 'host/islands/reach.ts'
  const runtime = 'host/islands/client.tsx'
  const data = ['host/islands/data.tsx']
  const toasts = ['widgets/shared/toast.tsx']
  /** Each island's chunks with the helpers it asks for (host/islands/islands.ts), and the budget of a page that has it. */
  const pages: [page: string, modules: string[], budget: number][] = [
    // Compare and Save's plain script is on every page (the header's lists, the cards' toggles): about 0.8 kB of the entry.
    // /services/request too: its drop-off time is part of its server-rendered form (docs/decisions/0046).
    ['a page without islands (home, about, services, service request, rentals, counties, policies, 404)', [], 2_400],
    ['/financing (the calculator)', ['widgets/payment-calculator/payment-calculator.tsx'], 70_000],
    ['a vehicle with photos (the gallery)', ['widgets/vehicle-detail/gallery.tsx'], 75_000],
    // With deposits (issue #52): Hold's form asks the API, so the page carries the data island's client.
    ['an available vehicle with deposits (the gallery and Hold)', ['widgets/vehicle-detail/gallery.tsx', 'widgets/vehicle-detail/hold-form.tsx', ...data], 104_000],
    ['/contact (the form)', ['widgets/contact-form/contact-form.tsx', ...data, ...toasts], 101_000],
    ['/rentals/request (the rental request)', ['widgets/rental-request/rental-request.tsx', ...data, ...toasts], 105_000],
    // Booking a visit (issue #51): "Book a test drive" on every cart for sale.
    ['a vehicle for sale (the gallery, Hold and Book a test drive)', ['widgets/vehicle-detail/gallery.tsx', 'widgets/vehicle-detail/hold-form.tsx', 'widgets/book-visit/book-visit.tsx', ...data, ...toasts], 107_000],
  ]
  /** /inventory searches in place with plain script: no island runtime, no React (issue #31). */
  const inventoryScript = 'host/islands/inventory.ts'

  it('knows every chunk the island runtime can load', () => {
    const known = new Set(pages.flatMap(([, modules]) => modules))
    expect(manifest[entry]?.dynamicImports).toContain(starter)
    expect(manifest[starter]?.dynamicImports).toEqual([runtime])
    expect(new Set(manifest[runtime]?.dynamicImports)).toEqual(known)
  })

  it('gives /inventory the entry and its plain search script alone: no React, no API client, under 6.4 kB', () => {
    expect(manifest[entry]?.dynamicImports).toContain(inventoryScript)
    const loaded = files([entry, inventoryScript])
    const code = [...loaded].map((file) => readFileSync(`${dir}${file}`, 'utf8')).join('\n')
    expect(code).not.toMatch(/react\.(transitional\.)?element|hydrateRoot|createTRPCClient|QueryClient/)
    expect([...loaded].reduce((sum, file) => sum + sent(file), 0)).toBeLessThan(6_400)
  })

  it('gives a page without islands the entry alone: no React', () => {
    expect([...files([entry])]).toHaveLength(1)
    const code = readFileSync(`${dir}${manifest[entry]!.file}`, 'utf8')
    expect(code).not.toMatch(/react\.(transitional\.)?element|hydrateRoot/)
  })

  it.each(pages)('keeps %s within its budget', (_, modules, budget) => {
    const loaded = files(modules.length > 0 ? [entry, starter, runtime, ...modules] : [entry])
    const bytes = [...loaded].reduce((sum, file) => sum + sent(file), 0)
    expect(bytes).toBeLessThan(budget)
    expect(bytes).toBeLessThan(121_153)
  })
})

describe('the site server', () => {
  it('runs in production mode when NODE_ENV is unset, as npm start leaves it', async () => {
    // React chooses its development or production build from NODE_ENV when first loaded; the
    // development build renders pages several times slower (the soak benchmark found it).
    const server = await startServerProcess({ DATA_DIR: templateDataDir('gc-mode-') }, 60_000, 'host/server/main.ts')
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
      // The starting inventory: over a hundred carts.
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
