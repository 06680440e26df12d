import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openDatabase } from './database.ts'
import { DataDirLockedError, lockDataDir } from './data-dir-lock.ts'

const freshDir = () => mkdtempSync(join(tmpdir(), 'gc-lock-'))

/** A pid that certainly belongs to no running process: one that has just exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout)
}

describe('data folder lock', () => {
  it('writes our pid and removes the file on release', () => {
    const dir = freshDir()
    const lock = lockDataDir(dir)
    expect(JSON.parse(readFileSync(join(dir, 'server.lock'), 'utf8')).pid).toBe(process.pid)
    lock.release()
    expect(existsSync(join(dir, 'server.lock'))).toBe(false)
  })

  it('refuses a folder held by a running process, naming it', () => {
    const dir = freshDir()
    // The parent of this test process is alive for as long as the test runs.
    writeFileSync(join(dir, 'server.lock'), JSON.stringify({ pid: process.ppid }))
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError)
    expect(() => lockDataDir(dir)).toThrow(`in use by another server (process ${process.ppid})`)
  })

  it('takes over a lock left by a process that died', () => {
    const dir = freshDir()
    writeFileSync(join(dir, 'server.lock'), JSON.stringify({ pid: deadPid() }))
    const lock = lockDataDir(dir)
    expect(JSON.parse(readFileSync(join(dir, 'server.lock'), 'utf8')).pid).toBe(process.pid)
    lock.release()
  })

  it('takes over an unreadable lock file', () => {
    const dir = freshDir()
    writeFileSync(join(dir, 'server.lock'), 'garbage')
    lockDataDir(dir).release()
  })
})

describe('data folder permissions', () => {
  /** Every folder and file under `dir` with its permission bits, as `ls -l` would show them. */
  function modes(dir: string): Map<string, number> {
    const found = new Map<string, number>([[dir, statSync(dir).mode & 0o777]])
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const path = join(entry.parentPath, entry.name)
      if (!entry.isSymbolicLink()) found.set(path, statSync(path).mode & 0o777)
    }
    return found
  }
  const loose = (found: Map<string, number>) =>
    [...found].filter(([path, mode]) => mode !== (statSync(path).isDirectory() ? 0o700 : 0o600)).map(([path, mode]) => `${path} ${mode.toString(8)}`)

  it('keeps the embedded database and its write-ahead log private (0700/0600) even under umask 000', async () => {
    const before = process.umask(0)
    try {
      const dir = join(freshDir(), 'data')
      const db = await openDatabase({ dataDir: dir })
      await db.sql`create table leads_probe (email text)`
      await db.sql`insert into leads_probe values ('visitor@example.com')`
      // While it runs, no other user can even enter the folder.
      const running = [...modes(dir)].filter(([path]) => statSync(path).isDirectory())
      expect(running.length).toBeGreaterThan(10)
      expect(running.filter(([, mode]) => mode !== 0o700)).toEqual([])
      await db.close()
      const found = modes(dir)
      expect(found.size).toBeGreaterThan(50)
      expect(loose(found)).toEqual([])
    } finally {
      process.umask(before)
    }
  }, 60_000)

  it('tightens a folder an older server left open, at the next start', () => {
    const dir = freshDir()
    mkdirSync(join(dir, 'pgdata', 'base'), { recursive: true })
    writeFileSync(join(dir, 'pgdata', 'base', '1234'), 'lead@example.com')
    for (const path of [dir, join(dir, 'pgdata'), join(dir, 'pgdata', 'base')]) chmodSync(path, 0o777)
    chmodSync(join(dir, 'pgdata', 'base', '1234'), 0o666)
    const lock = lockDataDir(dir)
    try {
      expect(loose(modes(dir))).toEqual([])
    } finally {
      lock.release()
    }
  })
})
