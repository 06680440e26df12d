import { openDatabase } from '../../api/db/database.ts'
import { createUserStore } from '../../api/users/user-store.ts'
import { showroomKeys } from '../../domain/business.ts'
import { benchPassword, signInForBench } from './staff.ts'
import { benchDatabase, measure, measureMedian, startSiteProcess } from './api.ts'
import { backendKinds, postgresAdminUrl } from './api-sections.ts'

/**
 * Search at 24, 1,000 and 10,000 carts (issue #19): a filtered, sorted, counted page, as the
 * REST list, as tRPC with every facet's counts, and as the server-rendered `/inventory`, plus a
 * words search; caches off, so every request reaches the database.
 */
const titles = [
  '2025 Denago EV City',
  '2025 Denago EV Nomad XL',
  '2025 Denago EV Rover XL6',
  '2025 Denago EV Rover XXL',
  '2025 Evolution D6 Max GT6',
  '2025 Evolution D6 Max GT4',
  '2025 Evolution D5 Maverick 4',
  '2025 Evolution Classic 4 Plus',
  'Club Car Onward',
]

const buyer = { seats: 6, battery: 'lithium', maxPrice: 15000, sort: 'price-asc' } as const
const buyerQuery = 'seats=6&battery=lithium&maxPrice=15000&sort=price-asc'

export async function searchBench(): Promise<string> {
  const lines = [
    '| database | carts | REST, filtered and sorted p50 / p99 | tRPC with facets p50 / p99 | `/inventory` filtered page p50 / p99 | words (`q=rover xl`) p50 / p99 | buyer\'s search finds |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  const load = { connections: 10, seconds: 2 }
  for (const kind of backendKinds()) {
    for (const size of [24, 1000, 10_000]) {
      const db = await benchDatabase(kind, size, postgresAdminUrl)
      try {
        await varyCarts(db.env)
        const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info', CART_CACHE_MS: '0' })
        try {
          const input = encodeURIComponent(JSON.stringify({ ...buyer, limit: 24, offset: 0, facets: true }))
          const paths = [
            `/api/golf-carts?${buyerQuery}&limit=24`,
            `/trpc/cart.list?input=${input}`,
            `/inventory?${buyerQuery}`,
            '/api/golf-carts?q=rover%20xl&limit=24',
          ]
          const row: string[] = []
          for (const path of paths) {
            await measure(`${site.url}${path}`, { connections: 10, seconds: 1 })
            const result = await measureMedian(`${site.url}${path}`, load)
            row.push(`${result.p50} / ${result.p99} ms`)
          }
          const found = (await fetch(`${site.url}/api/golf-carts?${buyerQuery}&limit=1`)).headers.get('x-total-count')
          lines.push(`| ${db.description} | ${size.toLocaleString('en-US')} | ${row.join(' | ')} | ${Number(found).toLocaleString('en-US')} |`)
        } finally {
          await site.stop()
        }
      } finally {
        await db.drop()
      }
    }
  }
  return lines.join('\n')
}

/** The generated carts as a real lot: several models, stored seats and batteries on some, a tenth street-legal, some lifted, a few holds. */
async function varyCarts(env: Record<string, string>, withStaff = false) {
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? null })
  try {
    if (withStaff) await createUserStore(db.sql).add('bench', benchPassword)
    await db.sql`
      update golf_carts set
        title = (${titles}::text[])[1 + id % ${titles.length}] || ' #' || id,
        price = 6000 + (id * 7919) % 14000,
        seats = case when id % 11 = 0 then 8 end,
        battery = case when id % 13 = 0 then 'lead-acid' end,
        street_legal = id % 10 = 0,
        lifted = id % 6 = 0,
        status = case when id % 50 = 0 then 'hold' else status end,
        listed_at = now() - (id % 400) * interval '1 day',
        location = (${showroomKeys}::text[])[1 + id % ${showroomKeys.length}]
    `
    await db.sql`analyze golf_carts`
  } finally {
    await db.close()
  }
}

/**
 * Twenty shoppers at once on /inventory at 10,000 carts (issue #31, point 13), each request a
 * different filtered page (showroom, seats, battery, price ceiling, sort, page 1 to 3), answers
 * not kept (`CART_CACHE_MS=0`); once with nothing changing and once with a price changed every
 * 200 ms through the database, so the listed carts are read again all the time.
 */
