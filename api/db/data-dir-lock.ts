import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join, resolve } from 'node:path'

/**
 * One process per embedded database folder: PGlite is a single-process database, and two
 * servers writing the same files would corrupt them. The lock file holds the owner's pid; a lock
 * whose process is gone (a crash, `kill -9`) is taken over.
 */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError'
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${dir} is in use by another server (process ${pid}). ` +
        'Stop that server first, or start this one with another DATA_DIR.',
    )
  }
}

export interface DataDirLock {
  release(): void
}

export function lockDataDir(dir: string): DataDirLock {
  const absolute = resolve(dir)
  mkdirSync(absolute, { recursive: true })
  const file = join(absolute, 'server.lock')
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx')
      writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }))
      closeSync(fd)
      return { release: () => releaseIfOurs(file) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    // A lock with no pid yet may be one another server is writing this instant.
    const holder = readHolder(file) ?? (sleep(100), readHolder(file))
    if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
      throw new DataDirLockedError(absolute, holder)
    }
    // Stale: its process is gone. Check once more right before removing, to narrow the window
    // in which two starting servers could both take over the same stale lock.
    if (readHolder(file) === holder) rmSync(file, { force: true })
  }
  throw new DataDirLockedError(absolute, readHolder(file) ?? -1)
}

function readHolder(file: string): number | undefined {
  try {
    const pid = Number(JSON.parse(readFileSync(file, 'utf8')).pid)
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function releaseIfOurs(file: string): void {
  if (readHolder(file) === process.pid) rmSync(file, { force: true })
}
