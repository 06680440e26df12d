import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type ServerProcess, startServerProcess } from '../../tests/support/server-process.ts'
import { startTcpProxy, type TcpProxy } from '../../tests/support/tcp-proxy.ts'
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'

/**
 * docs/DEPLOY.md, "Several processes": deploy/haproxy.cfg itself in front of two server processes
 * on one PostgreSQL. A process that dies loses no visitor and no lead; a database that stops
 * answering leaves the processes in the rotation (alive, /healthz) serving their kept pages,
 * instead of HAProxy's bare 503.
 *
 * CI installs HAProxy (.ci/run), so this runs there; elsewhere it runs when `haproxy` is on the
 * PATH and is reported skipped when not.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))

/** Debian installs it in /usr/sbin, which is not on every user's PATH. */
function haproxyBinary(): string | undefined {
  for (const binary of ['/usr/sbin/haproxy', 'haproxy']) {
    try {
      execFileSync(binary, ['-v'], { stdio: 'ignore' })
      return binary
    } catch {
      // the next
    }
  }
  return undefined
}
const haproxyPath = haproxyBinary()

/**
 * The deploy file as a test can run it: its one listening address on a free loopback port, the
 * processes' addresses where the test started them, and without what needs root or a real
 * certificate (the system log, the haproxy user, daemon mode, every TLS line).
 */
function forTest(config: string, listen: number, servers: number[]): string {
  let serverIndex = 0
  const lines: string[] = []
  let bound = false
  for (const line of config.split('\n')) {
    const trimmed = line.trim()
    if (/ssl/.test(trimmed) || /^(user|group|daemon|log \/dev\/log)\b/.test(trimmed)) continue
    if (trimmed.startsWith('bind ')) {
      if (!bound) lines.push(`    bind 127.0.0.1:${listen}`)
      bound = true
      continue
    }
    const server = trimmed.match(/^server (\S+) 127\.0\.0\.1:\d+(.*)$/)
    if (server) {
      lines.push(`    server ${server[1]} 127.0.0.1:${servers[serverIndex++ % servers.length]}${server[2]}`)
      continue
    }
    lines.push(line)
  }
  return lines.join('\n')
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

const ready = process.env.TEST_DATABASE_URL && haproxyPath

describe.skipIf(!ready)('deploy/haproxy.cfg in front of two processes on one PostgreSQL', () => {
  let db: TestDatabase
  let proxy: TcpProxy
  let servers: ServerProcess[]
  let haproxy: ChildProcess
  let haproxyOutput = ''
  let site: string
  const dir = mkdtempSync(join(tmpdir(), 'gc-haproxy-'))

  beforeAll(async () => {
    db = await createTestDatabase('postgres', 'seeded')
    // The processes reach PostgreSQL through a proxy the test can cut.
    const url = new URL(db.url!)
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) })
    url.host = `127.0.0.1:${proxy.port}`
    const env = { DATABASE_URL: url.href, TRUST_PROXY: '1', LOG_LEVEL: 'info' }
    servers = await Promise.all([0, 1].map(() => startServerProcess(env, 90_000)))
    const listen = await freePort()
    const config = forTest(
      readFileSync(join(root, 'deploy/haproxy.cfg'), 'utf8'),
      listen,
      servers.map((s) => Number(new URL(s.url).port)),
    )
    writeFileSync(join(dir, 'haproxy.cfg'), config)
    haproxy = spawn(haproxyPath!, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] })
    haproxy.stdout?.on('data', (chunk) => (haproxyOutput += chunk))
    haproxy.stderr?.on('data', (chunk) => (haproxyOutput += chunk))
    site = `http://127.0.0.1:${listen}`
    await vi
      .waitFor(async () => expect((await fetch(`${site}/readyz`)).status).toBe(200), { timeout: 10_000, interval: 100 })
      .catch((error: unknown) => {
        throw new Error(`HAProxy did not serve the site: ${haproxyOutput}`, { cause: error })
      })
  }, 150_000)

  afterAll(async () => {
    haproxy?.kill('SIGTERM')
    await Promise.all((servers ?? []).map((s) => s.stop('SIGKILL')))
    await proxy?.close()
    await db?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const pages = ['/', '/inventory', '/rentals', '/about']
  const lead = (firstName: string) =>
    fetch(`${site}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ firstName, lastName: 'Lee', email: `${firstName.toLowerCase()}@example.com`, message: 'A six-seater for July' }),
    })

  it('serves pages through both processes', async () => {
    for (const path of pages) {
      const res = await fetch(`${site}${path}`)
      expect(res.status, `${path}: ${haproxyOutput}`).toBe(200)
      expect((await res.text()).trimEnd()).toMatch(/<\/html>$/)
    }
  })

  it('keeps the site up through a database outage: the processes stay in the rotation and serve what they keep', { timeout: 60_000 }, async () => {
    // Kept by both processes first (round robin: each path twice, twice over).
    for (let i = 0; i < 4; i++) for (const path of pages) await fetch(`${site}${path}`)
    await proxy.stop()
    try {
      // No process is ready now; HAProxy sends traffic to the live ones instead of its own 503.
      await vi.waitFor(async () => expect((await fetch(`${site}/readyz`)).status).toBe(503), { timeout: 15_000, interval: 250 })
      await new Promise((resolve) => setTimeout(resolve, 3000))
      // The site answers, not HAProxy ("503 Service Unavailable: No server is available…"): pages
      // that need no database as always, the others kept or with the site's own outage page.
      for (const path of pages) {
        const res = await fetch(`${site}${path}`)
        const body = await res.text()
        expect(body).not.toMatch(/No server is available/)
        expect(body.trimEnd(), path).toMatch(/<\/html>$/)
        expect(res.status, path).toBe(path === '/rentals' || path === '/about' ? 200 : res.status === 503 ? 503 : 200)
      }
      const refused = await lead('Ann')
      expect(refused.status).toBe(503)
      expect(((await refused.json()) as { message: string }).message).toMatch(/not sent/i)
    } finally {
      await proxy.start()
    }
    await vi.waitFor(async () => expect((await fetch(`${site}/readyz`)).status).toBe(200), { timeout: 15_000, interval: 250 })
  })

  it('loses no page and no lead when a process is killed', { timeout: 60_000 }, async () => {
    servers[0]!.child.kill('SIGKILL')
    // At once, before any health check has noticed: HAProxy sends the refused connection on.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => fetch(`${site}${pages[i % pages.length]}`).then((r) => r.status)))
    expect(answers).toEqual(Array(20).fill(200))
    const sent = await Promise.all(['Bo', 'Cy', 'Di', 'Ed'].map((name) => lead(name).then((r) => r.status)))
    expect(sent).toEqual([201, 201, 201, 201])
    const stored = await db.sql<{ firstName: string }[]>`select first_name from contact_inquiries order by id`
    expect(stored.map((row) => row.firstName).sort()).toEqual(['Bo', 'Cy', 'Di', 'Ed'])
  })
})
