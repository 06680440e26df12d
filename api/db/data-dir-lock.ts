import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join, resolve } from 'node:path'

/**
 * One process per embedded database folder: PGlite is a single-process database, and two
 * servers writing the same files would corrupt them. The lock file holds the owner's pid; a lock
 * whose process is gone (a crash, `kill -9`) is taken over. Taking the lock also makes the folder
 * private to the server's user (see keepPrivate).
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
  /** Makes everything in the folder private again (0700 folders, 0600 files). */
  tighten(): void
  release(): void
}

export function lockDataDir(dir: string): DataDirLock {
  const absolute = resolve(dir)
  keepPrivate()
  mkdirSync(absolute, { recursive: true, mode: 0o700 })
  const file = join(absolute, 'server.lock')
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }))
      closeSync(fd)
      tighten(absolute)
      return { tighten: () => tighten(absolute), release: () => releaseIfOurs(file) }
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

/**
 * The folder holds every lead (names, emails, messages, in the tables and the write-ahead log),
 * so only the server's own user may read it: folders 0700, files 0600.
 *
 * The folder's own 0700 is what keeps other users out: nobody else can reach a file inside it,
 * whatever that file's mode. The files are made 0600 as well: PGlite's Emscripten file system
 * sets modes itself (0666 on every file it copies into a new database, 0644 on the catalog cache
 * it rewrites), so the database code tightens the folder once PGlite has opened it and again
 * when it closes (api/db/database.ts), and taking the lock tightens whatever an older version or
 * a looser umask left. The process's umask also gains 077, for every other file it writes
 * (MAIL_DIR's messages, which hold leads too).
 */
function keepPrivate(): void {
  try {
    process.umask(process.umask() | 0o077)
  } catch {
    // Worker threads cannot change the umask; tighten() below still fixes what exists.
  }
}

function tighten(path: string): void {
  const stat = lstatSync(path)
  if (stat.isSymbolicLink()) return
  const wanted = stat.isDirectory() ? 0o700 : 0o600
  if ((stat.mode & 0o777) !== wanted) chmodSync(path, wanted)
  if (stat.isDirectory()) for (const entry of readdirSync(path)) tighten(join(path, entry))
}

function readHolder(file: string): number | undefined {
  try {
    const holder: unknown = JSON.parse(readFileSync(file, 'utf8'))
    const pid = Number(typeof holder === 'object' && holder !== null && 'pid' in holder ? holder.pid : undefined)
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
