import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { type ServerProcess, startServerProcess } from '../../tests/support/server-process.ts'
import { unitProcess } from '../../tests/support/systemd.ts'
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.ts'

/**
 * docs/DEPLOY.md: the systemd units and the env file of `deploy/` as they ship, read as systemd
 * reads them (tests/support/systemd.ts: EnvironmentFile= overrides Environment=), and the
 * processes they start (issue #48: every instance once listened on the env file's port 3000).
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const shipped = (path: string) => readFileSync(join(root, 'deploy', path), 'utf8')
const envFile = shipped('jersey-cart-co.env')
const templateUnit = shipped('systemd/jersey-cart-co@.service')
const singleUnit = shipped('systemd/jersey-cart-co.service')
const read = (text: string) => (path: string) => {
  if (path !== '/etc/jersey-cart-co.env') throw new Error(`The unit reads ${path}, not /etc/jersey-cart-co.env as DEPLOY.md installs it`)
  return text
}

describe('deploy/systemd and deploy/jersey-cart-co.env, read as systemd reads them', () => {
  it('gives each instance of jersey-cart-co@.service its own port, even with a PORT in the env file', () => {
    for (const env of [envFile, `${envFile}\nPORT=3000\n`]) {
      const ports = ['3001', '3002', '3003'].map((instance) => unitProcess(templateUnit, instance, read(env)).env.PORT)
      expect(ports).toEqual(['3001', '3002', '3003'])
    }
    const { command, args, env } = unitProcess(templateUnit, '3001', read(envFile))
    expect([command, ...args]).toEqual(['/usr/bin/node', '--max-semi-space-size=2', '--liftoff-only', 'dist/server/main.js'])
    expect(env).toMatchObject({ HOST: '127.0.0.1', TRUST_PROXY: '1', NODE_ENV: 'production', BACKUP_DIR: '/var/backups/jersey-cart-co' })
  })

  it('reads the env file over Environment=, as systemd does: the unit of before gave every instance port 3000', () => {
    const before = templateUnit.replace(/^ExecStart=\/usr\/bin\/env PORT=%i /m, 'ExecStart=').replace(/^Environment=(.*)$/m, 'Environment=$1 PORT=%i')
    expect(before).not.toBe(templateUnit)
    expect(unitProcess(before, '3001', read(`${envFile}\nPORT=3000\n`)).env.PORT).toBe('3000')
    expect(unitProcess(before, '3001', read(envFile)).env.PORT).toBe('3001')
  })

  it('runs the single server on 127.0.0.1:3000, behind deploy/Caddyfile', () => {
    expect(unitProcess(singleUnit, '', read(envFile)).env).toMatchObject({ PORT: '3000', HOST: '127.0.0.1', TRUST_PROXY: '1' })
    expect(shipped('Caddyfile')).toMatch(/reverse_proxy 127\.0\.0\.1:3000\b/)
  })
})

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe.runIf(process.env.TEST_DATABASE_URL)('three instances of jersey-cart-co@.service with BACKUP_DIR on one PostgreSQL', () => {
  let db: TestDatabase
  const servers: ServerProcess[] = []
  const backups = mkdtempSync(join(tmpdir(), 'gc-unit-backups-'))

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')))
    await db?.close()
    rmSync(backups, { recursive: true, force: true })
  })

  it('each listens on its own port, all three live past the first daily backup, and one of them wrote it', { timeout: 180_000 }, async () => {
    db = await createTestDatabase('postgres', 'seeded')
    // The env file as DEPLOY.md has the dealer edit it for several processes: DATABASE_URL set, this
    // machine's backup folder, no mail server; and the first look at the backup after half a second.
    const edited = envFile
      .replace(/^# DATABASE_URL=.*$/m, `DATABASE_URL=${db.url!}`)
      .replace(/^BACKUP_DIR=.*$/m, `BACKUP_DIR=${backups}`)
      .replace(/^SMTP_URL=.*$/m, '')
      .concat('\nBACKUP_FIRST_CHECK_MS=500\nLOG_LEVEL=debug\n')
    const ports = await Promise.all([0, 1, 2].map(() => freePort()))
    servers.push(
      ...(await Promise.all(
        ports.map((port) => {
          const unit = unitProcess(templateUnit, String(port), read(edited))
          expect(unit.command).toBe('/usr/bin/node')
          expect(unit.workingDirectory).toBe('/srv/jersey-cart-co')
          return startServerProcess(unit.env, 90_000, unit.args)
        }),
      )),
    )
    expect(servers.map((s) => Number(new URL(s.url).port))).toEqual(ports)

    // Each has looked: one wrote the day's backup, the two others found it claimed or written.
    const looked = (s: ServerProcess) => /"msg":"(backup written|daily backup not due|the daily backup failed)"/.test(s.output())
    await vi.waitFor(() => expect(servers.filter(looked)).toHaveLength(3), { timeout: 60_000, interval: 100 })
    const outputs = servers.map((s) => s.output())
    expect(outputs.join('').match(/"msg":"backup written"/g)).toHaveLength(1)
    expect(outputs.join('')).not.toMatch(/"level":"error"/)
    for (const [i, server] of servers.entries()) {
      expect(server.child.exitCode, server.output()).toBeNull()
      expect((await fetch(`http://127.0.0.1:${ports[i]}/healthz`)).status).toBe(200)
    }
    const files = readdirSync(backups)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-[0-9a-f]{6}\.jsonl\.gz$/)
    const [record] = await db.sql<[{ file: string; claimedBy: string | null }]>`select file, claimed_by from daily_backup`
    expect(record).toEqual({ file: join(backups, files[0]!), claimedBy: null })
  })
})
