import { openDatabase } from '../../api/db/database.ts'
import { type BenchDatabase, benchDatabase, measure, measureMedian, median, record, startBareServer, startSiteProcess } from './api.ts'

/** The PostgreSQL server to measure beside the embedded database, when one is given. */
export const postgresAdminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
export const backendKinds = (): ('embedded' | 'postgres')[] => (postgresAdminUrl ? ['embedded', 'postgres'] : ['embedded'])

const heavy = { connections: 50, seconds: 3 }
const warm = { connections: 10, seconds: 1 }
const n = (value: number) => value.toLocaleString('en-US')

const targets = [
  ['REST list', '/api/golf-carts'],
  ['REST featured', '/api/golf-carts/featured'],
  ['REST slug', '/api/golf-carts/slug/2025-evolution-d6-max-gt4'],
  ['tRPC list', '/trpc/cart.list'],
] as const

async function withSite<T>(db: BenchDatabase, env: Record<string, string>, run: (url: string) => Promise<T>): Promise<T> {
  const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info', ...env })
  try {
    return await run(site.url)
  } finally {
    await site.stop()
  }
}

/** Our answers next to a bare node:http server sending the same bytes from memory. */
export async function apiThroughput(): Promise<string> {
  const lines = [
    '| database | endpoint | req/s | p50 | p99 | bare node:http req/s | bare p99 | share of ceiling |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const kind of backendKinds()) {
    const db = await benchDatabase(kind, undefined, postgresAdminUrl)
    try {
      await withSite(db, {}, async (url) => {
        const bare = await startBareServer(await record(url, targets.map(([, path]) => path)))
        try {
          for (const [name, path] of targets) {
            await measure(`${url}${path}`, warm)
            // Ours and the ceiling alternate, three rounds each, so both see the same machine.
            const oursRuns = []
            const ceilingRuns = []
            for (let round = 0; round < 3; round++) {
              oursRuns.push(await measure(`${url}${path}`, heavy))
              ceilingRuns.push(await measure(`${bare.url}${path}`, heavy))
            }
            const ours = median(oursRuns)
            const ceiling = median(ceilingRuns)
            lines.push(
              `| ${db.description} | ${name} \`${path}\` | ${n(ours.rps)} | ${ours.p50} ms | ${ours.p99} ms | ${n(ceiling.rps)} | ${ceiling.p99} ms | ${Math.round((ours.rps / ceiling.rps) * 100)}% |` +
                (ours.errors ? ` (${ours.errors} errors)` : ''),
            )
          }
        } finally {
          await bare.stop()
        }
      })
    } finally {
      await db.drop()
    }
  }
  return lines.join('\n')
}

/** Leads posted as fast as 50 connections can, each committed before its 201. */
export async function submissionThroughput(): Promise<string> {
  const lines = [
    '| database | req/s | p50 | p99 | answered 201 | stored |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const kind of backendKinds()) {
    const db = await benchDatabase(kind, undefined, postgresAdminUrl)
    try {
      let sequence = 0
      const result = await withSite(db, { LEAD_RATE_LIMIT: '0' }, (url) =>
        measure(`${url}/api/contact`, heavy, {
          method: 'POST',
          body: () =>
            JSON.stringify({
              firstName: 'Bench',
              lastName: `Lead ${++sequence}`,
              email: `bench${sequence}@example.com`,
              interest: 'rentals',
              message: 'A weekly 6 seater rental in Cape May, please.',
            }),
        }),
      )
      const answered = Math.round(result.rps * heavy.seconds)
      const stored = await countLeads(db)
      lines.push(
        `| ${db.description} | ${n(result.rps)} | ${result.p50} ms | ${result.p99} ms | about ${n(answered)} | ${n(stored)} |` +
          (result.errors ? ` (${result.errors} errors)` : ''),
      )
    } finally {
      await db.drop()
    }
  }
  return lines.join('\n')
}

async function countLeads(db: BenchDatabase): Promise<number> {
  const opened = await openDatabase({ databaseUrl: db.env.DATABASE_URL, dataDir: db.env.DATA_DIR ?? null })
  try {
    const [row] = await opened.sql<[{ n: number }]>`select count(*)::int as n from contact_inquiries`
    return row.n
  } finally {
    await opened.close()
  }
}

/**
 * The inventory's first page and a page from the middle, over REST, and the server-rendered
 * inventory page, with 24, 1,000 and 10,000 carts: with the caches (as served) and without them
 * (CACHE_MB=0: every request reaches the database).
 */
export async function growth(): Promise<string> {
  const sizes = [24, 1000, 10_000]
  const lines = [
    '| database | carts | caches | first page p50 / p99 | middle page p50 / p99 | /inventory page p50 / p99 | every cart (`/api/golf-carts`) p50 |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: |',
  ]
  const load = { connections: 10, seconds: 2 }
  for (const kind of backendKinds()) {
    for (const size of sizes) {
      const db = await benchDatabase(kind, size, postgresAdminUrl)
      try {
        for (const cache of ['on', 'off'] as const) {
          const row = await withSite(db, cache === 'off' ? { CACHE_MB: '0' } : {}, async (url) => {
            const middle = Math.floor(size / 2 / 24) * 24
            const paths = [`/api/golf-carts?limit=24`, `/api/golf-carts?limit=24&offset=${middle}`, '/inventory']
            const results = []
            for (const path of paths) {
              await measure(`${url}${path}`, warm)
              results.push(await measureMedian(`${url}${path}`, load))
            }
            const all = await measure(`${url}/api/golf-carts`, { connections: 2, seconds: 2 })
            return [...results.map((r) => `${r.p50} / ${r.p99} ms`), `${all.p50} ms`]
          })
          lines.push(`| ${db.description} | ${n(size)} | ${cache} | ${row.join(' | ')} |`)
        }
      } finally {
        await db.drop()
      }
    }
  }
  return lines.join('\n')
}
