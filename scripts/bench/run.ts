/**
 * `npm run bench [-- section ...]`: runs the benchmarks, prints each table and rewrites its
 * section of docs/BENCHMARKS.md, stamped with the date, machine, Node version and command.
 * Sections not run keep their last results.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { npmStartArgs } from '../../tests/support/server-process.ts'
import { startTestServer } from '../../tests/support/test-server.ts'
import { buildIfStale } from '../build/build-if-stale.ts'
import { apiThroughput, growth, postgresAdminUrl, submissionThroughput } from './api-sections.ts'
import { busyInventoryBench, searchBench } from './search.ts'
import { type LighthouseResult, runLighthouse } from './lighthouse.ts'
import { pageThroughput } from './pages.ts'
import { sideBySide } from './side-by-side.ts'
import { soak, soakMarkdown } from './soak.ts'
import { staffConsole } from './staff.ts'
import { leadAlerts } from './lead-alerts.ts'
import { textsIn } from './texts-in.ts'
import { priceAlerts } from './price-alerts.ts'
import { propagation } from './propagation.ts'
import { phoneListing } from './phone-listing.ts'
import { leadInbox } from './leads.ts'
import { photoBench } from './photos.ts'
import { inventoryImport } from './inventory-import.ts'
import { measureWidgetSizes, widgetSizesMarkdown } from './widget-sizes.ts'
import { embedMainThreadMarkdown, measureEmbedMainThread } from './embed-main-thread.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** How many runs of each build the embed section takes (three unless `EMBED_RUNS` says). */
const embedRuns = Number(process.env.EMBED_RUNS ?? 3)
const file = `${root}docs/BENCHMARKS.md`

interface Section {
  title: string
  /** What the numbers mean and how they were taken. */
  method: string
  run(): Promise<string>
}

const databases = postgresAdminUrl
  ? 'the embedded database and PostgreSQL 15 on this machine (`BENCH_DATABASE_URL`)'
  : 'the embedded database (set `BENCH_DATABASE_URL` to a PostgreSQL admin URL to add it)'

