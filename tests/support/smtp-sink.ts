import { EventEmitter, once } from 'node:events'
import type { AddressInfo } from 'node:net'
import PostalMime, { type Email } from 'postal-mime'
import { SMTPServer } from 'smtp-server'

/**
 * A real SMTP server on loopback that keeps every message it accepts, parsed as a mail client
 * would parse it. It can be stopped and started again on the same port, to play an outage.
 */
export interface SmtpSink {
  port: number
  url: string
  messages: Email[]
  stop(): Promise<void>
  start(): Promise<void>
  /**
   * Resolves when at least `count` messages have arrived, on the arrival of the one that makes
   * `count`; rejects after `timeoutMs` (a bound against a hang, not a speed check).
   */
  waitFor(count: number, timeoutMs?: number): Promise<Email[]>
}

/** `delayMs`: how long the server takes to accept each message (a slow mail server). */
export async function startSmtpSink(options: { delayMs?: number } = {}): Promise<SmtpSink> {
  const messages: Email[] = []
  /** 'message' at each arrival. */
  const arrivals = new EventEmitter()
  let server: SMTPServer | undefined
  let port = 0

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        // Stopped, it goes down as a mail server does: connections still open (a sender's idle
        // pooled ones) are told 421 and closed at once, where smtp-server waits up to 30 s for
        // them to leave (the outage test waited 21 s here, twice a run, for the pool's idle timeout).
        closeTimeout: 1,
        onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
        onData(stream, _session, callback) {
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => {
            PostalMime.parse(Buffer.concat(chunks)).then(
              (email) => {
                setTimeout(() => {
                  messages.push(email)
                  arrivals.emit('message')
                  callback()
                }, options.delayMs ?? 0)
              },
              (error: Error) => callback(error),
            )
          })
        },
      })
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        port = (server!.server.address() as AddressInfo).port
        resolve()
      })
    })

  await listen()
  const sink: SmtpSink = {
    get port() {
      return port
    },
    get url() {
      return `smtp://lead-bot:secret@127.0.0.1:${port}`
    },
    messages,
    stop: () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
    start: listen,
    async waitFor(count, timeoutMs = 15_000) {
      const signal = AbortSignal.timeout(timeoutMs)
      try {
        while (messages.length < count) await once(arrivals, 'message', { signal })
      } catch (error) {
        if (signal.aborted) throw new Error(`expected ${count} messages, got ${messages.length}`, { cause: error })
        throw error
      }
      return messages
    },
  }
  return sink
}
