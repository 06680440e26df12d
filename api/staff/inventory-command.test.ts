import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { withCheckDigit } from '../../domain/vin.ts'
import { startServerProcess } from '../../tests/support/server-process.ts'
import { createTestDatabase } from '../../tests/support/test-database.ts'

/** `npm run inventory` (PRODUCT.md, "import and export"): through a running server, and on PostgreSQL. */
const root = fileURLToPath(new URL('../../', import.meta.url))

function inventory(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/inventory.ts', ...args],
      { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    )
  })
}

const folders: string[] = []
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gc-inventory-'))
  folders.push(dir)
  return dir
}
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const vin = withCheckDigit('5ZEVD5R40S0000555')
const header = 'stockNumber,title,description,price,status,vin,imageUrl'
const image = '/images/carts/2025-evolution-d5-ranger-4-plus.svg'
const good = `CLI-1,2025 Evolution D5 Ranger 4 Plus,Four seats.,11995,available,${vin},${image}`

function csvFile(dir: string, name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

describe('npm run inventory', () => {
  it('imports through the running server: a dry run, the import, the site showing it, the export', { timeout: 120_000 }, async () => {
    const dir = folder()
    const server = await startServerProcess({ DATA_DIR: dir })
    try {
      const file = csvFile(dir, 'carts.csv', `${header}\n${good}\n`)
      const dry = await inventory(['import', file, '--dry-run'], { DATA_DIR: dir })
      expect(dry).toMatchObject({ code: 0, out: expect.stringContaining('line 2: add CLI-1 "2025 Evolution D5 Ranger 4 Plus"') })
      expect(dry.out).toContain('Dry run, nothing changed: 1 to add')
      expect((await fetch(`${server.url}/api/golf-carts/slug/2025-evolution-d5-ranger-4-plus-2`)).status).toBe(404)

      const done = await inventory(['import', file], { DATA_DIR: dir })
      expect(done).toMatchObject({ code: 0, out: expect.stringContaining('Imported: 1 added, 0 changed') })
      const detail = await fetch(`${server.url}/api/golf-carts/slug/2025-evolution-d5-ranger-4-plus-2`)
      expect(await detail.json()).toMatchObject({ stockNumber: 'CLI-1', vin })

      const exported = await inventory(['export'], { DATA_DIR: dir })
      expect(exported.code).toBe(0)
      expect(exported.out).toMatch(/^stockNumber,title,/)
      expect(exported.out).toContain(`CLI-1,2025 Evolution D5 Ranger 4 Plus,Four seats.,11995`)
      const again = await inventory(['import', csvFile(dir, 'export.csv', exported.out)], { DATA_DIR: dir })
      expect(again.out).toMatch(/Imported: 0 added, 0 changed, \d+ unchanged/)
    } finally {
      await server.stop()
    }
  })

  it('lists every bad row and changes nothing, exiting with 1', { timeout: 60_000 }, async () => {
    const dir = folder()
    const file = csvFile(dir, 'bad.csv', `${header},photos\n${good},missing.jpg\n`)
    const result = await inventory(['import', file], { DATA_DIR: dir })
    expect(result.code).toBe(1)
    expect(result.err).toContain('Nothing was imported')
    expect(result.err).toContain('line 2, photos: There is no file missing.jpg beside the CSV file')
    const valid = csvFile(dir, 'bad2.csv', `${header}\n${good.replace('11995', 'ask')}\nCLI-2,x,y,5,lost,,${image}\n`)
    const second = await inventory(['import', valid], { DATA_DIR: dir })
    expect(second.code).toBe(1)
    expect(second.err).toMatch(/line 2, price: Price must be a number[^\n]*\nline 3, status: Status must be available, hold or sold/)
  })

  it.runIf(process.env.TEST_DATABASE_URL)('works on PostgreSQL through DATABASE_URL, with audit entries', { timeout: 60_000 }, async () => {
    const db = await createTestDatabase('postgres')
    try {
      const file = csvFile(folder(), 'carts.csv', `${header}\n${good}\n`)
      expect(await inventory(['import', file], { DATABASE_URL: db.url! })).toMatchObject({ code: 0 })
      const [audit] = await db.sql`select actor, entity, action from audit_log`
      expect(audit).toEqual({ actor: 'npm run inventory', entity: 'cart', action: 'create' })
    } finally {
      await db.close()
    }
  })
})
