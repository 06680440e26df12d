import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, request } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runServer, type ServerProcess, startServerProcess } from '../../tests/support/server-process.ts'
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
 * The deploy file as a test can run it: its site's plain HTTP address and its stats address on
 * free loopback ports, each port of `ports` (3001: the test's first process...) where the test
 * has it, and without what needs root or a real certificate (the system log, the haproxy user,
 * daemon mode, every TLS line).
 */
function forTest(config: string, listen: number, stats: number, ports: Record<number, number>): string {
  const lines: string[] = []
  for (const line of config.split('\n')) {
    const trimmed = line.trim()
    if (/ssl/.test(trimmed) || /^(user|group|daemon|log \/dev\/log)\b/.test(trimmed)) continue
    if (trimmed === 'bind :80') lines.push(`    bind 127.0.0.1:${listen}`)
    else if (trimmed === 'bind 127.0.0.1:8404') lines.push(`    bind 127.0.0.1:${stats}`)
    else if (trimmed.startsWith('bind ')) throw new Error(`forTest does not know this bind line: ${trimmed}`)
    else {
      const server = trimmed.match(/^server (\S+) 127\.0\.0\.1:(\d+)(.*)$/)
      const port = server && ports[Number(server[2])]
      lines.push(port ? `    server ${server[1]} 127.0.0.1:${port}${server[3]}` : line)
    }
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

/** HAProxy's state of each server of `backend` ("UP", "DOWN", "DOWN 1/2"…), from its stats CSV. */
async function haproxyStates(statsPort: number, backend: string): Promise<Record<string, string>> {
  const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text()
  const [header = '', ...rows] = csv.trim().split('\n')
  const columns = header.replace(/^# /, '').split(',')
  const [pxname, svname, status] = ['pxname', 'svname', 'status'].map((name) => columns.indexOf(name))
  return Object.fromEntries(
    rows
      .map((row) => row.split(','))
      .filter((fields) => fields[pxname!] === backend)
      .map((fields) => [fields[svname!], fields[status!]]),
  )
}

describe.skipIf(!ready)('deploy/haproxy.cfg in front of two processes on one PostgreSQL', () => {
  let db: TestDatabase
  let proxy: TcpProxy
  let servers: ServerProcess[]
  let haproxy: ChildProcess
  let haproxyOutput = ''
  let site: string
  let statsPort: number
  let env: Record<string, string>
  /** The ports the test's processes listen on, in HAProxy's order: app3001, app3002. */
  let ports: number[]
  const dir = mkdtempSync(join(tmpdir(), 'gc-haproxy-'))

  beforeAll(async () => {
    db = await createTestDatabase('postgres', 'seeded')
    // The processes reach PostgreSQL through a proxy the test can cut.
    const url = new URL(db.url!)
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) })
    url.host = `127.0.0.1:${proxy.port}`
    env = { DATABASE_URL: url.href, TRUST_PROXY: '1', LOG_LEVEL: 'info' }
    // Fixed ports, as systemd's instances have: a restarted process listens where it did.
    ports = await Promise.all([0, 1].map(() => freePort()))
    servers = await Promise.all(ports.map((port) => startServerProcess({ ...env, PORT: String(port) }, 90_000)))
    const listen = await freePort()
    statsPort = await freePort()
    // app3003 and app3004 are listed but not running: ports with nothing on them.
    const config = forTest(readFileSync(join(root, 'deploy/haproxy.cfg'), 'utf8'), listen, statsPort, {
      3001: ports[0]!,
      3002: ports[1]!,
      3003: await freePort(),
      3004: await freePort(),
    })
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
      // HAProxy's health checks have taken both out of the ready backend.
      await vi.waitFor(
        async () => {
          const states = await haproxyStates(statsPort, 'ready')
          expect([states.app3001, states.app3002]).toEqual(['DOWN', 'DOWN'])
        },
        { timeout: 15_000, interval: 250 },
      )
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

  it('refuses /internal, however it is written, before it reaches a process', async () => {
    for (const path of ['/internal/leads', '/internal', '//internal/backup', '/%69nternal/leads', '/INTERNAL/staff']) {
      const status = await new Promise<number>((resolve, reject) =>
        request(`${site}${path}`, { headers: { authorization: 'Bearer guess' } }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
          .on('error', reject)
          .end(),
      )
      expect(status, path).toBe(403)
    }
    expect((await fetch(`${site}/internals-of-a-cart`)).status).not.toBe(403)
  })

  it('restarts both processes with deploy/rolling-restart while pages and leads keep being answered', { timeout: 120_000 }, async () => {
    // The test's systemctl: `restart jersey-cart-co@3001` stops the test's first process (SIGTERM,
    // waiting for it to exit, as systemd does) and starts it again on its port; like systemd with
    // Type=simple it returns once the new process is started, not once it listens.
    const control = createHttpServer((req, res) => {
      const instance = req.url?.match(/^\/restart\/jersey-cart-co@(300[12])$/)?.[1]
      if (!instance) return res.writeHead(404).end()
      const i = Number(instance) - 3001
      void servers[i]!.stop('SIGTERM').then(() => {
        const { child, output, exited } = runServer({ ...env, PORT: String(ports[i]) })
        servers[i] = {
          url: `http://127.0.0.1:${ports[i]}`,
          child,
          output,
          stop: async (signal: NodeJS.Signals = 'SIGTERM') => (child.exitCode !== null || child.signalCode !== null ? child.exitCode : (child.kill(signal), exited)),
        }
        res.end('restarted\n')
      })
    })
    await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve))
    const shims = join(dir, 'bin')
    mkdirSync(shims, { recursive: true })
    writeFileSync(join(shims, 'systemctl'), `#!/bin/sh\n[ "$1" = restart ] || exit 1\nexec curl -fsS -X POST "http://127.0.0.1:${(control.address() as { port: number }).port}/restart/$2"\n`, { mode: 0o755 })

    let traffic = true
    const answers: number[] = []
    const leads: number[] = []
    const visiting = (async () => {
      for (let i = 0; traffic; i++) {
        answers.push(await fetch(`${site}${pages[i % pages.length]}`).then((r) => r.status, () => 0))
        if (i % 10 === 0) leads.push(await lead(`Roll${i}`).then((r) => r.status, () => 0))
      }
    })()
    try {
      const script = await new Promise<{ code: number; out: string }>((resolve) =>
        execFile(
          join(root, 'deploy/rolling-restart'),
          ['3001', '3002'],
          { env: { PATH: `${shims}:${process.env.PATH}`, HAPROXY_STATS_URL: `http://127.0.0.1:${statsPort}/stats;csv` } },
          (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: out + err }),
        ),
      )
      expect(script.code, `${script.out}\n${haproxyOutput}`).toBe(0)
      expect(script.out).toMatch(/restarting jersey-cart-co@3001\njersey-cart-co@3001 takes traffic again \(\d+ s after its restart; [^)]+\)\nrestarting jersey-cart-co@3002\njersey-cart-co@3002 takes traffic again/)
    } finally {
      traffic = false
      await visiting
      await new Promise((resolve) => control.close(resolve))
    }
    // Both processes are new, and HAProxy sends each of them traffic.
    for (const server of servers) expect(server.output()).toMatch(/"msg":"server started"/)
    expect(answers.length).toBeGreaterThan(20)
    expect(answers.filter((status) => status !== 200)).toEqual([])
    expect(leads.filter((status) => status !== 201)).toEqual([])
    const stored = await db.sql<{ n: number }[]>`select count(*)::int as n from contact_inquiries where first_name like 'Roll%'`
    expect(stored[0]!.n).toBe(leads.length)
  })

  it('loses no page and no lead when a process is killed', { timeout: 60_000 }, async () => {
    servers[0]!.child.kill('SIGKILL')
    // At once, before any health check has noticed: HAProxy sends the refused connection on.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => fetch(`${site}${pages[i % pages.length]}`).then((r) => r.status)))
    expect(answers).toEqual(Array(20).fill(200))
    const sent = await Promise.all(['Bo', 'Cy', 'Di', 'Ed'].map((name) => lead(name).then((r) => r.status)))
    expect(sent).toEqual([201, 201, 201, 201])
    const stored = await db.sql<{ firstName: string }[]>`select first_name from contact_inquiries where first_name not like 'Roll%' order by id`
    expect(stored.map((row) => row.firstName).sort()).toEqual(['Bo', 'Cy', 'Di', 'Ed'])
  })
})
