import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadEnv } from '../config/env.ts'
import { readMigrations } from '../db/migrate.ts'
import { createWriteRefusals, type WriteRefusals } from '../db/write-refusals.ts'
import { createLogger } from '../log.ts'
import { unavailableMessages } from './errors.ts'
import { createHealth, type Health } from './health.ts'
import { backends } from '../../tests/support/test-database.ts'
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts'

/** PRODUCT.md, "health": `/healthz` is the process alive, `/readyz` everything it needs. */
describe('health answers, with the database and folders made to fail', () => {
  let versions: string[]
  let answer: () => Promise<string[]>
  let health: Health
  let refusals: WriteRefusals
  let url: string
  const close: (() => void)[] = []

  beforeAll(async () => {
    versions = (await readMigrations()).map((m) => m.version)
    refusals = createWriteRefusals()
    health = await createHealth({
      // What the database says is applied is up to each test.
      appliedMigrations: () => answer(),
      dataDir: mkdtempSync(join(tmpdir(), 'gc-ready-')),
      env: loadEnv({ BACKUP_DIR: join(tmpdir(), 'gc-no-such-folder-for-backups') }),
      log: createLogger('silent'),
      writeRefusals: refusals,
    })
    const app = express().use(health.routes)
    const server = createServer(app).listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    close.push(() => server.close())
  })
  afterAll(() => close.forEach((c) => c()))

  const readyz = async () => {
    const res = await fetch(`${url}/readyz`)
    return { status: res.status, body: (await res.json()) as { message?: string; issues?: { path: string; message: string }[]; checks?: unknown } }
  }

  it('answers /healthz 200 while the database refuses, so a balancer keeps serving kept pages', async () => {
    answer = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }))
    const res = await fetch(`${url}/healthz`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok' })
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('answers /readyz 503 naming the database, without the driver\'s words, the missing folder, and what passed', async () => {
    answer = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }))
    const { status, body } = await readyz()
    expect(status).toBe(503)
    expect(body.issues).toEqual([
      { path: 'database', message: 'The database is not answering.' },
      { path: 'backupFolder', message: 'The backup folder (BACKUP_DIR) does not exist.' },
    ])
    expect(body.message).toMatch(/^Not ready: The database is not answering\./)
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|gc-no-such-folder|gc-ready-/)
  })

  it('names migrations this code has that the database has not applied', async () => {
    answer = async () => versions.slice(0, -1)
    const { status, body } = await readyz()
    expect(status).toBe(503)
    expect(body.issues).toContainEqual({ path: 'migrations', message: `1 not applied yet: ${versions.at(-1)}` })
  })

  it('says the database refused a write for a full disk, for a minute after it did', async () => {
    answer = async () => versions
    refusals.note(Object.assign(new Error('could not extend file "base/5/16807": No space left on device'), { code: '53100' }))
    const { status, body } = await readyz()
    expect(status).toBe(503)
    expect(body.issues).toContainEqual({
      path: 'database',
      message: expect.stringMatching(/^The database refused a write 1 s ago: its disk is full\. Leads are answered "not sent, call us"/),
    })
  })

  it('says the server is stopping once it is', async () => {
    health.stopping()
    const { body } = await readyz()
    expect(body.issues?.[0]).toEqual({ path: 'server', message: expect.stringMatching(/^The server is stopping/) })
    expect((await fetch(`${url}/healthz`)).status).toBe(200)
  })
})

describe.each(backends)('health answers of a real server on %s', (backend) => {
  let server: TestServer
  const dataDir = mkdtempSync(join(tmpdir(), 'gc-ready-backups-'))
  beforeAll(async () => {
    server = await startTestServer(backend, { BACKUP_DIR: dataDir })
  })
  afterAll(() => server?.close())

  it('is ready: the database answers, every migration is applied, the backup folder takes files', async () => {
    const res = await fetch(`${server.url}/readyz`)
    expect(res.status).toBe(200)
    const versions = (await readMigrations()).length
    expect(await res.json()).toEqual({
      status: 'ready',
      checks: { database: 'answers', migrations: `all ${versions} applied`, backupFolder: 'writable' },
    })
  })

  it('answers a lead the database refuses for a full disk "not sent, call us" (503), and /readyz says why', async () => {
    // What PostgreSQL and the embedded database raise when a table cannot grow (53100, disk_full);
    // the real thing, on a full file system, is in api/full-disk.test.ts.
    await server.db.sql.unsafe(`
      create function refuse_for_full_disk() returns trigger language plpgsql as $$
      begin raise exception 'could not extend file "base/5/16807": No space left on device' using errcode = 'disk_full'; end $$;
      create trigger refuse_for_full_disk before insert on contact_inquiries for each row execute function refuse_for_full_disk();
    `)
    try {
      const res = await fetch(`${server.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' }),
      })
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({ message: unavailableMessages.mutation, issues: [] })
      expect(unavailableMessages.mutation).toMatch(/^Your message was not sent.*call \(888\) 555-0100/)
      const ready = await fetch(`${server.url}/readyz`)
      expect(ready.status).toBe(503)
      expect(((await ready.json()) as { message: string }).message).toMatch(/refused a write \d+ s ago: its disk is full/)
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    } finally {
      await server.db.sql.unsafe('drop trigger refuse_for_full_disk on contact_inquiries; drop function refuse_for_full_disk()')
    }
  })
})
