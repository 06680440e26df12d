import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { npmCommandArgs, startServerProcess } from '../../tests/support/server-process.ts'
import { templateDataDir } from '../../tests/support/database-templates.ts'
import { createTestDatabase } from '../../tests/support/test-database.ts'
import { runStaff } from '../../scripts/staff.ts'

/**
 * `npm run staff` (PRODUCT.md): on the data folder, through a running server, on PostgreSQL. Most
 * calls run the command in this process (`runStaff`, what the script's main calls); each path also
 * spawns the real script once (`spawnStaff`), so its entry point, exit code and streams stay tested.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const password = 'correct horse battery staple'

type Outcome = { code: number; out: string; err: string }

/** The command in-process, with the environment the spawned script gets and no terminal. */
async function staff(args: string[], env: Record<string, string>): Promise<Outcome> {
  const collect = () => {
    const stream = new PassThrough()
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    return { stream, text: () => Buffer.concat(chunks).toString('utf8') }
  }
  const [stdout, stderr] = [collect(), collect()]
  const code = await runStaff(args, {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env },
    stdin: new PassThrough(), // not a terminal
    stdout: stdout.stream,
    stderr: stderr.stream,
  })
  await new Promise((resolve) => setImmediate(resolve))
  return { code, out: stdout.text(), err: stderr.text() }
}

/** `npm run staff -- …` as the dealer runs it (its built command), in a child process. */
function spawnStaff(args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      npmCommandArgs('staff', args),
      { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env } },
      (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    )
  })
}

const folders: string[] = []
/** A new data folder, or (`kept`) one a server has already made, without paying for initdb. */
const folder = (kept?: 'kept') => {
  const dir = kept ? templateDataDir('gc-staff-') : mkdtempSync(join(tmpdir(), 'gc-staff-'))
  folders.push(dir)
  return dir
}
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

