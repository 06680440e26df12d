import { openDatabase } from '../../api/db/database.ts'
import { createSettingsStore } from '../../api/staff/settings.ts'
import { createUserStore } from '../../api/users/user-store.ts'
import { startPushService } from '../../tests/support/push-service.ts'
import { startSmtpSink } from '../../tests/support/smtp-sink.ts'
import { startTwilioStandIn } from '../../tests/support/twilio-stand-in.ts'
import { backendKinds, postgresAdminUrl } from './api-sections.ts'
import { benchDatabase, startSiteProcess } from './api.ts'
import { benchPassword as password, signInForBench } from './staff.ts'

/**
 * Texts in (issue #50): from a shopper's text reaching `POST /webhooks/twilio/sms` (signed as
 * Twilio signs it) to the alert's push request reaching the push service, and to the alert email
 * reaching the mail server, with 1 text at a time (20, one after another) and 50 at once (two
 * rounds), each text from another customer's number. The production server in its own process;
 * a local Twilio (tests/support/twilio-stand-in.ts), push service and mail server, all on
 * loopback; one staff account owns every lead, with one browser subscribed.
 */
const rounds: { label: string; concurrent: number; times: number }[] = [
  { label: '1 text at a time', concurrent: 1, times: 20 },
  { label: '50 texts at once', concurrent: 50, times: 2 },
]
const customers = 50

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!

export async function textsIn(): Promise<string> {
  const lines = ['| database | texts | text → push request p50 / p99 | text → alert email p50 / p99 |', '| --- | --- | ---: | ---: |']
  for (const kind of backendKinds()) {
    const db = await benchDatabase(kind, undefined, postgresAdminUrl)
    const [push, smtp, twilio] = await Promise.all([startPushService(), startSmtpSink(), startTwilioStandIn()])
    // When each email arrived (the sink keeps no time): seen every 2 ms, in the sink's order.
    const arrivedAt: number[] = []
    const watch = setInterval(() => {
      for (let i = arrivedAt.length; i < smtp.messages.length; i++) arrivedAt.push(Date.now())
    }, 2)
    const emailAt = (match: (m: (typeof smtp.messages)[number]) => boolean) => {
      const i = smtp.messages.findIndex((m, n) => n < arrivedAt.length && match(m))
      return i < 0 ? 0 : arrivedAt[i]!
    }
    try {
      const opened = await openDatabase({ databaseUrl: db.env.DATABASE_URL, dataDir: db.env.DATA_DIR ?? null })
      try {
        const bench = await createUserStore(opened.sql).add('bench', password, { role: 'sales', email: 'bench@dealer.example' })
        await createSettingsStore(opened.sql).save({ id: null, name: 'bench' }, { leadRouting: { other: [bench.id] } })
      } finally {
        await opened.close()
      }
      const site = await startSiteProcess({
        ...db.env,
        ...twilio.env,
        LOG_LEVEL: 'info',
        LEAD_RATE_LIMIT: '0',
        SMTP_URL: smtp.url,
        LEADS_TO: 'leads@dealer.example',
        NODE_EXTRA_CA_CERTS: push.caFile,
        PUSH_SERVICE_HOSTS: push.host,
      })
      // SITE_URL is the default, http://localhost:PORT: the address Twilio would have been given.
      const webhook = `${site.url.replace('127.0.0.1', 'localhost')}/webhooks/twilio/sms`
      try {
        const cookie = await signInForBench(site.url)
        const subscribed = await fetch(`${site.url}/trpc/staff.alerts.subscribe`, {
          method: 'POST',
          headers: { cookie, origin: site.url, 'content-type': 'application/json' },
          body: JSON.stringify(push.subscribe('bench')),
        })
        if (!subscribed.ok) throw new Error(`subscribing answered ${subscribed.status}: ${await subscribed.text()}`)
        // One lead for each of the 50 shoppers, with its phone; their own alerts are let through first.
        const leads: { id: number; phone: string; name: string }[] = []
        for (let n = 0; n < customers; n++) {
          const phone = `+1609555${String(1000 + n)}`
          const res = await fetch(`${site.url}/api/contact`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: site.url },
            body: JSON.stringify({ firstName: 'Bench', lastName: `Shopper${n}`, email: `shopper${n}@example.com`, phone, textConsent: true }),
          })
          if (res.status !== 201) throw new Error(`a lead answered ${res.status}: ${await res.text()}`)
          leads.push({ id: ((await res.json()) as { id: number }).id, phone, name: `Bench Shopper${n}` })
        }
        for (const lead of leads) await waitFor(() => emailAt((m) => m.subject === `New lead #${lead.id}: ${lead.name}`) > 0, `lead #${lead.id}'s alert`)
        let sequence = 0
        const text = async (lead: (typeof leads)[number]) => {
          const body = `Question ${++sequence}`
          const sentAt = Date.now()
          const res = await twilio.textIn(webhook.replace('localhost', '127.0.0.1'), lead.phone, `${body}: is it still there?`, { signedFor: webhook })
          if (res.status !== 200) throw new Error(`a text answered ${res.status}: ${await res.text()}`)
          return { lead, sentAt, body }
        }
        const arrived = async (sent: Awaited<ReturnType<typeof text>>) => {
          const subject = `Text from ${sent.lead.name} (lead #${sent.lead.id})`
          const said = `“${sent.body}:`
          let pushAt = 0
          let emailed = 0
          await waitFor(() => {
            pushAt ||= push.received.find((p) => p.payload.title === subject && p.payload.body.startsWith(said))?.at ?? 0
            emailed ||= emailAt((m) => m.subject === subject && (m.text ?? '').startsWith(said))
            return pushAt > 0 && emailed > 0
          }, subject)
          return { push: pushAt - sent.sentAt, email: emailed - sent.sentAt }
        }
        // Warm-up: one text, both alerts through.
        await arrived(await text(leads[0]!))
        for (const round of rounds) {
          const toPush: number[] = []
          const toEmail: number[] = []
          for (let i = 0; i < round.times; i++) {
            const batch = round.concurrent === 1 ? [leads[(i + 1) % customers]!] : leads.slice(0, round.concurrent)
            const sent = await Promise.all(batch.map(text))
            for (const one of sent) {
              const times = await arrived(one)
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
      await Promise.all([push.stop(), smtp.stop(), twilio.stop()])
      await db.drop()
    }
  }
  return lines.join('\n')
}

/** Polls every 5 ms, up to 60 s. */
async function waitFor(done: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (done()) return
  }
  throw new Error(`${what}: not within 60 s`)
}
