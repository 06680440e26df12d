import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { logLines, runningServerLeads } from '../../tests/support/running-server.ts'
import { npmCommandArgs, startServerProcess, type ServerProcess } from '../../tests/support/server-process.ts'
import { startSmtpSink } from '../../tests/support/smtp-sink.ts'
import { templateDataDir } from '../../tests/support/database-templates.ts'

const run = promisify(execFile)

/** The real server process, its outbox surviving restarts and crashes. */
describe('queued lead notifications across restarts', () => {
  const running: ServerProcess[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop('SIGKILL')))
  })

  it('delivers every queued message exactly once after a crash and a restart', async () => {
    const smtp = await startSmtpSink()
    await smtp.stop()
    const env = {
      DATA_DIR: templateDataDir('gc-outbox-'),
      SMTP_URL: smtp.url,
      LEADS_TO: 'leads@dealer.example',
      ADF_TO: 'crm@dealer.example',
      OUTBOX_POLL_MS: '100',
      OUTBOX_RETRY_BASE_MS: '100',
    }
    const first = await startServerProcess(env)
    running.push(first)
    const submit = async (server: ServerProcess, firstName: string) => {
      const res = await fetch(`${server.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName, lastName: 'Lead', email: `${firstName.toLowerCase()}@example.com` }),
      })
      expect(res.status).toBe(201)
      return ((await res.json()) as { id: number }).id
    }
    // Without the installation's random mark (api/leads/messages.ts, `messageId`).
    const seen = () => smtp.messages.map((m) => m.messageId?.replace(/\.[0-9a-f]{16}@/, '@')).sort()
    const messagesOf = (ids: number[]) => ids.flatMap((id) => [`<lead-${id}-crm-adf@localhost>`, `<lead-${id}-dealer-email@localhost>`]).sort()
    /** Waits until the running server has recorded every notification of these leads as sent: nothing of theirs is left to go. */
    const allSent = (ids: number[]) =>
      vi.waitFor(
        async () => expect((await runningServerLeads(env.DATA_DIR)).filter((l) => ids.includes(l.id)).map((l) => l.delivery)).toEqual(ids.map(() => 'sent')),
        { timeout: 20_000, interval: 100 },
      )
    const ids: number[] = []
    for (let i = 0; i < 4; i++) ids.push(await submit(first, `Queued${i}`))
    // Killed once each of the 8 messages has been tried and has failed (the mail server is down):
    // they wait in the outbox for their next attempt.
    await vi.waitFor(() => expect(new Set(logLines(first.output(), 'lead notification failed').map((l) => l.outboxId)).size).toBe(8), {
      timeout: 20_000,
      interval: 50,
    })
    await first.stop('SIGKILL')

    await smtp.start()
    const second = await startServerProcess(env)
    running.push(second)
    await smtp.waitFor(8, 20_000)
    await allSent(ids)
    expect(seen()).toEqual(messagesOf(ids))

    // And a clean restart sends nothing again: a new lead's messages go, the old ones do not. The
    // third server is stopped as a deploy stops it (finishing what it has in hand), so every
    // message it was going to send has arrived before they are counted.
    expect(await second.stop('SIGTERM')).toBe(0)
    const third = await startServerProcess(env)
    running.push(third)
    const later = await submit(third, 'Later')
    await allSent([later])
    expect(await third.stop('SIGTERM')).toBe(0)
    expect(seen()).toEqual(messagesOf([...ids, later]))
    await smtp.stop()
    // Three real server starts: on a busy two-core machine each can take 15 s.
  }, 90_000)

  it('lets staff read the leads while the server runs, as text or CSV', async () => {
    const env = { DATA_DIR: templateDataDir('gc-cli-') }
    const server = await startServerProcess(env)
    running.push(server)
    await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Csv',
        lastName: 'Reader',
        email: 'csv@example.com',
        interest: 'service',
        message: '=HYPERLINK("http://evil.example")',
        cartSlug: '2025-denago-ev-city',
      }),
    })
    const cli = (...args: string[]) =>
      run(process.execPath, npmCommandArgs('leads', args), { env: { ...process.env, ...env } })
    const text = await cli('--since', '1d')
    expect(text.stdout).toContain('Csv Reader <csv@example.com>')
    expect(text.stdout).toContain('Interest: Service')
    expect(text.stdout).toContain('Cart: 2025 Denago EV City ($8,995)')
    expect(text.stdout).toContain('Delivery: queued')
    expect(text.stdout).toContain('Status: New, nobody owns it')
    const csv = (await cli('--csv')).stdout.split('\r\n')
    expect(csv[0]).toBe('id,receivedAt,firstName,lastName,email,phone,interest,cart,cartPrice,message,sourceUrl,sourceLabel,delivery,status,owner')
    expect(csv[1]).toContain(',Csv,Reader,csv@example.com,,service,2025 Denago EV City,8995,"\'=HYPERLINK(""http://evil.example"")",')
    await expect(cli('--since', 'last tuesday')).rejects.toMatchObject({ stderr: expect.stringContaining('--since takes 7d') })

    // With the server stopped, the CLI opens the data folder itself.
    await server.stop('SIGTERM')
    expect((await cli()).stdout).toContain('Csv Reader')
  }, 90_000)
})
