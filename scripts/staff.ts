/**
 * `npm run staff -- add|list|remove|password|role <username>`: staff accounts for the console
 * (PRODUCT.md, "The dealer's staff" and "Running the dealership": roles and email addresses). The password comes from STAFF_PASSWORD, else it is asked on
 * the terminal without echo, twice. PostgreSQL (DATABASE_URL) is used directly; with the embedded
 * database the command asks the running server, or opens the data folder when none is running.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { loadEnv } from '../api/config/env.ts'
import { openMigratedDatabase } from '../api/db/migrate.ts'
import { type RunningServerAccess, runningServerAccess } from '../api/server.ts'
import { terminalLines } from '../api/terminal.ts'
import { hashPassword } from '../api/users/passwords.ts'
import {
  AccountError,
  createUserStore,
  normalizeEmail,
  normalizeUsername,
  passwordProblem,
  roleProblem,
  type StaffAccount,
  usernameProblem,
} from '../api/users/user-store.ts'
import type { StaffRole } from '../domain/staff-access.ts'

const usage = `Staff accounts for the console at /staff:

  npm run staff -- add <username> [--role ROLE] [--email ADDRESS]
                                         create an account (the first is the owner,
                                         later ones sales unless --role says otherwise)
  npm run staff -- role <username> ROLE  give an account another role
  npm run staff -- password <username>   set a new password (signs the account out everywhere)
  npm run staff -- remove <username>     remove an account (and end its sessions)
  npm run staff -- list                  list the accounts

Roles: owner (accounts and settings too), manager (also deletes carts, imports, assigns
leads, sees the dashboard and the feeds), sales (carts, photos and leads). The last owner
cannot be removed or given another role.

The password is read from STAFF_PASSWORD when it is set, else asked on the terminal.
It needs at least 12 characters; a few unrelated words make a good one.`

interface AddOptions {
  role?: StaffRole
  email?: string
}

/** What the command does to the accounts, wherever they are. */
interface Accounts {
  list(): Promise<StaffAccount[]>
  add(username: string, hash: string, options: AddOptions): Promise<{ role: StaffRole }>
  setRole(username: string, role: StaffRole): Promise<unknown>
  setPassword(username: string, hash: string): Promise<unknown>
  remove(username: string): Promise<unknown>
  close(): Promise<void>
}

/** A mistake in how the command was called: its message is all the help needed. */
class UsageError extends Error {}