const sections: Record<string, Section> = {
  propagation: {
    title: 'A change on every process',
    method:
      'Two production server processes (`npm start`’s built server) over one PostgreSQL 15 database on this machine (`BENCH_DATABASE_URL`), seeded with the starting inventory. For each of 30 carts, the other process keeps its answer over REST and its vehicle page (asked twice), then its price is lowered through the first process’s console procedure (`staff.cart.setPrice`), and the other process is asked every 5 ms until it serves the new price; each figure is from the change’s answer to the first answer with the new price. Nothing else runs. Goal (PRODUCT.md, issues #46, #47, #52): within a second. The tests of two processes prove it is the database’s signal that tells the other process (its kept answers last 5 minutes otherwise); this measures how soon.',
    async run() {
      if (!postgresAdminUrl) return 'Not measured: set `BENCH_DATABASE_URL` to a PostgreSQL admin URL (the embedded database serves one process).'
      return propagation(postgresAdminUrl)
    },
  },
  side: {
    title: 'Side by side with a bare node:http server: throughput, memory, start-up',
    method: `The production server started as \`npm start\` starts it (\`node ${npmStartArgs().join(' ')}\` on the built tree: no TypeScript loader, no Vite in the process) over ${databases}, seeded with the starting inventory, request logging on; next to it a bare \`node:http\` server (\`scripts/bench/bare-server.js\`) answering the very bytes ours sent, from memory. Throughput: autocannon with 50 connections for 3 s on loopback, ours and the bare server alternating for three rounds per answer, the median of each (no \`Accept-Encoding\`, so neither compresses). Memory: resident set (RSS) after a 1 s warm-up of every answer and 3 s of quiet ("idle"), the V8 heap and the memory outside it from \`process.memoryUsage()\` at that moment (a probe loaded with \`--import scripts/bench/memory-probe.js\`), and the highest RSS sampled every 100 ms during the load. Start-up: from spawning Node to the first complete answer of the home page (ours, existing database) or of any path (bare), five times each, alternating. The machine is shared (other work ran beside the benchmark); the ratios, taken minutes apart on the same machine, matter more than the absolute numbers. Goals (issue #12): lists and pages at least 0.7 and 0.5 of bare, idle ≤ 200 MB and peak ≤ 300 MB on the embedded database, ≤ 120 MB on PostgreSQL, first answer ≤ 1.0 s.`,
    run: sideBySide,
  },
  api: {
    title: 'API throughput next to the ceiling',
    method: `The production server (\`host/server/main.ts\`, request logging on) in its own process over ${databases}, seeded with the starting inventory; autocannon with 50 connections, after a 1 s warm-up, on loopback. The ceiling is a bare \`node:http\` server in its own process answering the very same bytes from memory. Ours and the ceiling alternate for three rounds of 3 s each and each figure is the median of its three. Both share the machine's 2 cores with autocannon, so the ratio matters more than the absolute numbers. Targets: at least half the ceiling, p99 under 20 ms.`,
    run: apiThroughput,
  },
  pages: {
    title: 'Pages as a browser asks for them',
    method: `The production server (\`host/server/main.ts\`, request logging on) in its own process over ${databases}, seeded with the starting inventory; autocannon with 50 connections on loopback, after a 1 s warm-up, median of three 3 s runs: the home page as plain HTML, and the home and a vehicle page asking for \`gzip, deflate, br\` as browsers do. Target (issue #12): p99 under 20 ms.`,
    run: pageThroughput,
  },
  submissions: {
    title: 'Lead submission',
    method: `\`POST /api/contact\` with a valid inquiry, 50 connections for 3 s, over ${databases}: each 201 is sent after the inquiry and its queued notification are committed (PostgreSQL's default \`synchronous_commit = on\`). The rate limit is off for this run (\`LEAD_RATE_LIMIT=0\`). "Stored" counts the rows afterwards.`,
    run: submissionThroughput,
  },
  growth: {
    title: 'How cost grows with the inventory',
    method: `With 24, 1,000 and 10,000 generated carts in ${databases}: the first inventory page and a middle page over REST (\`?limit=24\`), and the server-rendered \`/inventory\` page, 10 connections, median of three 2 s runs each; and the default REST list that returns every cart, for contrast. Once with the caches on (as served) and once with \`CACHE_MB=0\`, where every request reaches the database. Target: a list at 10,000 carts at most twice as slow as at 24.`,
    run: growth,
  },
  search: {
    title: 'Search at 24, 1,000 and 10,000 carts',
    method: `With 24, 1,000 and 10,000 generated carts in ${databases}, made to look like a lot (nine models, stored seats and batteries on some, a tenth street-legal, a sixth lifted, one in fifty on hold, prices from $6,000 to $20,000), the production server in its own process with \`CART_CACHE_MS=0\`, so every request reaches the database: the buyer's search (lithium, at least 6 seats, under $15,000, by price) as the REST list, as tRPC's \`cart.list\` with \`facets: true\` (the page, the total and every choice's count in one statement), and as the server-rendered \`/inventory\`; and a two-word search over REST. 10 connections, after a 1 s warm-up, median of three 2 s runs.`,
    run: searchBench,
  },
  crowd: {
    title: 'Twenty shoppers at once on /inventory at 10,000 carts',
    method: `10,000 generated carts as in the search section, spread over the four showrooms, in ${databases}; the production server in its own process with \`CART_CACHE_MS=0\`, so no answer is kept. Each request a different filtered \`/inventory\` page (a random showroom, seats, battery, price ceiling, sort and page 1 to 3, each possibly absent), after a 1 s warm-up with 20 connections and a pause of 300 ms, as between crowds, so the warm-up's last pages are answered before the first crowd is timed. Two loads: the goal's, 20 pages asked at the same moment and awaited, 15 times 300 ms apart (300 pages, each timed from its request to its answer's last byte, by Node's fetch); and autocannon's 20 connections that never pause, median of three 3 s runs, which keeps the server saturated; once with nothing changing, and once with a price changed through the console (\`staff.cart.setPrice\`) every 200 ms, each change making the server bring its listed carts up to date (every listed id and version, then the changed cart; ADR 0029). Goal (issue #31): 0 errors and p99 at most 300 ms.`,
    run: busyInventoryBench,
  },
  staff: {
    title: "The staff console with 10,000 carts",
    method: `10,000 generated carts in ${databases}, the production server in its own process, one signed-in staff session. Reads: \`staff.cart.list\` for the first page (50 rows, newest first), a two-word search, and page 101 sorted by price, each by 2 connections (a few people at the console at once), median of three 2 s runs. Writes: 50 saves one after another (after 10 for warm-up), measured from send to answer, as a person makes them: a one-step price change (\`staff.cart.setPrice\`), and a whole-record save (\`staff.cart.get\` then \`staff.cart.save\`). Each write includes its audit rows and clears the visitors' caches. "Console pages" are the same through the console itself: \`/staff\` server-rendered (the first page, \`?q=Cart+77\`, and the middle page sorted by price), and the same saves as form posts without script (the list's one-step change, \`POST /staff/carts/{id}/quick\`, and the whole form, \`POST /staff/carts/{id}\`), each timed from the post to the last byte of the page its 303 leads to.`,
    run: staffConsole,
  },
  leads: {
    title: 'The lead inbox with 100,000 leads',
    method: `100,000 generated leads (one every 10 minutes back over almost two years, every status, interest and source, a fifth owned, 1 in 97 spam, each with its dealer email, 1 in 50 failing) in ${databases}, statistics gathered as a running server has them; the production server in its own process, one signed-in staff session. \`staff.lead.list\` for the first page (50 leads with their delivery and the total; what an open inbox asks every 5 seconds), a filtered page (status, interest and "nobody owns it", page 3), a search by a last name (about 2,000 matches) and by a phone number as typed (10 matches), and \`staff.lead.dashboard\` for the last 12 weeks; each by 2 connections, after a 1 s warm-up, median of three 2 s runs.`,
    run: leadInbox,
  },
  listing: {
    title: 'Listing a cart from a phone on a throttled connection',
    method: `The browser test's script (tests/support/phone-listing.ts: the new cart's form at 390 px with touch, year, make, model, trim, colour, seats, battery, price and stock number typed, five camera photos picked at once, which saves a draft and sends them, then Publish) in Debian's Chromium, against the production server in its own process over the embedded database, signed in. The connection is Chromium's network emulation: 10 Mbit/s up, 40 Mbit/s down, 40 ms latency. Timed from opening the empty form to the published cart's page, and from picking the photos to the last one stored; "uploaded" is the sum of the five upload bodies. Three runs each, the median. Goal (issue #30): at most 2 minutes of scripted steps.`,
    run: phoneListing,
  },
  alerts: {
    title: 'Lead alerts: from submit to push and email',
    method: `The production server in its own process over ${databases}, \`npm start\`'s settings but for the lead rate limit (off) and a mail server: a local SMTP server and a local HTTPS push service (tests/support/push-service.ts, which decrypts every push as a browser would), in the benchmark's process, on loopback. One staff account takes every lead, with one browser subscribed. Each lead's time from the benchmark sending \`POST /api/contact\` to the push request arriving at the push service, and to the alert email ("New lead #…") arriving at the mail server: 20 leads one after another, then two rounds of 50 sent at once, after one for warm-up. Each lead has three messages (its dealer email, its alert email and its push); the outbox worker has up to four messages in hand at once (docs/decisions/0026), so at 50 at once the last lead's alerts still wait for most of the messages queued before them. Goal (issue #28): a lead's push and alert email within 10 s at p99, 50 at once included.`,
    run: leadAlerts,
  },
  texts: {
    title: 'Texts in: from a shopper’s text to the salesperson’s push and email',
    method: `The production server in its own process over ${databases}, \`npm start\`'s settings but for the lead rate limit (off), a mail server and Twilio's: a local Twilio (tests/support/twilio-stand-in.ts), a local SMTP server and a local HTTPS push service (tests/support/push-service.ts, which decrypts every push as a browser would), in the benchmark's process, on loopback. One staff account owns every lead (lead routing), with one browser subscribed; 50 shoppers each sent a lead with their phone first, and those leads' own alerts went out before the clock starts. Each text's time from the benchmark posting it to \`POST /webhooks/twilio/sms\`, signed as Twilio signs it, to the push request arriving at the push service, and to the alert email ("Text from …") arriving at the mail server: 20 texts one after another, then two rounds of 50 texts at once, one from each shopper, after one for warm-up. Each text has two messages (its alert email and its push); the outbox worker has up to four in hand at once (docs/decisions/0026). Goal (issue #50): the assignee's push and email within 10 s at p99, 50 at once included.`,
    run: textsIn,
  },
  'price-alerts': {
    title: 'Price alerts: 10,000 watchers of one cart',
    method: `The production server in its own process over ${databases}, seeded with the starting inventory, \`npm start\`'s settings (the alert dispatch's poll 10 s; the outbox worker's alert emails on four lanes of their own, each claiming 50 at a time, beside the leads' four, over eight pooled SMTP connections) and a mail server: the repository's SMTP sink (tests/support/smtp-sink.ts, which parses every message it accepts) in the benchmark's process, on loopback, sharing the machine's two cores with the server. 10,000 confirmed email watches of one cart are written into the database before the server starts; then its price is lowered through the console (\`staff.cart.setPrice\`, one signed-in session). "Save answered" is the console's answer; "alerts queued" when the server logged that the dispatch had queued the outbox rows (\`watchers alerted\`); the alerts are timed from sending the save to the mail server accepting the first and the last of the 10,000 (seen every 100 ms). Server memory: resident set (RSS) of the server process 3 s after sign-in ("before"), the highest sampled every 100 ms until the last alert was accepted ("peak"), and at that moment ("after"). PRODUCT.md's 60 seconds is for one watcher's alert; this is how long the last of 10,000 waits. \`--watchers=N\` runs it with N watchers.`,
    run: priceAlerts,
  },
  import: {
    title: 'Inventory import while visitors browse',
    method: `\`npm run inventory -- import\` against the production server in its own process over ${databases} (the embedded database through the server's loopback endpoint), seeded with the starting carts: a file of 1,000 new carts, then 10,000 more, then those 10,000 again with every price changed. Wall time is the whole command: Node start-up, reading and checking every row, planning against the database and the write, which is one transaction: the table lock with one read, then bulk statements of 500 rows for the added carts and for the changed ones, each with its audit rows (its time as the server measured it: how long visitors can be kept waiting). Meanwhile one visitor at a time (20 ms apart) asks for the second inventory page, a REST page and a vehicle page; the same visitor for 3 s before the import is the baseline. Target: 10,000 rows in under a minute on the embedded database, the write under 2 s.`,
    run: inventoryImport,
  },
  soak: {
    title: 'Soak: mixed traffic at 200 connections',
    method:
      'The production server on the embedded database for 180 s (bounded; `SOAK_SECONDS` changes it), autocannon with 200 connections cycling through the home page, the inventory page, a vehicle page, a county page, REST and tRPC reads, the widget loader and lead submissions, on loopback. The lead rate limit is on (10 per address per 10 minutes), so most submissions are answered 429 on purpose. Resident memory of the server process is sampled every 5 s; it should level off once the caches and the heap have warmed up.',
    async run() {
      return soakMarkdown(await soak())
    },
  },
  widgets: {
    title: 'Widget JavaScript a partner page downloads',
    method:
      'Each element alone on a page of another origin, in a fresh Chromium context (empty cache): the sum of the compressed size (Content-Length, with the encoding Chromium negotiated) of every script fetched from the widget server until the element has rendered: the loader, the element chunk and the shared chunks. Data for the element is not counted. The second column is the same components built with real `react-dom` instead of `preact/compat` (`WIDGETS_WITH_REACT=1`). Target for `gc-inventory`: 40 KB or less, everything included.',
    async run() {
      await build({ configFile: `${root}vite.widgets.config.ts`, root, logLevel: 'warn' })
      process.env.WIDGETS_WITH_REACT = '1'
      try {
        await build({ configFile: `${root}vite.widgets.config.ts`, root, logLevel: 'warn' })
      } finally {
        delete process.env.WIDGETS_WITH_REACT
      }
      return widgetSizesMarkdown(await measureWidgetSizes())
    },
  },
  embed: {
    title: "A widget's main-thread time on a blank partner page",
    method:
      `Lighthouse 12.8's default mobile run (simulated slow 4G, 4x CPU slowdown) in Debian's headless Chromium of a page holding only the loader and \`<gc-inventory>\`, on another origin than the widget server (\`localhost\` and \`127.0.0.1\`, so Lighthouse counts the widgets as a third party), the way HTTP Archive measures third-party embeds: the \`third-party-summary\` audit's main-thread time for the widget server (parsing, compiling and running its scripts and the rendering they cause), of it the blocking time, and what it transferred (scripts and data); median of ${embedRuns} runs (\`EMBED_RUNS\`), against the built widgets (\`dist/widgets/\`) on the embedded database, seeded inventory. With \`EMBED_COMPARE\` set to another build's \`dist/widgets/\` folder (\`EMBED_COMPARE_LABEL\` names it), that build is served by a second widget server and the two alternate run by run, so both meet the same load. Target (issue #54): at most 50 ms; for scale, the best live-chat embed costs 33 ms.`,
    async run() {
      // `EMBED_COMPARE=<folder>`: another build's dist/widgets/ (main's, say), measured in turn with this one.
      const builds = [{ label: 'this build', dir: `${root}dist/widgets/` }]
      if (process.env.EMBED_COMPARE) builds.push({ label: process.env.EMBED_COMPARE_LABEL ?? process.env.EMBED_COMPARE, dir: process.env.EMBED_COMPARE })
      return embedMainThreadMarkdown(await measureEmbedMainThread(['gc-inventory'], embedRuns, builds))
    },
  },
  photos: {
    title: 'Photos',
    method:
      'Ten 12-megapixel camera-like photos made by `scripts/bench/photo-fixture.ts` (no real photos ship with the repository: a drawn cart on a lot with grain at several scales, 4032 × 3024, JPEG quality 88 with EXIF and GPS, about 3 MB each; the grain is harsher than most real photos, so sizes here err on the large side). Processing is `processPhoto` in the bench process, one photo at a time. Then the production server (`host/server/main.ts`) on the embedded database in its own process: page latency while the ten are uploaded at once through `POST /api/staff/carts/:id/photos`; one photo on every other cart; the cover file Chromium downloads on two phones; and Lighthouse of the vehicle page and `/inventory`.',
    run: photoBench,
  },
  lighthouse: {
    title: 'Lighthouse, mobile',
    method:
      "Lighthouse 12.8 with its default mobile settings (simulated slow 4G, 4x CPU slowdown, a Moto G Power screen) in Debian's headless Chromium, the median of three runs per page (`LIGHTHOUSE_RUNS`; `LIGHTHOUSE_PAGES` names fewer pages), against the production build served by the real server (embedded database, seeded inventory) on loopback. Total bytes and JavaScript are compressed transfer sizes.",
    async run() {
      const server = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { site: true })
      try {
        return lighthouseMarkdown(await runLighthouse(lighthouseAsked.map((p) => `${server.url}${p}`), lighthouseRuns), server.url)
      } finally {
        await server.close()
      }
    },
  },
}

