import { request } from 'node:http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { runningServerLeads } from '../tests/support/running-server.ts'
import { type ServerProcess, startServerProcess } from '../tests/support/server-process.ts'
import { startSmtpSink } from '../tests/support/smtp-sink.ts'
import { openDatabase } from './db/database.ts'
import { unavailableMessages } from './http/errors.ts'
import { stoppedMidRequestMessage } from './http/graceful-stop.ts'
import { outboxConcurrency } from './leads/outbox-worker.ts'
import { templateDataDir } from '../tests/support/database-templates.ts'

/**
 * The promise (issue #7): every lead that got a success answer is kept and delivered, whatever
 * happens to the process after that answer.
 */
describe('crash safety', () => {
  const running: ServerProcess[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')))
  })

  /**
   * One lead, on a connection of its own, as a shopper's browser sends a form: each answer is then
   * its own connection's. (fetch would send some on connections kept alive from earlier answers,
   * and one the stopping server closes as idle can cross a request sent on it in that instant, a
   * race HTTP leaves to the client: Chromium sends again on a new connection, undici's fetch does
   * not retry a POST.)
   */
  const submit = (url: string, n: number) =>
    new Promise<{ n: number; status: number; id?: number; message?: string; error?: string }>((resolve) => {
      const body = JSON.stringify({ firstName: 'Crash', lastName: `Lead ${n}`, email: `crash${n}@example.com` })
      const req = request(`${url}/api/contact`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => {
          const parsed = (() => {
            try {
              return JSON.parse(text) as { id?: number; message?: string }
            } catch {
              return {}
            }
          })()
          resolve({ n, status: res.statusCode ?? 0, id: res.statusCode === 201 ? parsed.id : undefined, message: parsed.message })
        })
        res.on('error', (error: Error & { code?: string }) => resolve({ n, status: 0, error: error.code ?? error.message }))
      })
      // What the connection met: ECONNREFUSED (never taken), ECONNRESET (taken, then lost).
      req.on('error', (error: Error & { code?: string }) => resolve({ n, status: 0, error: error.code ?? error.message }))
      req.end(body)
    })

  async function storedLeads(dataDir: string) {
    const db = await openDatabase({ dataDir })
    try {
      return await db.sql<{ id: number; email: string }[]>`select id, email from contact_inquiries`
    } finally {
      await db.close()
    }
  }

  it('keeps and delivers every lead answered 201 when the server is killed during 200 submissions', async () => {
    const smtp = await startSmtpSink()
    const env = {
      DATA_DIR: templateDataDir('gc-crash200-'),
      SMTP_URL: smtp.url,
      LEADS_TO: 'leads@dealer.example',
      LEAD_RATE_LIMIT: '0',
      OUTBOX_POLL_MS: '100',
      OUTBOX_RETRY_BASE_MS: '100',
    }
    const first = await startServerProcess(env)
    running.push(first)

    const answered: { n: number; status: number; id?: number }[] = []
    let killed = false
    await Promise.all(
      Array.from({ length: 200 }, (_, n) =>
        submit(first.url, n).then((result) => {
          answered.push(result)
          // Killed once 10 are answered 201: on a loaded machine the embedded database, writing one
          // lead at a time, answers the last of the 200 503 "could not confirm" (its 5 s limit),
          // and a higher mark was sometimes never reached (20, in a clean-clone npm test at load 17).
          if (!killed && answered.filter((r) => r.status === 201).length >= 10) {
            killed = true
            first.child.kill('SIGKILL')
          }
        }),
      ),
    )
    const ok = answered.filter((r) => r.status === 201)
    expect(killed).toBe(true)
    expect(ok.length).toBeGreaterThanOrEqual(10)
    expect(ok.length).toBeLessThan(200)

    const second = await startServerProcess(env)
    running.push(second)
    const want = new Set(ok.map((r) => `<lead-${r.id}-dealer-email@localhost>`))
    await expect
      .poll(() => [...want].filter((id) => smtp.messages.some((m) => m.messageId?.replace(/\.[0-9a-f]{16}@/, '@') === id)).length, { timeout: 60_000, interval: 200 })
      .toBe(want.size)
    // Every stored lead's email recorded as sent, those the first process stored without
    // answering too: the outbox has nothing left, so no copy is still to come.
    await vi.waitFor(async () => expect((await runningServerLeads(env.DATA_DIR)).filter((l) => l.delivery !== 'sent')).toEqual([]), {
      timeout: 60_000,
      interval: 200,
    })
    // At least once (docs/RELIABILITY.md, section 4): a message the mail server accepted in the
    // moment before the kill, before the worker recorded it, goes again after the restart, with
    // the same Message-ID. Each of the worker's lanes has at most one message in that moment.
    const delivered = smtp.messages.map((m) => m.messageId)
    expect(delivered.length - new Set(delivered).size).toBeLessThanOrEqual(outboxConcurrency)

    expect(await second.stop('SIGTERM')).toBe(0)
    const stored = new Map((await storedLeads(env.DATA_DIR)).map((row) => [row.id, row.email]))
    for (const lead of ok) expect(stored.get(lead.id!), `lead ${lead.n}`).toBe(`crash${lead.n}@example.com`)
    await smtp.stop()
  }, 120_000)

  it('finishes the requests in flight on SIGTERM, then closes the database and exits', async () => {
    const env = { DATA_DIR: templateDataDir('gc-term200-'), LEAD_RATE_LIMIT: '0' }
    const server = await startServerProcess(env)
    running.push(server)
    // Ten submissions, the signal once the first is answered (the others in hand or on their
    // way), and ten more sent just after it: some finished, some never taken. (A hundred in hand
    // at the signal, on a machine at load 20, had their last 40 answered 503: the embedded
    // database writes one at a time. Twenty and twenty, in a whole suite at load 10, were still
    // in hand at the 10 s limit and cut, as the limit says they are: a stop that finishes its
    // requests is what this shows, not how many a loaded machine finishes in 10 s.)
    const results = Array.from({ length: 10 }, (_, n) => submit(server.url, n))
    await Promise.race(results)
    const exited = server.stop('SIGTERM')
    results.push(...Array.from({ length: 10 }, (_, n) => submit(server.url, 10 + n)))
    const answered = await Promise.all(results)
    expect(await exited).toBe(0)
    // Each request either finished (201), or was refused before its connection was taken
    // (ECONNREFUSED: nothing sent), or, still arriving at the 10 s limit, was answered 503 "not
    // stored". A connection taken and then closed or reset loses the shopper's answer, and maybe
    // a stored lead: 11-57 of the 100 on a loaded machine before api/http/graceful-stop.ts drained
    // the accept queue and waited for requests on their way, once all 100. The server counts any
    // it took and cut in its last line (connectionsCut, none allowed below), so a reset here is
    // one the kernel gave a connection it had queued but the server never took: its handshake
    // done in the instant between the server's last look at the queue and the close of the
    // listening socket, an instant a loaded machine can stretch by descheduling the server (all
    // ten sent after the signal, once in six clean-clone CI runs). Nothing of it was read, so
    // nothing of it may be stored (below); the shopper is told the send failed, and sends again.
    // The embedded database taking more than 5 s for a lead on a loaded machine is answered 503
    // "could not confirm" (api/db/unavailable.ts): the database's answer, not the stop's.
    const outcome = (r: (typeof answered)[number]) =>
      r.status === 201
        ? '201'
        : r.status === 503 && r.message === stoppedMidRequestMessage
          ? '503 late'
          : r.status === 503 && r.message === unavailableMessages.unconfirmed
            ? '503 unconfirmed'
            : r.status === 0
              ? r.error!
              : `${r.status} ${r.message}`
    const counts: Record<string, number> = {}
    for (const r of answered) counts[outcome(r)] = (counts[outcome(r)] ?? 0) + 1
    // The server's own last line says whether the limit was reached (connectionsCut).
    const stopLine = server.output().split('\n').find((line) => line.includes('"msg":"server stopped"'))
    expect(
      answered.filter((r) => !['201', '503 late', '503 unconfirmed', 'ECONNREFUSED', 'ECONNRESET'].includes(outcome(r))).map(outcome),
      `${JSON.stringify(counts)} ${stopLine}`,
    ).toEqual([])
    const ok = answered.filter((r) => r.status === 201)
    expect(ok.length, JSON.stringify(counts)).toBeGreaterThan(0)
    const rows = await storedLeads(env.DATA_DIR)
    const stored = new Set(rows.map((row) => row.id))
    for (const lead of ok) expect(stored.has(lead.id!)).toBe(true)
    const emails = rows.map((row) => row.email)
    for (const lead of answered.filter((r) => ['503 late', 'ECONNREFUSED', 'ECONNRESET'].includes(outcome(r)))) {
      expect(emails).not.toContain(`crash${lead.n}@example.com`)
    }
    expect(server.output()).toContain('"msg":"server stopped"')
    expect(server.output(), stopLine).not.toContain('connectionsCut')
  }, 60_000)
})
