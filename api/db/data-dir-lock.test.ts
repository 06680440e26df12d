import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
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
