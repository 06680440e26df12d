import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { startServerProcess } from '../../tests/support/server-process.ts'
import { createTestDatabase } from '../../tests/support/test-database.ts'

/** `npm run staff` (PRODUCT.md): on the data folder, through a running server, on PostgreSQL. */
const root = fileURLToPath(new URL('../../', import.meta.url))
const password = 'correct horse battery staple'

function staff(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/staff.ts', ...args],
      { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env } },
      (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    )
  })
}

const folders: string[] = []
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'gc-staff-'))
  folders.push(dir)
  return dir
}
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

describe('npm run staff', () => {
  it('manages accounts in the embedded data folder when no server runs', { timeout: 90_000 }, async () => {
    const env = { DATA_DIR: folder() }
    expect(await staff(['add', 'Maria'], { ...env, STAFF_PASSWORD: 'too short' })).toMatchObject({
      code: 1,
      err: 'STAFF_PASSWORD: A password needs at least 12 characters\n',
    })
    expect(await staff(['add', 'Maria'], { ...env, STAFF_PASSWORD: password })).toMatchObject({
      code: 0,
      out: 'Created the account "maria". Sign in at /staff/login.\n',
    })
    expect((await staff(['add', 'maria'], { ...env, STAFF_PASSWORD: password })).err).toBe('The account "maria" already exists\n')
    expect((await staff(['list'], env)).out).toMatch(/^maria +created \d{4}-\d\d-\d\d \d\d:\d\d {2}last sign-in never {2}signed in now: 0\n$/)
    expect((await staff(['remove', 'maria'], env)).code).toBe(0)
    expect((await staff(['list'], env)).out).toMatch(/^No staff accounts yet/)
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
      const env = { DATA_DIR: folder() }
      const server = await startServerProcess({ ...env, LOG_LEVEL: 'info' })
      try {
        expect(server.output().match(/No staff account exists yet\. Create the first one with: npm run staff -- add <username>/g)).toHaveLength(1)
        expect((await staff(['add', 'devon'], { ...env, STAFF_PASSWORD: password })).code).toBe(0)
        const signIn = await fetch(`${server.url}/staff/login`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: 'devon', password }),
        })
        expect(signIn.status).toBe(303)
        expect((await staff(['list'], env)).out).toMatch(/^devon .* signed in now: 1\n$/)
        expect((await staff(['password', 'devon'], { ...env, STAFF_PASSWORD: 'a new long passphrase' })).out).toBe(
          'Changed the password of "devon"; its sessions have ended.\n',
        )
        expect((await staff(['list'], env)).out).toMatch(/signed in now: 0\n$/)
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
      expect((await staff(['add', 'sam'], { ...env, STAFF_PASSWORD: password })).code).toBe(0)
      const [row] = await db.sql<{ username: string; passwordHash: string }[]>`select username, password_hash from users`
      expect(row?.username).toBe('sam')
      expect(row?.passwordHash).toMatch(/^scrypt\$N=16384,r=8,p=5\$[\w-]{22}\$[\w-]{43}$/)
      const [audit] = await db.sql`select actor, entity, action, after from audit_log`
      expect(audit).toMatchObject({ actor: 'npm run staff', entity: 'account', action: 'create', after: { username: 'sam' } })
    } finally {
      await db.close()
    }
  })
})
