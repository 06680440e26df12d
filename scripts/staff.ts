/**
 * `npm run staff -- add|list|remove|password <username>`: staff accounts for the console
 * (PRODUCT.md, "The dealer's staff"). The password comes from STAFF_PASSWORD, else it is asked on
 * the terminal without echo, twice. PostgreSQL (DATABASE_URL) is used directly; with the embedded
 * database the command asks the running server, or opens the data folder when none is running.
 */
import { existsSync, readFileSync } from 'node:fs'
import { loadEnv } from '../api/config/env.ts'
import { openDatabase } from '../api/db/database.ts'
import { migrate } from '../api/db/migrate.ts'
import { staffAccessFile } from '../api/server.ts'
import { hashPassword } from '../api/users/passwords.ts'
import {
  AccountError,
  createUserStore,
  normalizeUsername,
  passwordProblem,
  type StaffAccount,
  usernameProblem,
} from '../api/users/user-store.ts'

const usage = `Staff accounts for the console at /staff:

  npm run staff -- add <username>        create an account
  npm run staff -- password <username>   set a new password (signs the account out everywhere)
  npm run staff -- remove <username>     remove an account (and end its sessions)
  npm run staff -- list                  list the accounts

The password is read from STAFF_PASSWORD when it is set, else asked on the terminal.
It needs at least 12 characters; a few unrelated words make a good one.`

/** What the command does to the accounts, wherever they are. */
interface Accounts {
  list(): Promise<StaffAccount[]>
  add(username: string, hash: string): Promise<unknown>
  setPassword(username: string, hash: string): Promise<unknown>
  remove(username: string): Promise<unknown>
  close(): Promise<void>
}

/** A mistake in how the command was called: its message is all the help needed. */
class UsageError extends Error {}

const [command, rawName, ...extra] = process.argv.slice(2)

try {
  if (!command || command === 'help' || command === '--help' || extra.length > 0) {
    console.log(usage)
    process.exit(command && command !== 'help' && command !== '--help' ? 1 : 0)
  }
  await run(command, rawName)
} catch (error) {
  console.error(error instanceof AccountError || error instanceof UsageError ? error.message : `Failed: ${(error as Error).message}`)
  process.exit(1)
}


async function run(command: string, rawName: string | undefined) {
  if (command === 'list') {
    const accounts = await openAccounts()
    try {
      printAccounts(await accounts.list())
    } finally {
      await accounts.close()
    }
    return
  }
  if (!['add', 'password', 'remove'].includes(command)) throw new UsageError(`Unknown command "${command}".\n\n${usage}`)
  if (!rawName) throw new UsageError(`Name the account: npm run staff -- ${command} <username>`)
  const username = normalizeUsername(rawName)
  const problem = usernameProblem(username)
  if (problem && command === 'add') throw new UsageError(problem)

  // The password is asked for before the database is opened, so a typo costs nothing.
  const hash = command === 'remove' ? undefined : await hashPassword(await readPassword(username))
  const accounts = await openAccounts()
  try {
    if (command === 'add') {
      await accounts.add(username, hash!)
      console.log(`Created the account "${username}". Sign in at /staff/login.`)
    } else if (command === 'password') {
      await accounts.setPassword(username, hash!)
      console.log(`Changed the password of "${username}"; its sessions have ended.`)
    } else {
      await accounts.remove(username)
      console.log(`Removed the account "${username}"; its sessions have ended.`)
    }
  } finally {
    await accounts.close()
  }
}

function printAccounts(list: StaffAccount[]) {
  if (list.length === 0) {
    console.log('No staff accounts yet. Create one with: npm run staff -- add <username>')
    return
  }
  const when = (date: Date | string | null) => (date ? new Date(date).toISOString().replace('T', ' ').slice(0, 16) : 'never')
  for (const account of list) {
    console.log(
      `${account.username.padEnd(24)} created ${when(account.createdAt)}  last sign-in ${when(account.lastSignInAt)}  signed in now: ${account.sessions}`,
    )
  }
}

async function readPassword(username: string): Promise<string> {
  const fromEnv = process.env.STAFF_PASSWORD
  if (fromEnv !== undefined) {
    const problem = passwordProblem(fromEnv)
    if (problem) throw new UsageError(`STAFF_PASSWORD: ${problem}`)
    return fromEnv
  }
  if (!process.stdin.isTTY) throw new UsageError('Set STAFF_PASSWORD, or run this in a terminal to type the password.')
  for (;;) {
    const password = await askHidden(`Password for ${username}: `)
    const problem = passwordProblem(password)
    if (problem) {
      console.error(problem)
      continue
    }
    if ((await askHidden('Type it again: ')) === password) return password
    console.error('The two passwords differ; try again.')
  }
}

/** Reads a line from the terminal without showing what is typed. */
function askHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin
    process.stdout.write(prompt)
    stdin.setRawMode(true)
    stdin.resume()
    stdin.setEncoding('utf8')
    let typed = ''
    const done = (error?: Error) => {
      stdin.setRawMode(false)
      stdin.pause()
      stdin.off('data', onData)
      process.stdout.write('\n')
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

async function openAccounts(): Promise<Accounts> {
  const env = loadEnv()
  const access = staffAccessFile(env.dataDir)
  if (!env.databaseUrl && existsSync(access)) {
    const remote = await runningServer(access)
    if (remote) return remote
  }
  const db = await openDatabase({ databaseUrl: env.databaseUrl, dataDir: env.dataDir })
  await migrate(db.sql)
  const users = createUserStore(db.sql)
  return {
    list: () => users.list(),
    add: (username, hash) => users.add(username, { hash }),
    setPassword: (username, hash) => users.setPassword(username, { hash }),
    remove: (username) => users.remove(username),
    close: () => db.close(),
  }
}

/** The server that holds the embedded database, through its loopback-only endpoint. */
async function runningServer(accessFile: string): Promise<Accounts | undefined> {
  const { url, token } = JSON.parse(readFileSync(accessFile, 'utf8')) as { url: string; token: string }
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
    add: (username, hash) => call('POST', '', { username, hash }),
    setPassword: (username, hash) => call('PUT', `${name(username)}/password`, { hash }),
    remove: (username) => call('DELETE', name(username)),
    close: async () => {},
  }
}