export async function busyInventoryBench(): Promise<string> {
  const lines = [
    '| database | carts | writes | load | requests | errors | p50 | p99 | requests/s |',
    '| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ]
  const choices = {
    location: ['', ...showroomKeys],
    seats: ['', '2', '4', '6', '8'],
    battery: ['', 'lithium', 'lead-acid'],
    maxPrice: ['', '10000', '15000', '20000'],
    sort: ['', 'price-asc', 'price-desc', 'newest'],
    page: ['', '2', '3'],
  }
  const pick = (values: string[]) => values[Math.floor(Math.random() * values.length)]!
  const path = () => {
    const params = new URLSearchParams()
    for (const [name, values] of Object.entries(choices)) {
      const value = pick(values)
      if (value) params.set(name, value)
    }
    return `/inventory?${params}`
  }
  for (const kind of backendKinds()) {
    const db = await benchDatabase(kind, 10_000, postgresAdminUrl)
    try {
      await varyCarts(db.env, true)
      const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info', CART_CACHE_MS: '0' })
      try {
        for (const writes of [false, true]) {
          const writer = writes ? await startPriceChanges(site.url) : undefined
          try {
            const changing = writes ? 'a price every 200 ms' : 'none'
            await measure(`${site.url}/inventory`, { connections: 20, seconds: 1 }, { path })
            // The warm-up's last answers are let through first, as crowds are 300 ms apart: the
            // first crowd measured otherwise queues behind up to 20 pages of the warm-up's.
            await new Promise((resolve) => setTimeout(resolve, 300))
            const crowd = await crowdsAtOnce(site.url, path)
            lines.push(`| ${db.description} | 10,000 | ${changing} | 20 at once, 15 times | ${crowd.requests} | ${crowd.errors} | ${crowd.p50} ms | ${crowd.p99} ms | |`)
            const result = await measureMedian(`${site.url}/inventory`, { connections: 20, seconds: 3 }, { path })
            const requests = Math.round(result.rps * 3)
            lines.push(
              `| ${db.description} | 10,000 | ${changing} | 20 connections without pause | ${requests.toLocaleString('en-US')} | ${result.errors} | ${result.p50} ms | ${result.p99} ms | ${result.rps} |`,
            )
          } finally {
            await writer?.stop()
          }
        }
      } finally {
        await site.stop()
      }
    } finally {
      await db.drop()
    }
  }
  return lines.join('\n')
}

/**
 * The goal's own load: 20 shoppers' pages asked at the same moment, each a different filtered
 * page, their answers awaited; 15 such crowds, 300 ms apart. Each page's time from its request to
 * the last byte of its answer.
 */
async function crowdsAtOnce(url: string, path: () => string) {
  const times: number[] = []
  let errors = 0
  for (let round = 0; round < 15; round++) {
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const started = performance.now()
        const res = await fetch(`${url}${path()}`).catch(() => undefined)
        if (!res?.ok) errors++
        await res?.arrayBuffer()
        times.push(performance.now() - started)
      }),
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
  times.sort((a, b) => a - b)
  const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor((times.length * p) / 100))]!)
  return { requests: times.length, errors, p50: at(50), p99: at(99) }
}

/** A price changed through the console every 200 ms (`staff.cart.setPrice`), as a salesperson saves one. */
async function startPriceChanges(url: string) {
  const headers = { cookie: await signInForBench(url), origin: url, 'content-type': 'application/json' }
  let i = 0
  const failures: string[] = []
  const timer = setInterval(() => {
    i++
    fetch(`${url}/trpc/staff.cart.setPrice`, { method: 'POST', headers, body: JSON.stringify({ id: 1 + ((i * 97) % 9000), price: 9000 + i }) }).then(
      async (res) => void (res.ok || failures.push(`${res.status} ${await res.text()}`)),
      (error: unknown) => failures.push(String(error)),
    )
  }, 200)
  return {
    async stop() {
      clearInterval(timer)
      if (failures.length) throw new Error(`${failures.length} price changes failed: ${failures.slice(0, 3).join('; ')}`)
    },
  }
}
