import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { showroomKeys } from '../../domain/business.ts'
import { manufacturerPages } from '../../domain/catalogue.ts'
import { inventoryCsv } from '../../api/carts/inventory-csv.ts'
import { slugify } from '../../domain/slug.ts'
import { withCheckDigit } from '../../domain/vin.ts'
import { backendKinds, postgresAdminUrl } from './api-sections.ts'
import { benchDatabase, startSiteProcess } from './api.ts'

/**
 * The inventory import (issue #17): `npm run inventory -- import` of 1,000 and 10,000 new carts,
 * then the same 10,000 with every price changed, against the running production server, while
 * one visitor at a time asks for pages. Reported: the command's wall time (start-up, reading,
 * checking, planning and writing), how long the write transaction held the database, and the
 * visitors' latency before and during the import.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const models = Object.keys(manufacturerPages)

function benchCsv(count: number, from: number, priceShift = 0): string {
  const carts = Array.from({ length: count }, (_, i) => {
    const n = from + i
    const title = `2025 ${models[n % models.length]!}`
    const streetLegal = n % 2 === 0
    return {
      stockNumber: `BENCH-${String(n).padStart(6, '0')}`,
      title,
      description: `A generated ${title} for measuring the import, unit ${n}.`,
      price: 9000 + (n % 90) * 100 + priceShift,
      msrp: null,
      condition: 'new' as const,
      status: 'available' as const,
      location: showroomKeys[n % showroomKeys.length]!,
      featured: false,
      year: 2025,
      make: null,
      model: null,
      trim: null,
      vin: streetLegal ? withCheckDigit(`5ZEBN${String(n).padStart(12, '0')}`) : null,
      serialNumber: `SN${n}`,
      color: ['White', 'Black', 'Sky Blue', 'Champagne'][n % 4]!,
      seats: null,
      battery: null,
      streetLegal,
      lifted: n % 5 === 0,
      imageUrl: `/images/carts/${slugify(models[n % models.length]!.replace(/^/, '2025 '))}.svg`,
    }
  })
  return inventoryCsv(carts)
}

function runImport(file: string, env: Record<string, string>): Promise<{ ms: number; out: string }> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/inventory.ts', 'import', file],
      { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => (error ? reject(new Error(`import failed: ${err}`)) : resolve({ ms: performance.now() - started, out })),
    )
  })
}

/** One visitor at a time, alternating a server-rendered page and a REST list, until stopped. */
function visitor(url: string) {
  const times: number[] = []
  let running = true
  const paths = ['/inventory?page=2', '/api/golf-carts?limit=24&offset=24', '/vehicle/2025-evolution-d6-max-gt4']
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const started = performance.now()
      const res = await fetch(`${url}${paths[i % paths.length]}`)
      await res.arrayBuffer()
      times.push(performance.now() - started)
      await new Promise((r) => setTimeout(r, 20))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      return summary(times)
    },
  }
}

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  return `${at(0.5).toFixed(0)} / ${at(0.99).toFixed(0)} / ${(sorted.at(-1) ?? 0).toFixed(0)} ms (${sorted.length})`
}

export async function inventoryImport(): Promise<string> {
  const lines = [
    '| database | file | command wall time | write transaction | visitors before: p50 / p99 / max (requests) | visitors during the import: p50 / p99 / max (requests) |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ]
  const dir = mkdtempSync(join(tmpdir(), 'gc-bench-import-'))
  try {
    const files = {
      '1,000 new carts': join(dir, 'add-1000.csv'),
      '10,000 new carts': join(dir, 'add-10000.csv'),
      '10,000 carts, every price changed': join(dir, 'change-10000.csv'),
    }
    writeFileSync(files['1,000 new carts'], benchCsv(1_000, 0))
    writeFileSync(files['10,000 new carts'], benchCsv(10_000, 1_000))
    writeFileSync(files['10,000 carts, every price changed'], benchCsv(10_000, 1_000, 50))
    for (const kind of backendKinds()) {
      const db = await benchDatabase(kind, undefined, postgresAdminUrl)
      try {
        const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info' })
        try {
          for (const [name, file] of Object.entries(files)) {
            const before = visitor(site.url)
            await new Promise((r) => setTimeout(r, 3000))
            const baseline = await before.stop()
            const during = visitor(site.url)
            const { ms, out } = await runImport(file, db.env)
            const load = await during.stop()
            const writeMs = /one transaction of (\d+) ms/.exec(out)?.[1]
            lines.push(`| ${db.description} | ${name} | ${(ms / 1000).toFixed(1)} s | ${writeMs} ms | ${baseline} | ${load} |`)
          }
        } finally {
          await site.stop()
        }
      } finally {
        await db.drop()
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return lines.join('\n')
}
