/**
 * Whether an error means the database cannot be reached (down, restarting, refusing, timing
 * out) rather than a bug: those become 503 "try again" answers, never 500s.
 */
const connectionCodes = new Set([
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
])

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : undefined
    if (code && (connectionCodes.has(code) || code.startsWith('08'))) return true
  }
  return false
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
