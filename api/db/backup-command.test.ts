import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { templateDataDir } from '../../tests/support/database-templates.ts'
import { npmCommandArgs, startServerProcess } from '../../tests/support/server-process.ts'
import { createTestDatabase } from '../../tests/support/test-database.ts'

/**
 * `npm run backup` and `npm run restore` (PRODUCT.md, "backups") as a dealer runs them: the
 * embedded database's backup comes from the running server that holds it (a copy of its folder
 * would not open), and opens again in a server of its own; PostgreSQL's is read directly.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))

function run(script: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      npmCommandArgs(script, args),
      { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env } },
      (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    )
  })
}

const folders: string[] = []
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gc-backup-'))
  folders.push(dir)
  return dir
}
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const sendLead = (url: string, firstName: string) =>
  fetch(`${url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstName, lastName: 'Lee', email: 'ann@example.com', message: 'A 4-seater for the shore house' }),
  })

describe('npm run backup and npm run restore', () => {
  it('backs up the embedded database through the running server, and the restored folder starts', { timeout: 120_000 }, async () => {
    // A folder a server has used before (the story is a dealer's running site, not a first start).
    const data = templateDataDir('gc-backup-')
    folders.push(data)
    const dir = folder()
    const file = join(dir, 'site.jsonl.gz')
    const server = await startServerProcess({ DATA_DIR: data })
    let carts: number
    try {
      expect((await sendLead(server.url, 'Ann')).status).toBe(201)
      carts = Number((await fetch(`${server.url}/api/golf-carts?limit=1`)).headers.get('x-total-count'))
      expect(carts).toBeGreaterThan(0)
      const backup = await run('backup', [file], { DATA_DIR: data })
      expect(backup.err).toBe('')
      expect(backup.out).toMatch(new RegExp(`^Wrote ${file} \\(\\d+\\.\\d MB in \\d+\\.\\d s\\): \\d+ carts, 0 photos, 1 leads, 0 accounts, \\d+ audit rows; \\d+ rows in \\d+ tables\\.\n$`))
      // The server went on serving: its leads after the backup are its own business.
      expect((await sendLead(server.url, 'Bo')).status).toBe(201)
    } finally {
      await server.stop()
    }

    // A folder that holds anything is refused, so nothing is overwritten.
    const refused = await run('restore', [file], { DATA_DIR: data })
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(/^The data folder .*gc-backup-\w+ \(DATA_DIR\) is not empty \(it holds .*pgdata.*\)\. A backup is restored only into an empty folder/)

    const restored = await run('restore', [file], { DATA_DIR: join(dir, 'restored') })
    expect(restored.err).toBe('')
    expect(restored.out).toMatch(/^Restored the backup of \d{4}-.* into embedded PGlite in .*restored in \d+\.\d s: \d+ carts, 0 photos, 1 leads, 0 accounts, /)
    const again = await startServerProcess({ DATA_DIR: join(dir, 'restored') })
    try {
      expect((await fetch(`${again.url}/readyz`)).status).toBe(200)
      expect(Number((await fetch(`${again.url}/api/golf-carts?limit=1`)).headers.get('x-total-count'))).toBe(carts)
      // The starting inventory is not seeded again on top of the restored carts.
      expect(again.output()).toMatch(/"cartsSeeded":0/)
    } finally {
      await again.stop()
    }
    expect(existsSync(`${file}.partial`)).toBe(false)
  })

  it.runIf(process.env.TEST_DATABASE_URL)('backs up PostgreSQL directly and restores only into an empty database', { timeout: 90_000 }, async () => {
    const source = await createTestDatabase('postgres', 'seeded')
    const target = await createTestDatabase('postgres')
    try {
      const file = join(folder(), 'pg.jsonl.gz')
      const backup = await run('backup', [file], { DATABASE_URL: source.url! })
      expect(backup.out).toMatch(/^Wrote .* \d+ carts, 0 photos, 0 leads, 0 accounts, \d+ audit rows;/)
      const refused = await run('restore', [file], { DATABASE_URL: source.url! })
      expect(refused).toMatchObject({ code: 1, out: '' })
      expect(refused.err).toMatch(/^The database is not empty \(it has \d+ tables: .*\)\. A backup is restored only into an empty database/)
      const restored = await run('restore', [file], { DATABASE_URL: target.url! })
      expect(restored.err).toBe('')
      const count = async (db: typeof source) => (await db.sql<[{ n: number }]>`select count(*)::int as n from golf_carts`)[0].n
      expect(await count(target)).toBe(await count(source))
      expect(await count(target)).toBeGreaterThan(0)
    } finally {
      await source.close()
      await target.close()
    }
  })
})
