import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { MailMessage } from './messages.ts'

/** Where messages go: an SMTP server, a folder of .eml files (development), or nowhere yet. */
export interface Mailer {
  description: string
  send(message: MailMessage): Promise<void>
  close(): void
}

/**
 * nodemailer loads with the first message, not at every start: most starts send nothing for a
 * while, and loading it cost the start 30-130 ms (docs/decisions/0013-lean-start.md).
 */
function onFirstUse<T extends { close(): void }>(make: (mailer: typeof import('nodemailer')) => T) {
  let made: Promise<T> | undefined
  let transport: T | undefined
  return {
    get: () => (made ??= import('nodemailer').then((mailer) => (transport = make(mailer)))),
    close: () => transport?.close(),
  }
}

export function createMailer(settings: { smtpUrl?: string; mailDir?: string }, options: { connections?: number } = {}): Mailer | undefined {
  if (settings.smtpUrl) {
    const url = new URL(settings.smtpUrl)
    const secure = url.protocol === 'smtps:'
    const port = Number(url.port) || (secure ? 465 : 587)
    const transport = onFirstUse((nodemailer) =>
      nodemailer.createTransport({
        host: url.hostname,
        port,
        secure,
        auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
        // `connections` > 1: that many kept open and reused, one for each message the outbox
        // worker has in hand at once (docs/decisions/0026, 0045), so a message costs one exchange
        // with the mail server, not a new connection, greeting, login (and TLS) each time; a
        // connection is renewed after 1,000 messages (nodemailer's default: 100).
        ...(options.connections && options.connections > 1 ? { pool: true, maxConnections: options.connections, maxMessages: 1000 } : {}),
        // Bounded waits, so a hung mail server delays one attempt, not the whole outbox.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    )
    return {
      description: `SMTP ${url.hostname}:${port}`,
      async send(message) {
        await (await transport.get()).sendMail(message)
      },
      close: transport.close,
    }
  }
  if (settings.mailDir) {
    const dir = resolve(settings.mailDir)
    const transport = onFirstUse((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }))
    return {
      description: `.eml files in ${dir}`,
      async send(message) {
        const { message: raw } = await (await transport.get()).sendMail(message)
        // Each message holds a lead: only the server's user may read it, whatever the umask and
        // the database (the embedded one's start tightens the umask; PostgreSQL's does not).
        await mkdir(dir, { recursive: true, mode: 0o700 })
        const name = message.messageId.replace(/[<>]/g, '').replace(/[^\w.@-]/g, '_')
        const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${name}.eml`)
        // Written under another name and renamed: whoever reads the folder (a mail client, a test)
        // sees a whole message or none, never one half written.
        await writeFile(`${file}.part`, raw, { mode: 0o600 })
        await rename(`${file}.part`, file)
      },
      close: transport.close,
    }
  }
  return undefined
}
