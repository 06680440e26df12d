import { openDatabase } from '../../api/db/database.ts'
import { createUserStore } from '../../api/users/user-store.ts'
import { startPushService } from '../../tests/support/push-service.ts'
import { startSmtpSink } from '../../tests/support/smtp-sink.ts'
import { backendKinds, postgresAdminUrl } from './api-sections.ts'
import { benchDatabase, startSiteProcess } from './api.ts'
import { benchPassword as password, signInForBench } from './staff.ts'

/**
 * Lead alerts (issue #28): from the visitor's submit (the POST leaving the client) to the push
 * request reaching the push service, and to the alert email reaching the mail server, with 1
 * lead at a time (20, one after another) and 50 at once (two rounds). The production server in
 * its own process, a local HTTPS push service that decrypts each push
 * (tests/support/push-service.ts) and a local SMTP server (tests/support/smtp-sink.ts), all on
 * loopback; one staff account with one browser subscribed, taking every lead.
 */
const rounds: { label: string; concurrent: number; times: number }[] = [
  { label: '1 lead at a time', concurrent: 1, times: 20 },
  { label: '50 leads at once', concurrent: 50, times: 2 },
]

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!

export async function leadAlerts(): Promise<string> {
  const lines = [
    '| database | leads | submit → push request p50 / p99 | submit → alert email p50 / p99 |',
    '| --- | --- | ---: | ---: |',
  ]
  for (const kind of backendKinds()) {
    const db = await benchDatabase(kind, undefined, postgresAdminUrl)
    const push = await startPushService()
    const smtp = await startSmtpSink()
    // When each alert email arrived, by subject, seen every 2 ms (the sink keeps no time).
    const emailAt = new Map<string, number>()
    const watch = setInterval(() => {
      for (const m of smtp.messages) if (m.subject && !emailAt.has(m.subject)) emailAt.set(m.subject, Date.now())
    }, 2)
    try {
      const opened = await openDatabase({ databaseUrl: db.env.DATABASE_URL, dataDir: db.env.DATA_DIR ?? null })
      try {
        await createUserStore(opened.sql).add('bench', password, { role: 'sales', email: 'bench@dealer.example' })
      } finally {
        await opened.close()
      }
      const site = await startSiteProcess({
        ...db.env,
        LOG_LEVEL: 'info',
        LEAD_RATE_LIMIT: '0',
        SMTP_URL: smtp.url,
        LEADS_TO: 'leads@dealer.example',
        NODE_EXTRA_CA_CERTS: push.caFile,
        PUSH_SERVICE_HOSTS: push.host,
      })
      try {
        const cookie = await signInForBench(site.url)
        const subscribed = await fetch(`${site.url}/trpc/staff.alerts.subscribe`, {
          method: 'POST',
          headers: { cookie, origin: site.url, 'content-type': 'application/json' },
          body: JSON.stringify(push.subscribe('bench')),
        })
        if (!subscribed.ok) throw new Error(`subscribing answered ${subscribed.status}: ${await subscribed.text()}`)
        let sequence = 0
        const submit = async (): Promise<{ id: number; sentAt: number }> => {
          sequence++
          const sentAt = Date.now()
          const res = await fetch(`${site.url}/api/contact`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: site.url },
            // A phone of its own: leads sharing one are one customer, and their alerts say "Repeat lead".
            body: JSON.stringify({ firstName: 'Bench', lastName: `Lead${sequence}`, email: `bench${sequence}@example.com`, phone: `609-555-${String(1000 + sequence)}` }),
          })
          if (res.status !== 201) throw new Error(`a lead answered ${res.status}: ${await res.text()}`)
          return { id: ((await res.json()) as { id: number }).id, sentAt }
        }
        // Warm-up: one lead, both alerts through.
        await arrived(await submit(), push, emailAt)
        for (const round of rounds) {
          const toPush: number[] = []
          const toEmail: number[] = []
          for (let i = 0; i < round.times; i++) {
            const leads = await Promise.all(Array.from({ length: round.concurrent }, submit))
            for (const lead of leads) {
              const times = await arrived(lead, push, emailAt)
              toPush.push(times.push)
              toEmail.push(times.email)
            }
          }
          lines.push(
            `| ${db.description} | ${round.label} (${toPush.length}) | ${percentile(toPush, 50)} / ${percentile(toPush, 99)} ms | ${percentile(toEmail, 50)} / ${percentile(toEmail, 99)} ms |`,
          )
        }
      } finally {
        await site.stop()
      }
    } finally {
      clearInterval(watch)
      await push.stop()
      await smtp.stop()
      await db.drop()
    }
  }
  return lines.join('\n')
}

/** Waits (up to 60 s) for a lead's push and alert email; answers each one's delay after submit. */
async function arrived(
  lead: { id: number; sentAt: number },
  push: Awaited<ReturnType<typeof startPushService>>,
  emailAt: Map<string, number>,
): Promise<{ push: number; email: number }> {
  const subject = `New lead #${lead.id}: Bench `
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 5))) {
    const pushed = push.received.find((p) => p.payload.url === `/staff/leads/${lead.id}`)
    const emailed = [...emailAt].find(([s]) => s.startsWith(subject))
    if (pushed && emailed) return { push: pushed.at - lead.sentAt, email: emailed[1] - lead.sentAt }
  }
  throw new Error(`lead #${lead.id}: no push or alert email within 60 s`)
}
