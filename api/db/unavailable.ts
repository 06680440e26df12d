/**
 * Whether an error means the database cannot be reached (down, restarting, refusing, timing
 * out) or cannot write just now (its disk is full, or it is read-only) rather than a bug: those
 * become 503 "try again" answers ("not sent, call us" for a lead), never 500s.
 */
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'DATABASE_DEADLINE',
  'DATABASE_NOT_REACHED',
  // PostgreSQL: admin shutdown, crash shutdown, cannot connect now, too many connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // The database answers but refuses to write (writeRefusal below).
  '53100',
  '25006',
])

export function isDatabaseUnavailable(error: unknown): boolean {
  return errorCodes(error).some((code) => unavailableCodes.has(code) || code.startsWith('08'))
}

/**
 * Why a database that answers refused a write: its disk is full (53100, "could not extend
 * file": PostgreSQL and the embedded database alike), or it is read-only (25006: a standby, or a
 * database set `default_transaction_read_only`). A backup never makes it so: it reads in a
 * transaction of its own (docs/decisions/0025-backups.md).
 */
export type WriteRefusal = 'disk full' | 'read-only'

export function writeRefusal(error: unknown): WriteRefusal | undefined {
  const codes = errorCodes(error)
  return codes.includes('53100') ? 'disk full' : codes.includes('25006') ? 'read-only' : undefined
}

/** The codes of an error and of its causes (a driver error is often wrapped once or twice). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = []
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string') codes.push(e.code)
  }
  return codes
}

/**
 * A read that takes longer than this is answered with 503 instead of leaving the visitor
 * waiting: with the time to answer, well inside the two seconds docs/PRODUCT.md promises ("Outages").
 */
export const readDeadlineMs = 1500

/**
 * A submission gets much longer: one that is merely slow must not be answered "not sent" while
 * it is still being stored. Only a database that has stopped answering on an open connection
 * ever reaches this; the answer then says the message could not be confirmed, never that it was
 * lost (if it does land later, it is delivered like any other).
 */
export const writeDeadlineMs = 5000

/** How long the API waits on the database before answering 503, for reads and for submissions. */
export interface Deadlines {
  read: number
  write: number
}

/** The deadlines every server runs with (tests' servers may be given longer ones: tests/support/test-server.ts). */
export const productionDeadlines: Deadlines = { read: readDeadlineMs, write: writeDeadlineMs }

/**
 * Rejects after `ms` with an error whose code says what the caller knows: `DATABASE_DEADLINE`
 * (the write may still land: "could not confirm"), or `DATABASE_NOT_REACHED` for a step in front
 * of the write (the lead itself was never sent: "not sent").
 */
export function withDeadline<T>(
  promise: PromiseLike<T>,
  ms: number,
  code: 'DATABASE_DEADLINE' | 'DATABASE_NOT_REACHED' = 'DATABASE_DEADLINE',
): Promise<T> {
  let timer: NodeJS.Timeout
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer from the database within ${ms} ms`), { code })), ms)
  })
  return Promise.race([Promise.resolve(promise), deadline]).finally(() => clearTimeout(timer))
}