/**
 * One address of every page type the site has (domain/site-paths.ts, issue #54), on a server
 * started just for the run: the pages a shopper reaches, the forms and the shortlists included.
 * The pages only an email's link opens (an alert's confirmation, a booking's) are left out.
 */
export const lighthousePages = [
  '/',
  '/inventory',
  '/vehicle/2025-evolution-d6-max-gt4',
  '/ocean-county-golf-carts',
  '/rentals',
  '/rentals/ocean-county-golf-cart-rentals',
  '/rentals/request',
  '/services',
  '/services/request',
  '/financing',
  '/about',
  '/contact',
  '/compare?carts=2025-evolution-d6-max-gt4,2025-denago-ev-rover-xl6,2025-evolution-d5-maverick-2-2',
  '/saved',
  '/privacy-policy',
]

/**
 * `LIGHTHOUSE_PAGES` (paths separated by commas) runs only those pages, `LIGHTHOUSE_RUNS` another
 * number of runs than three: for comparing a change on the pages it touches. The section then
 * holds only those pages, so the full run is the one to keep.
 */
const lighthouseAsked = process.env.LIGHTHOUSE_PAGES ? process.env.LIGHTHOUSE_PAGES.split(',').map((p) => p.trim()) : lighthousePages
const lighthouseRuns = Number(process.env.LIGHTHOUSE_RUNS ?? 3)

