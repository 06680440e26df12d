import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto'

/**
 * Staff passwords are stored only as salted scrypt hashes (docs/decisions/0009-staff-sign-in.md):
 * `scrypt$N=16384,r=8,p=5$<salt>$<hash>`, salt and hash in base64url. The parameters are
 * OWASP's (Password Storage Cheat Sheet) lower-memory equivalent of N=2^17, r=8, p=1: the same
 * work at 16 MiB a hash instead of 128 MiB, so a burst of sign-ins cannot exhaust a small
 * server's memory. They travel with each hash, so they can be raised later: a hash made with
 * weaker ones is replaced at the next sign-in (`needsRehash`).
 */
export const scryptParameters = { N: 2 ** 14, r: 8, p: 5 } as const
type Parameters = { N: number; r: number; p: number }

/** The parameters new hashes are made with: `scryptParameters`, but in tests (below). */
let parameters: Parameters = scryptParameters
/** The unknown user's hash (`verifyAgainstNobody`), made once. */
let dummyHash: Promise<string> | undefined

/**
 * For tests alone (tests/support/lighter-work.ts, a set-up file of the test projects
 * that start servers): new hashes in the test's own process made with other parameters. A
 * hash at the real ones is about 175 ms of CPU on the test machine. A test run makes about 550
 * of them, through sign-ins, new accounts and the unknown-user hash, so they took a minute and
 * a half of CPU from two cores. Every hash is still made and checked; only the work per hash is
 * less. The real parameters stay tested: this module's own tests put them back, and every
 * server and command a test spawns runs without this set-up.
 */
export function usePasswordParameters(next: Parameters): void {
  parameters = next
  dummyHash = undefined
}

const keyLength = 32
const saltLength = 16
/** Node's default, used by the hashes this module made before it wrote its parameters down. */
const legacyParameters: Parameters = { N: 2 ** 14, r: 8, p: 1 }

function scrypt(password: string, salt: Buffer, length: number, { N, r, p }: Parameters): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFKC'), salt, length, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(saltLength)
  const hash = await scrypt(password, salt, keyLength, parameters)
  const { N, r, p } = parameters
  return `scrypt$N=${N},r=${r},p=${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`
}

interface ParsedHash {
  parameters: Parameters
  salt: Buffer
  hash: Buffer
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$')
  if (parts[0] !== 'scrypt') return undefined
  if (parts.length === 3) {
    return { parameters: legacyParameters, salt: Buffer.from(parts[1]!, 'base64url'), hash: Buffer.from(parts[2]!, 'base64url') }
  }
  const match = /^N=(\d+),r=(\d+),p=(\d+)$/.exec(parts[1] ?? '')
  if (parts.length !== 4 || !match) return undefined
  const [N, r, p] = match.slice(1).map(Number) as [number, number, number]
  // A stored hash is trusted data, but bounded anyway: a corrupt row must not make a sign-in
  // allocate gigabytes.
  if (N > 2 ** 20 || r > 32 || p > 16) return undefined
  return { parameters: { N, r, p }, salt: Buffer.from(parts[2]!, 'base64url'), hash: Buffer.from(parts[3]!, 'base64url') }
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored)
  if (!parsed || parsed.hash.length === 0) return false
  const actual = await scrypt(password, parsed.salt, parsed.hash.length, parsed.parameters)
  return timingSafeEqual(parsed.hash, actual)
}

/** Whether a hash was made with other parameters than today's, and should be made again. */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored)
  if (!parsed) return true
  const { N, r, p } = parsed.parameters
  return N !== parameters.N || r !== parameters.r || p !== parameters.p
}

/**
 * A hash of nothing anyone knows, checked when the username does not exist, so an unknown user
 * costs the same time as a wrong password (OWASP Authentication Cheat Sheet).
 */
export function verifyAgainstNobody(password: string): Promise<false> {
  return prepareNobody().then((hash) => verifyPassword(password, hash)).then(() => false as const)
}

/**
 * Makes that hash ahead of the first sign-in (in the background, on libuv's pool), so even the
 * first unknown username costs one hash, not two.
 */
export function prepareNobody(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString('base64url'))
  return dummyHash
}
