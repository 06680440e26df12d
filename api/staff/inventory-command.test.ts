import { execFile } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import type { GolfCartDetail } from '../../domain/golf-cart.ts'
import { withCheckDigit } from '../../domain/vin.ts'
import { openDatabase } from '../db/database.ts'
import { migrate } from '../db/migrate.ts'
import { npmCommandArgs, startServerProcess } from '../../tests/support/server-process.ts'
import { createTestDatabase } from '../../tests/support/test-database.ts'
import { templateDataDir } from '../../tests/support/database-templates.ts'
import { runInventory } from '../../scripts/inventory.ts'

/**
 * `npm run inventory` (PRODUCT.md, "import and export"): through a running server, on the data
 * folder, and on PostgreSQL. Most calls run the command in this process (`runInventory`, what the
 * script's main calls); each path also spawns the real script once (`spawnInventory`), so its
 * entry point, exit code and streams stay tested.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))

type Outcome = { code: number; out: string; err: string }

/** The command in-process, with the environment the spawned script gets and no terminal. */
async function inventory(args: string[], env: Record<string, string>): Promise<Outcome> {
  const collect = () => {
    const stream = new PassThrough()
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    return { stream, text: () => Buffer.concat(chunks).toString('utf8') }
  }
  const [stdout, stderr] = [collect(), collect()]
  const code = await runInventory(args, {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env },
    stdout: stdout.stream,
    stderr: stderr.stream,
  })
  await new Promise((resolve) => setImmediate(resolve))
  return { code, out: stdout.text(), err: stderr.text() }
}

/** `npm run inventory -- …` as the dealer runs it (its built command), in a child process. */
function spawnInventory(args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      npmCommandArgs('inventory', args),
      { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    )
  })
}

const folders: string[] = []
/** A data folder holding the seeded inventory, or (`migrated`) no carts at all. */
const folder = (template: 'seeded' | 'migrated' = 'seeded') => {
  const dir = templateDataDir('gc-inventory-', template)
  folders.push(dir)
  return dir
}
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const vin = withCheckDigit('5ZEVD5R40S0000555')
const header = 'stockNumber,title,description,price,status,vin,imageUrl'
const image = '/images/carts/2025-evolution-d5-ranger-4-plus.svg'
const good = `CLI-1,2025 Evolution D5 Ranger 4 Plus,Four seats.,11995,available,${vin},${image}`

