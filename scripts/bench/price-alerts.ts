import { readFileSync } from 'node:fs'
import { openDatabase } from '../../api/db/database.ts'
import { createUserStore } from '../../api/users/user-store.ts'
import { startSmtpSink } from '../../tests/support/smtp-sink.ts'
import { backendKinds, postgresAdminUrl } from './api-sections.ts'
import { benchDatabase, startSiteProcess } from './api.ts'
import { benchPassword as password, signInForBench } from './staff.ts'

/**
 * Price alerts (issue #53): 10,000 shoppers watch one cart (confirmed email watches, written into
 * the database before the server starts), and its price is lowered through the console
 * (`staff.cart.setPrice`). Timed from sending that save to the mail server accepting the last of
 * the 10,000 alerts, with the server's resident memory sampled every 100 ms meanwhile. The
 * production server in its own process with `npm start`'s settings and a mail server: the
 * repository's SMTP sink (tests/support/smtp-sink.ts, which parses every message it accepts) in
 * the benchmark's process, on loopback.
 */
/** `npm run bench -- price-alerts --watchers=1000` for a smaller run (10,000 by default). */
const watchers = Number(process.argv.find((a) => a.startsWith('--watchers='))?.split('=')[1] ?? 10_000)
if (!Number.isInteger(watchers) || watchers < 1) throw new Error('--watchers= takes a whole number of watchers')

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

function rssBytes(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return match ? Number(match[1]) * 1024 : Number.NaN
}

export async function priceAlerts(): Promise<string> {
  const lines = [
    '| database | watchers | save answered | alerts queued | first alert accepted | last alert accepted | alerts a second | server memory before / peak / after |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const kind of backendKinds()) {
    const db = await benchDatabase(kind, undefined, postgresAdminUrl)
    const smtp = await startSmtpSink()
    try {
      const opened = await openDatabase({ databaseUrl: db.env.DATABASE_URL, dataDir: db.env.DATA_DIR ?? null })
      let cart: { id: number; price: number; title: string } | undefined
      try {
        await createUserStore(opened.sql).add('bench', password, { role: 'manager' })
        ;[cart] = await opened.sql<{ id: number; price: number; title: string }[]>`
          select id, price::float8 as price, title from golf_carts where status = 'available' order by id limit 1
        `
        if (!cart) throw new Error('the seed has no available cart')
        await opened.sql`
          insert into cart_watches (email, cart_id, unsubscribe_token, confirmed_at, told_price, told_status)
          select 'watcher' || i || '@example.com', ${cart.id}, md5(random()::text) || md5(i::text), now(), ${cart.price}, 'available'
          from generate_series(1, ${watchers}) as i
        `
      } finally {
        await opened.close()
      }
      if (!cart) throw new Error('the seed has no available cart')
      const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info', SMTP_URL: smtp.url, LEADS_TO: 'leads@dealer.example' })
      try {
        const cookie = await signInForBench(site.url)
        const pid = site.process.pid!
        // The dispatch's log line says when the outbox rows were queued (the step before sending).
        let queued: number | undefined
        site.process.stdout?.on('data', (chunk: Buffer) => {
          if (queued === undefined && chunk.toString().includes('"msg":"watchers alerted"')) queued = performance.now()
        })
        // Settled after start and sign-in.
        await new Promise((resolve) => setTimeout(resolve, 3000))
        const before = rssBytes(pid)
        let peak = before
        let first: number | undefined
        const sampler = setInterval(() => {
          peak = Math.max(peak, rssBytes(pid))
          if (first === undefined && smtp.messages.length > 0) first = performance.now()
        }, 100)
        try {
          const started = performance.now()
          const saved = await fetch(`${site.url}/trpc/staff.cart.setPrice`, {
            method: 'POST',
            headers: { cookie, origin: site.url, 'content-type': 'application/json' },
            body: JSON.stringify({ id: cart.id, price: cart.price - 500 }),
          })
          if (!saved.ok) throw new Error(`the price change answered ${saved.status}: ${await saved.text()}`)
          const answered = performance.now() - started
          await smtp.waitFor(watchers, 15 * 60_000)
          const last = performance.now() - started
          const after = rssBytes(pid)
          const firstMs = (first ?? performance.now()) - started
          lines.push(
            `| ${db.description} | ${watchers.toLocaleString('en-US')} | ${Math.round(answered)} ms | ${queued === undefined ? '?' : seconds(queued - started)} | ${seconds(firstMs)} | ${seconds(last)} | ${Math.round(watchers / ((last - firstMs) / 1000))} | ${mb(before)} / ${mb(peak)} / ${mb(after)} |`,
          )
          const extra = smtp.messages.length - watchers
          if (extra !== 0) throw new Error(`${extra} alerts more than watchers`)
        } finally {
          clearInterval(sampler)
        }
      } finally {
        await site.stop()
      }
    } finally {
      await smtp.stop()
      await db.drop()
    }
  }
  return lines.join('\n')
}
