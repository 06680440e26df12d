import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WidgetRelease } from '../../domain/widget-releases.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'
import { createWidgetReleaseStore } from './widget-releases.ts'

/** A widget build in a folder of its own, as `vite.widgets.config.ts` leaves one. */
function fakeBuild(dir: string, marker: string): WidgetRelease {
  const files: Record<string, string> = {
    'gc-widgets.js': `(()=>{console.log(${JSON.stringify(marker)});import("./chunks/inventory-${marker}.js")})();\n`,
    [`chunks/inventory-${marker}.js`]: `customElements.define("gc-${marker}",class extends HTMLElement{});\n`,
  }
  mkdirSync(join(dir, 'chunks'), { recursive: true })
  for (const [path, text] of Object.entries(files)) {
    writeFileSync(join(dir, path), text)
    writeFileSync(join(dir, `${path}.br`), brotliCompressSync(text))
    writeFileSync(join(dir, `${path}.gz`), gzipSync(text))
  }
  const loader = files['gc-widgets.js']!
  const release: WidgetRelease = {
    version: `0.1.0-${createHash('sha256').update(loader).digest('hex').slice(0, 10)}`,
    integrity: `sha384-${createHash('sha384').update(loader).digest('base64')}`,
    files: Object.keys(files).sort(),
  }
  writeFileSync(join(dir, 'release.json'), JSON.stringify(release))
  return release
}

const sha384 = (bytes: ArrayBuffer) => `sha384-${createHash('sha384').update(Buffer.from(bytes)).digest('base64')}`

describe.each(backends)('pinned widget versions (%s)', (backend) => {
  let server: TestServer
  let folder: string
  let current: WidgetRelease
  let older: WidgetRelease
  let olderDir: string

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'gc-widget-releases-'))
    current = fakeBuild(join(folder, 'current'), 'b')
    olderDir = join(folder, 'older')
    older = fakeBuild(olderDir, 'a')
    server = await startTestServer(backend, { LOG_LEVEL: 'silent' }, { widgetsDir: join(folder, 'current') })
  })
  afterAll(async () => {
    await server?.close()
    rmSync(folder, { recursive: true, force: true })
  })

  it('serves the running build at its versioned address, immutable, readable from any origin, matching its integrity', async () => {
    const res = await fetch(`${server.url}/widgets/v/${current.version}/gc-widgets.js`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(sha384(await res.arrayBuffer())).toBe(current.integrity)
    const chunk = await fetch(`${server.url}/widgets/v/${current.version}/chunks/inventory-b.js`, { headers: { 'accept-encoding': 'br' } })
    expect(chunk.headers.get('content-encoding')).toBe('br')
    expect(await chunk.text()).toContain('gc-b')
  })

  it('keeps serving an earlier release byte for byte from the database after an upgrade, and lists both, newest first', async () => {
    // The earlier build was run by a server before this one: it stored its files then.
    const store = createWidgetReleaseStore(server.db.sql)
    await store.store(older, olderDir)
    await server.db.sql`update widget_releases set released_at = now() - interval '30 days' where version = ${older.version}`
    rmSync(olderDir, { recursive: true, force: true })
    const res = await fetch(`${server.url}/widgets/v/${older.version}/gc-widgets.js`)
    expect(res.status).toBe(200)
    expect(sha384(await res.arrayBuffer())).toBe(older.integrity)
    expect(await (await fetch(`${server.url}/widgets/v/${older.version}/chunks/inventory-a.js`)).text()).toContain('gc-a')

    // The running build is stored too, in the background at start.
    await expect.poll(async () => (await server.db.sql`select version from widget_releases order by released_at desc`).map((r) => r.version), { timeout: 10_000 }).toEqual([
      current.version,
      older.version,
    ])
    const listed = await fetch(`${server.url}/widgets/versions.json`)
    expect(listed.headers.get('access-control-allow-origin')).toBe('*')
    const body = await listed.json()
    expect(body.latest).toBe(current.version)
    expect(body.newest).toBe(`${server.env.siteUrl}/widgets/gc-widgets.js`)
    expect(body.versions.map((v: { version: string; integrity: string; loader: string }) => [v.version, v.integrity, v.loader])).toEqual([
      [current.version, current.integrity, `${server.env.siteUrl}/widgets/v/${current.version}/gc-widgets.js`],
      [older.version, older.integrity, `${server.env.siteUrl}/widgets/v/${older.version}/gc-widgets.js`],
    ])
  })

  it('never changes a stored release: storing it again leaves its files as they were', async () => {
    const store = createWidgetReleaseStore(server.db.sql)
    const tampered = join(folder, 'tampered')
    const release = fakeBuild(tampered, 'a')
    writeFileSync(join(tampered, 'gc-widgets.js'), 'alert("changed")')
    expect(await store.store(release, tampered)).toBe(false)
    const [row] = await server.db.sql`select body from widget_release_files where version = ${older.version} and path = 'gc-widgets.js'`
    expect(sha384(row!.body)).toBe(older.integrity)
  })

  it('answers 404 for a release it never had, a name that is not a version, and a path out of a release', async () => {
    for (const path of [
      '/widgets/v/0.1.0-0000000000/gc-widgets.js',
      '/widgets/v/latest/gc-widgets.js',
      `/widgets/v/${current.version}/chunks/..%2fgc-widgets.js`,
      `/widgets/v/${current.version}/release.json`,
    ]) {
      const res = await fetch(`${server.url}${path}`)
      expect(res.status, path).toBe(404)
      expect((await res.json()).message, path).toMatch(/^No widget file at /)
    }
  })
})