const picture = () => sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 30, g: 120, b: 90 } } }).jpeg().toBuffer()

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
      // A photo named by its file name, beside the CSV file.
      writeFileSync(join(dir, 'front.jpg'), await picture())
      const file = csvFile(dir, 'carts.csv', `${header},photos\n${good},front.jpg\n`)
      const dry = await inventory(['import', file, '--dry-run'], { DATA_DIR: dir })
      expect(dry).toMatchObject({ code: 0, out: expect.stringContaining('line 2: add CLI-1 "2025 Evolution D5 Ranger 4 Plus"') })
      expect(dry.out).toContain('Dry run, nothing changed: 1 to add')
      expect((await fetch(`${server.url}/api/golf-carts/slug/2025-evolution-d5-ranger-4-plus-2`)).status).toBe(404)

      const done = await spawnInventory(['import', file], { DATA_DIR: dir })
      expect(done).toMatchObject({ code: 0, out: expect.stringContaining('Imported: 1 added, 0 changed') })
      const detail = await fetch(`${server.url}/api/golf-carts/slug/2025-evolution-d5-ranger-4-plus-2`)
      const cart = (await detail.json()) as GolfCartDetail
      expect(cart).toMatchObject({ stockNumber: 'CLI-1', vin, photo: { alt: '2025 Evolution D5 Ranger 4 Plus', width: 800 } })
      expect(done.out).toContain('Photos: 1 named, 1 added')

      const exported = await inventory(['export'], { DATA_DIR: dir })
      expect(exported.code).toBe(0)
      expect(exported.out).toMatch(/^stockNumber,title,/)
      expect(exported.out).toContain(`CLI-1,2025 Evolution D5 Ranger 4 Plus,Four seats.,11995`)
      const again = await inventory(['import', csvFile(dir, 'export.csv', exported.out)], { DATA_DIR: dir })
      expect(exported.out).toMatch(new RegExp(`,http://localhost:\\d+/photos/${cart.photo!.key}-800\\.jpg\\r\\n`))
      expect(again.out).toMatch(/Imported: 0 added, 0 changed, \d+ unchanged/)
      expect(again.out).toContain('Photos: 1 named, 0 added')
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
    const second = await spawnInventory(['import', valid], { DATA_DIR: dir })
    expect(second.code).toBe(1)
    expect(second.err).toMatch(/line 2, price: Price must be a number[^\n]*\nline 3, status: Status must be draft, available, hold or sold/)
  })

  it('prints a hostile cart title or CSV cell harmlessly: no window title, no cleared screen, no forged line (issue #26, point 5)', { timeout: 120_000 }, async () => {
    // Set the window title, clear the screen, a C1 CSI, a right-to-left override, and a carriage
    // return that would overwrite the line with a forged one.
    const hostile = 'Evil\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202e\rline 9: add FORGED'
    const dir = folder('migrated')
    const db = await openDatabase({ dataDir: dir })
    try {
      await migrate(db.sql)
      // Stored before the schema refused control characters, or written by hand in SQL.
      await db.sql`
        insert into golf_carts (slug, alternative_slug, title, description, price, stock_number, status)
        values ('hx-1', 'hx-1', ${hostile}, ${`About ${hostile}`}, 9995, 'HX-1', 'available')`
    } finally {
      await db.close()
    }
    const harmless = (text: string) => {
      expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/)
      expect(text.split('\n').filter((line) => line.startsWith('line 9'))).toEqual([])
    }
    // The file itself is calm (a control character in a cell is refused: control-characters.test.ts);
    // the dry run prints the stored, hostile title it would change.
    const update = csvFile(dir, 'update.csv', `stockNumber,title,description,price\nHX-1,Calm title,New and calm.,9995\n`)
    const dry = await inventory(['import', update, '--dry-run'], { DATA_DIR: dir })
    harmless(dry.out + dry.err)
    expect(dry.out).toContain('change HX-1 "Evil\u241b]0;pwned\u2407\u241b[2J<U+009B>31m<U+202E>\u240dline 9: add FORGED": title')
    const added = csvFile(dir, 'add.csv', `stockNumber,title,description,price\nHX-2,"Cart\u001b]0;pwned\u0007\u001b[2J\rline 9: add FORGED",Four seats.,9995\n`)
    const add = await inventory(['import', added, '--dry-run'], { DATA_DIR: dir })
    harmless(add.out + add.err)
    const header = csvFile(dir, 'header.csv', `stockNumber,"x\u001b]0;pwned\u0007\u001b[2J\nline 9: add FORGED",title,description,price\n`)
    const refused = await inventory(['import', header, '--dry-run'], { DATA_DIR: dir })
    expect(refused.code).toBe(1)
    harmless(refused.out + refused.err)
    expect(refused.err).toContain('Unknown column "x\u241b]0;pwned\u2407\u241b[2J\u240aline 9: add FORGED"')
  })

  it.runIf(process.env.TEST_DATABASE_URL)('works on PostgreSQL through DATABASE_URL, with audit entries', { timeout: 60_000 }, async () => {
    const db = await createTestDatabase('postgres')
    try {
      const dir = folder()
      writeFileSync(join(dir, 'front.jpg'), await picture())
      const file = csvFile(dir, 'carts.csv', `${header},photos\n${good},front.jpg\n`)
      expect(await spawnInventory(['import', file], { DATABASE_URL: db.url! })).toMatchObject({ code: 0 })
      const audit = await db.sql`select actor, entity, action from audit_log order by id`
      expect(audit).toEqual([
        { actor: 'npm run inventory', entity: 'cart', action: 'create' },
        { actor: 'npm run inventory', entity: 'photo', action: 'create' },
      ])
      const [stored] = await db.sql`select p.alt, p.width from cart_photos p join golf_carts c on c.id = p.cart_id where c.stock_number = 'CLI-1'`
      expect(stored).toEqual({ alt: '2025 Evolution D5 Ranger 4 Plus', width: 800 })
    } finally {
      await db.close()
    }
  })
})