describe('npm run staff', () => {
  it('manages accounts in the embedded data folder when no server runs', { timeout: 180_000 }, async () => {
    const env = { DATA_DIR: folder() }
    expect(await staff(['add', 'Maria'], { ...env, STAFF_PASSWORD: 'too short' })).toMatchObject({
      code: 1,
      err: 'STAFF_PASSWORD: A password needs at least 12 characters\n',
    })
    expect(await spawnStaff(['add', 'Maria'], { ...env, STAFF_PASSWORD: password })).toMatchObject({
      code: 0,
      out: 'Created the account "maria" (owner). Sign in at /staff/login.\n',
    })
    expect((await staff(['add', 'maria'], { ...env, STAFF_PASSWORD: password })).err).toBe('The account "maria" already exists\n')
    expect((await staff(['list'], env)).out).toMatch(
      /^maria +owner +no email +created \d{4}-\d\d-\d\d \d\d:\d\d {2}last sign-in never {2}signed in now: 0\n$/,
    )
    expect((await staff(['add', 'devon'], { ...env, STAFF_PASSWORD: password })).out).toBe(
      'Created the account "devon" (sales). Sign in at /staff/login.\n',
    )
    expect((await staff(['remove', 'devon'], env)).code).toBe(0)
    expect((await staff(['remove', 'maria'], env)).err).toBe('The dealership needs at least one owner: make another account an owner first.\n')
  })

  it('gives roles and email addresses, and never leaves the dealership without an owner', { timeout: 180_000 }, async () => {
    const env = { DATA_DIR: folder('kept') }
    expect((await staff(['add', 'maria', '--email', 'Maria@Example.com'], { ...env, STAFF_PASSWORD: password })).out).toContain('(owner)')
    expect((await staff(['add', 'lee', '--role=manager', '--email', 'lee@example.com'], { ...env, STAFF_PASSWORD: password })).out).toContain(
      '(manager)',
    )
    expect(await staff(['add', 'kim', '--role', 'boss'], { ...env, STAFF_PASSWORD: password })).toMatchObject({
      code: 1,
      err: '--role: A role is owner, manager or sales.\n',
    })
    expect((await staff(['add', 'kim', '--email', 'maria@example.com'], { ...env, STAFF_PASSWORD: password })).err).toBe(
      'Another account already has the address maria@example.com.\n',
    )
    expect((await staff(['add', 'kim', '--email', 'not-an-address'], { ...env, STAFF_PASSWORD: password })).err).toBe(
      '--email: Enter a valid email address, like name@example.com.\n',
    )
    expect((await staff(['role', 'maria', 'sales'], env)).err).toBe('The dealership needs at least one owner: make another account an owner first.\n')
    expect(await staff(['role', 'lee', 'owner'], env)).toMatchObject({ code: 0, out: '"lee" is now an owner.\n' })
    expect(await staff(['role', 'maria', 'sales'], env)).toMatchObject({ code: 0, out: '"maria" is now in sales.\n' })
    const list = (await staff(['list'], env)).out.split('\n')
    expect(list[0]).toMatch(/^lee +owner +lee@example\.com /)
    expect(list[1]).toMatch(/^maria +sales +maria@example\.com /)
  })

  it('asks for the password on a terminal, and says how when there is none', { timeout: 30_000 }, async () => {
    expect(await staff(['password', 'maria'], { DATA_DIR: folder() })).toMatchObject({
      code: 1,
      err: 'Set STAFF_PASSWORD, or run this in a terminal to type the password.\n',
    })
    expect((await staff(['rename', 'maria'], { DATA_DIR: folder() })).err).toMatch(/^Unknown command "rename"/)
  })

  it(
    'reaches the data through the running server, which said once at start how to create the first account',
    { timeout: 120_000 },
    async () => {
      const env = { DATA_DIR: folder('kept') }
      const server = await startServerProcess({ ...env, LOG_LEVEL: 'info' })
      try {
        expect(server.output().match(/No staff account exists yet\. Create the first one with: npm run staff -- add <username>/g)).toHaveLength(1)
        expect((await spawnStaff(['add', 'devon', '--email', 'devon@example.com'], { ...env, STAFF_PASSWORD: password })).code).toBe(0)
        expect((await staff(['add', 'lee', '--role', 'manager'], { ...env, STAFF_PASSWORD: password })).out).toContain('(manager)')
        expect((await staff(['role', 'lee', 'sales'], env)).code).toBe(0)
        expect((await staff(['role', 'devon', 'manager'], env)).err).toMatch(/at least one owner/)
        const signIn = await fetch(`${server.url}/staff/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: 'devon', password }),
        })
        expect(signIn.status).toBe(303)
        expect((await staff(['list'], env)).out).toMatch(/^devon +owner +devon@example\.com .* signed in now: 1\nlee +sales /)
        expect((await staff(['password', 'devon'], { ...env, STAFF_PASSWORD: 'a new long passphrase' })).out).toBe(
          'Changed the password of "devon"; its sessions have ended.\n',
        )
        expect((await staff(['list'], env)).out).toMatch(/^devon .*signed in now: 0\n/)
      } finally {
        await server.stop()
      }
      const again = await startServerProcess({ ...env, LOG_LEVEL: 'info' })
      try {
        expect(again.output()).not.toMatch(/No staff account exists yet/)
      } finally {
        await again.stop()
      }
    },
  )

  it.runIf(process.env.TEST_DATABASE_URL)('works on PostgreSQL through DATABASE_URL, storing only a hash', { timeout: 60_000 }, async () => {
    const db = await createTestDatabase('postgres')
    try {
      const env = { DATABASE_URL: db.url! }
      expect((await spawnStaff(['add', 'sam'], { ...env, STAFF_PASSWORD: password })).code).toBe(0)
      const [row] = await db.sql<{ username: string; passwordHash: string }[]>`select username, password_hash from users`
      expect(row?.username).toBe('sam')
      expect(row?.passwordHash).toMatch(/^scrypt\$N=16384,r=8,p=5\$[\w-]{22}\$[\w-]{43}$/)
      const [audit] = await db.sql`select actor, entity, action, after from audit_log`
      expect(audit).toMatchObject({ actor: 'npm run staff', entity: 'account', action: 'create', after: { username: 'sam', role: 'owner' } })
    } finally {
      await db.close()
    }
  })
})
