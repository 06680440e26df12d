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

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => void process.stdout.write(line),
): Logger {
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
