import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from './db/database.ts'
import { runServer, type ServerProcess, startServerProcess } from '../tests/support/server-process.ts'
import { templateDataDir } from '../tests/support/database-templates.ts'

/** The server as `npm start` runs it: a real process over an embedded database in a folder. */
/** Each start creates a database (initdb, WebAssembly): on a loaded machine one takes 20-40 s. */
const twoStarts = 150_000

describe('the server process', () => {
  const running: ServerProcess[] = []
  const start = async (env: Record<string, string>) => {
    const server = await startServerProcess(env)
    running.push(server)
    return server
  }
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')))
  })

  it('serves the seeded inventory from a fresh data folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gc-start-'))
    const server = await start({ DATA_DIR: dataDir })
    const carts = await (await fetch(`${server.url}/api/golf-carts`)).json()
    expect(carts.length).toBeGreaterThanOrEqual(24)
    expect(server.output()).toContain(`"database":"embedded PGlite in ${dataDir}"`)
  }, twoStarts)

  it('refuses a second server on the same data folder with a clear message', async () => {
    const dataDir = templateDataDir('gc-twice-')
    const first = await start({ DATA_DIR: dataDir })
    const second = runServer({ DATA_DIR: dataDir })
    expect(await second.exited).toBe(1)
    expect(second.output()).toContain(`The data folder ${dataDir} is in use by another server (process ${first.child.pid})`)
    // The first server is unharmed.
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200)
  }, twoStarts)

  it('keeps every stored inquiry across kill -9 and a restart', async () => {
    const dataDir = templateDataDir('gc-crash-')
    const first = await start({ DATA_DIR: dataDir })
    const ids: number[] = []
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${first.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: `Lead${i}`, lastName: 'Crash', email: `lead${i}@example.com` }),
      })
      expect(res.status).toBe(201)
      ids.push((await res.json()).id)
    }
    await first.stop('SIGKILL')
    const second = await start({ DATA_DIR: dataDir })
    expect(second.output()).toContain('"migrationsApplied":0')
    expect(second.output()).toContain('"cartsSeeded":0')
    expect(await second.stop('SIGTERM')).toBe(0)

    const db = await openDatabase({ dataDir })
    try {
      const rows = await db.sql<{ id: number; firstName: string }[]>`
        select id, first_name from contact_inquiries order by id
      `
      expect(rows.map((r) => [r.id, r.firstName])).toEqual(ids.map((id, i) => [id, `Lead${i}`]))
    } finally {
      await db.close()
    }
  }, twoStarts)

  it('stops cleanly on SIGTERM and releases the data folder', async () => {
    const dataDir = templateDataDir('gc-term-')
    const server = await start({ DATA_DIR: dataDir })
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(true)
    expect(await server.stop('SIGTERM')).toBe(0)
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(false)
  })

  it('fails fast on a bad environment, naming the variable', async () => {
    const server = runServer({ PORT: 'eighty' })
    expect(await server.exited).toBe(1)
    expect(server.output()).toContain('Invalid environment configuration')
    expect(server.output()).toContain('PORT')
  })
})