function lighthouseMarkdown(results: LighthouseResult[], base: string): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
  const lines = [
    '| page | Performance | Accessibility | Best Practices | SEO | LCP | TBT | CLS | total bytes | JavaScript |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| \`${r.url.replace(base, '')}\` | ${r.scores.performance} | ${r.scores.accessibility} | ${r.scores.bestPractices} | ${r.scores.seo} | ${Math.round(r.lcpMs)} ms | ${Math.round(r.tbtMs)} ms | ${r.cls.toFixed(3)} | ${kb(r.totalBytes)} | ${kb(r.scriptBytes)} |`,
    ),
  ]
  const failing = results.filter((r) => r.failing.length > 0)
  if (failing.length > 0) {
    lines.push('', 'Audits scoring below 0.9 on each page, for what is left to improve:', '')
    for (const r of failing) lines.push(`- \`${r.url.replace(base, '')}\`: ${r.failing.map((f) => `\`${f}\``).join(', ')}`)
  }
  return lines.join('\n')
}

const requested = process.argv.slice(2).filter((a) => !a.startsWith('-'))
const unknown = requested.filter((name) => !(name in sections))
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(sections).join(', ')}`)
  process.exit(2)
}
const names = requested.length > 0 ? requested : Object.keys(sections)

// Every section that serves the site needs its production build: built once, as `npm start` does.
await buildIfStale()