/** Where the command reads its settings and password, and writes what it has to say. */
export interface StaffIO {
  env: NodeJS.ProcessEnv
  /** Read without echo when it is a terminal (`process.stdin`); anything else is no terminal. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown }
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
}

/**
 * The whole command, `args` being what follows `npm run staff --`: it says what it did on
 * `io.stdout`, what went wrong on `io.stderr` (both through the terminal-safe writer, api/terminal.ts),
 * and answers the exit code. The file run as a script calls it with the process's own; the tests
 * call it in-process (api/staff/staff-command.test.ts), and spawn the script once per path.
 */
export async function runStaff(args: readonly string[], io: StaffIO): Promise<number> {
  const [command, rawName, ...extra] = args
  const say = (...lines: string[]) => void io.stdout.write(terminalLines(lines))
  try {
    if (!command || command === 'help' || command === '--help') {
      say(...usage.split('\n'))
      return 0
    }
    await run(io, say, command, rawName, extra)
    return 0
  } catch (error) {
    const lines = error instanceof AccountError || error instanceof UsageError ? error.message.split('\n') : [`Failed: ${(error as Error).message}`]
    io.stderr.write(terminalLines(lines))
    return 1
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exit(await runStaff(process.argv.slice(2), { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }))
}

/** `--role ROLE` and `--email ADDRESS` (or `--role=ROLE`), each at most once. */
function addOptions(args: string[]): AddOptions {
  const options: AddOptions = {}
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split(/=(.*)/s) as [string, string | undefined]
    if (flag !== '--role' && flag !== '--email') throw new UsageError(`Unknown option "${args[i]}".\n\n${usage}`)
    const value = inline ?? args[++i]
    if (value === undefined || value === '') throw new UsageError(`${flag} needs a value.`)
    if (flag === '--role') {
      const problem = roleProblem(value)
      if (problem) throw new UsageError(`--role: ${problem}.`)
      options.role = value as StaffRole
    } else {
      const email = normalizeEmail(value)
      if ('problem' in email) throw new UsageError(`--email: ${email.problem}.`)
      options.email = email.email
    }
  }
  return options
}

type Say = (...lines: string[]) => void

async function run(io: StaffIO, say: Say, command: string, rawName: string | undefined, extra: string[]) {
  if (command !== 'add' && command !== 'role' && extra.length > 0) throw new UsageError(usage)
  if (command === 'list') {
    const accounts = await openAccounts(io.env)
    try {
      printAccounts(say, await accounts.list())
    } finally {
      await accounts.close()
    }
    return
  }
  if (!['add', 'password', 'remove', 'role'].includes(command)) throw new UsageError(`Unknown command "${command}".\n\n${usage}`)
  if (!rawName) throw new UsageError(`Name the account: npm run staff -- ${command} <username>`)
  const username = normalizeUsername(rawName)
  const problem = usernameProblem(username)
  if (problem && command === 'add') throw new UsageError(problem)

  if (command === 'role') {
    const [role, ...more] = extra
    if (!role || more.length > 0) throw new UsageError('Name the role: npm run staff -- role <username> owner|manager|sales')
    if (roleProblem(role)) throw new UsageError(`${roleProblem(role)}.`)
    const accounts = await openAccounts(io.env)
    try {
      await accounts.setRole(username, role as StaffRole)
      say(`"${username}" is now ${role === 'owner' ? 'an owner' : role === 'manager' ? 'a manager' : 'in sales'}.`)
    } finally {
      await accounts.close()
    }
    return
  }
  const options = command === 'add' ? addOptions(extra) : {}

  // The password is asked for before the database is opened, so a typo costs nothing.
  const hash = command === 'remove' ? undefined : await hashPassword(await readPassword(io, username))
  const accounts = await openAccounts(io.env)
  try {
    if (command === 'add') {
      const { role } = await accounts.add(username, hash!, options)
      say(`Created the account "${username}" (${role}). Sign in at /staff/login.`)
    } else if (command === 'password') {
      await accounts.setPassword(username, hash!)
      say(`Changed the password of "${username}"; its sessions have ended.`)
    } else {
      await accounts.remove(username)
      say(`Removed the account "${username}"; its sessions have ended.`)
    }
  } finally {
    await accounts.close()
  }
}

function printAccounts(say: Say, list: StaffAccount[]) {
  if (list.length === 0) {
    say('No staff accounts yet. Create one with: npm run staff -- add <username>')
    return
  }
  const when = (date: Date | string | null) => (date ? new Date(date).toISOString().replace('T', ' ').slice(0, 16) : 'never')
  for (const account of list) {
    say(
      [
        account.username.padEnd(24),
        account.role.padEnd(8),
        (account.email ?? 'no email').padEnd(32),
        `created ${when(account.createdAt)}`,
        `last sign-in ${when(account.lastSignInAt)}`,
        account.disabled ? 'DISABLED' : `signed in now: ${account.sessions}`,
      ].join('  '),
    )
  }
}

async function readPassword(io: StaffIO, username: string): Promise<string> {
  const fromEnv = io.env.STAFF_PASSWORD
  if (fromEnv !== undefined) {
    const problem = passwordProblem(fromEnv)
    if (problem) throw new UsageError(`STAFF_PASSWORD: ${problem}`)
    return fromEnv
  }
  if (!io.stdin.isTTY) throw new UsageError('Set STAFF_PASSWORD, or run this in a terminal to type the password.')
  for (;;) {
    const password = await askHidden(io, `Password for ${username}: `)
    const problem = passwordProblem(password)
    if (problem) {
      io.stderr.write(terminalLines([problem]))
      continue
    }
    if ((await askHidden(io, 'Type it again: ')) === password) return password
    io.stderr.write(terminalLines(['The two passwords differ; try again.']))
  }
}

/** Reads a line from the terminal without showing what is typed. */
function askHidden(io: StaffIO, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = io.stdin
    io.stdout.write(prompt)
    stdin.setRawMode?.(true)
    stdin.resume()
    stdin.setEncoding('utf8')
    let typed = ''
    const done = (error?: Error) => {
      stdin.setRawMode?.(false)
      stdin.pause()
      stdin.off('data', onData)
      io.stdout.write('\n')
      if (error) reject(error)
      else resolve(typed)
    }
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done()
        if (char === '\u0003') return done(new UsageError('Cancelled.'))
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('')
        else if (char >= ' ') typed += char
      }
    }
    stdin.on('data', onData)
  })
}

async function openAccounts(source: NodeJS.ProcessEnv): Promise<Accounts> {
  const env = loadEnv(source)
  const access = runningServerAccess(env)
  const remote = access && (await runningServer(access))
  if (remote) return remote
  const db = await openMigratedDatabase(env)
  const users = createUserStore(db.sql)
  return {
    list: () => users.list(),
    add: (username, hash, options) => users.add(username, { hash }, options),
    setRole: (username, role) => users.setRole(username, role),
    setPassword: (username, hash) => users.setPassword(username, { hash }),
    remove: (username) => users.remove(username),
    close: () => db.close(),
  }
}

/** The server that holds the embedded database, through its loopback-only endpoint. */
async function runningServer({ url, token }: RunningServerAccess): Promise<Accounts | undefined> {
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${url}/internal/staff${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    const answer = (await res.json()) as { message?: string }
    if (!res.ok) throw new AccountError(answer.message ?? `The server answered ${res.status}`)
    return answer
  }
  try {
    await call('GET', '')
  } catch (error) {
    if (error instanceof AccountError) throw error
    return undefined // The server that wrote the file is gone; the folder is opened instead.
  }
  const name = (username: string) => `/${encodeURIComponent(username)}`
  return {
    list: async () => (await call('GET', '')) as StaffAccount[],
    add: async (username, hash, options) => (await call('POST', '', { username, hash, ...options })) as { role: StaffRole },
    setRole: (username, role) => call('PUT', `${name(username)}/role`, { role }),
    setPassword: (username, hash) => call('PUT', `${name(username)}/password`, { hash }),
    remove: (username) => call('DELETE', name(username)),
    close: async () => {},
  }
}
