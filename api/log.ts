/**
 * One JSON line per event on stdout. Callers pass only the fields they mean to log: request
 * lines carry method, path, status and timing, never a form's contents (issue #2).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
type Fields = Record<string, string | number | boolean | null | undefined>

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }

export interface Logger {
  debug(msg: string, fields?: Fields): void
  info(msg: string, fields?: Fields): void
  warn(msg: string, fields?: Fields): void
  error(msg: string, fields?: Fields): void
}

/**
 * Lines written in one turn of the event loop leave in one write: under load that is one system
 * call per turn instead of one per request. They are flushed before the process exits; a
 * `kill -9` can lose the lines of the last turn, never a request's outcome.
 */
function bufferedStdout(): (line: string) => void {
  let pending: string[] = []
  const flush = () => {
    if (pending.length === 0) return
    const text = pending.join('')
    pending = []
    process.stdout.write(text)
  }
  process.once('exit', flush)
  return (line) => {
    if (pending.push(line) === 1) setImmediate(flush)
  }
}

export function createLogger(level: LogLevel, write: (line: string) => void = bufferedStdout()): Logger {
  const emit = (at: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: Fields) => {
    if (rank[at] < rank[level]) return
    write(`${JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields })}\n`)
  }
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') }
}

/** For an unexpected error: its name and message, never its stack or its data. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  return String(error)
}

/** Log lines carry no email addresses, even inside a mail server's error text. */
export function redactEmails(text: string): string {
  return text.replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, '[email]')
}