const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM`
let document = readDocument()
for (const name of names) {
  const section = sections[name]!
  console.log(`\n## ${section.title}\n`)
  // Other work on the machine slows every figure: say how busy it was when the section began.
  const load = loadavg()[0]!.toFixed(1)
  const table = await section.run()
  console.log(table)
  const body = [
    `## ${section.title}`,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine} (load average ${load} when it began), Node ${process.version}, with \`npm run bench -- ${name}\`.`,
    '',
    section.method,
    '',
    table,
  ].join('\n')
  document = replaceSection(document, name, body)
}
writeFileSync(file, document)
console.log(`\nWrote ${file}`)

function readDocument(): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return [
      '# Benchmarks',
      '',
      'Every number here was measured by `npm run bench` (all sections) or `npm run bench -- <section>`',
      '(one section); each section says when, on what machine and with which command. Loopback only,',
      'bounded in time. Re-run on your own machine to compare.',
      '',
    ].join('\n')
  }
}

function replaceSection(text: string, name: string, body: string): string {
  const start = `<!-- bench:${name} -->`
  const end = `<!-- /bench:${name} -->`
  const block = `${start}\n${body}\n${end}`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from >= 0 && to > from) return text.slice(0, from) + block + text.slice(to + end.length)
  return `${text.trimEnd()}\n\n${block}\n`
}
