import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'
import { benchDatabase, startSiteProcess } from './api.ts'

export interface SoakResult {
  seconds: number
  connections: number
  requests: number
  rps: number
  p99: number
  statuses: Record<string, number>
  /** Anything but the expected answers and the deliberate 429s. */
  errors: number
  rssMb: { at: number; mb: number }[]
}

/** The mix a busy season brings: pages, API reads, widget files and lead submissions. */
const mix = (n: () => number) => [
  { method: 'GET' as const, path: '/' },
  { method: 'GET' as const, path: '/inventory' },
  { method: 'GET' as const, path: '/api/golf-carts?limit=24' },
  { method: 'GET' as const, path: '/trpc/cart.featured?input=%7B%22limit%22%3A3%7D' },
  { method: 'GET' as const, path: '/vehicle/2025-evolution-d6-max-gt4' },
  { method: 'GET' as const, path: '/ocean-county-golf-carts' },
  { method: 'GET' as const, path: '/widgets/gc-widgets.js' },
  {
    method: 'POST' as const,
    path: '/api/contact',
    headers: { 'content-type': 'application/json' },
    setupRequest: (req: Record<string, unknown>) => ({
      ...req,
      body: JSON.stringify({ firstName: 'Soak', lastName: `Lead ${n()}`, email: `soak${n()}@example.com`, interest: 'service' }),
    }),
  },
]

function rssMb(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return match ? Math.round(Number(match[1]) / 1024) : Number.NaN
}

/**
 * A bounded soak on loopback: 200 connections of mixed traffic against the production server on
 * the embedded database, with the lead rate limit on (its 429s are deliberate), sampling the
 * server's resident memory every five seconds.
 */
export async function soak(seconds = Number(process.env.SOAK_SECONDS ?? 180), connections = 200): Promise<SoakResult> {
  const db = await benchDatabase('embedded')
  const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info' })
  const pid = site.process.pid!
  const samples = [{ at: 0, mb: rssMb(pid) }]
  const started = Date.now()
  const timer = setInterval(() => samples.push({ at: Math.round((Date.now() - started) / 1000), mb: rssMb(pid) }), 5000)
  let counter = 0
  try {
    const result = await autocannon({
      url: site.url,
      connections,
      duration: seconds,
      timeout: 10,
      requests: mix(() => ++counter) as autocannon.Request[],
    })
    samples.push({ at: seconds, mb: rssMb(pid) })
    const statuses = Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0]),
    )
    const expected = new Set(['200', '201', '429'])
    const unexpected = Object.entries(statuses).filter(([code]) => !expected.has(code)).reduce((sum, [, count]) => sum + count, 0)
    return {
      seconds,
      connections,
      requests: result.requests.total,
      rps: Math.round(result.requests.average),
      p99: result.latency.p99,
      statuses,
      errors: result.errors + result.timeouts + unexpected,
      rssMb: samples,
    }
  } finally {
    clearInterval(timer)
    await site.stop()
    await db.drop()
  }
}

export function soakMarkdown(r: SoakResult): string {
  // A garbage-collected heap saws up and down between samples, so the peak of each minute says
  // more than any two samples: memory that has stopped growing has flat peaks.
  const minutes = Array.from({ length: Math.ceil(r.seconds / 60) }, (_, m) =>
    Math.max(...r.rssMb.filter((s) => s.at > m * 60 && s.at <= (m + 1) * 60).map((s) => s.mb)),
  )
  return [
    `| duration | connections | requests | req/s | p99 | answers | errors (other than 429) |`,
    '| ---: | ---: | ---: | ---: | ---: | --- | ---: |',
    `| ${r.seconds} s | ${r.connections} | ${r.requests.toLocaleString('en-US')} | ${r.rps.toLocaleString('en-US')} | ${r.p99} ms | ${Object.entries(r.statuses)
      .map(([code, count]) => `${code}: ${count.toLocaleString('en-US')}`)
      .join(', ')} | ${r.errors} |`,
    '',
    `Server memory (RSS, MB) every 5 s: ${r.rssMb.map((s) => s.mb).join(', ')}.`,
    `Highest in each minute: ${minutes.map((mb) => `${mb} MB`).join(', ')}.`,
  ].join('\n')
}
