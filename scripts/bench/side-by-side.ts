import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { postgresAdminUrl, backendKinds } from './api-sections.ts'
import { npmStartArgs } from '../../tests/support/server-process.ts'
import { type Child, benchDatabase, freePort, measure, median, record, startBareServer, startSiteProcess } from './api.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const load = { connections: 50, seconds: 3 }
const rounds = 3
const startRuns = 5

/** What a visitor and a widget ask for most: the lists, and two page types as HTML. */
const targets = [
  ['REST list', '/api/golf-carts'],
  ['tRPC list', '/trpc/cart.list'],
  ['home page HTML', '/'],
  ['vehicle page HTML', '/vehicle/2025-evolution-d6-max-gt4'],
] as const

const n = (value: number) => value.toLocaleString('en-US')
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`

function rssBytes(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return match ? Number(match[1]) * 1024 : Number.NaN
}

/** The highest resident memory of a process, sampled every 100 ms while `during` runs. */
async function peakRss<T>(pid: number, during: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = rssBytes(pid)
  const timer = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 100)
  try {
    const result = await during()
    return { result, peak: Math.max(peak, rssBytes(pid)) }
  } finally {
    clearInterval(timer)
  }
}

interface Breakdown {
  rss: number
  heapTotal: number
  heapUsed: number
  external: number
}

/** Asks the probe (scripts/bench/memory-probe.js) in the server where its memory is. */
async function probe(child: Child, file: string): Promise<Breakdown> {
  const before = readLines(file).length
  child.process.kill('SIGUSR2')
  for (let i = 0; i < 100; i++) {
    const lines = readLines(file)
    if (lines.length > before) return JSON.parse(lines.at(-1)!) as Breakdown
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('the memory probe did not answer')
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean)
  } catch {
    return []
  }
}

/** From spawning Node to the first complete answer of `path` (polled every 10 ms). */
async function timeToFirstAnswer(args: string[], env: Record<string, string>, path: string): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`)
      try {
        const res = await fetch(`http://127.0.0.1:${port}${path}`)
        await res.arrayBuffer()
        return performance.now() - started
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      if (performance.now() - started > 60_000) throw new Error(`${args.join(' ')} did not answer in 60 s`)
    }
  } finally {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
    })
  }
}

const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/**
 * The production server against a bare `node:http` server sending the very same bytes, on the
 * same machine in the same run: throughput of the lists and two pages, memory idle and at its
 * peak under that load, and start-up with a built tree.
 */
export async function sideBySide(): Promise<string> {
  const loadBefore = loadavg()[0]!
  const throughput = [
    '| database | answer | ours req/s | ours p99 | bare node:http req/s | bare p99 | ours / bare |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ]
  const memory = [
    '| process | idle RSS | peak RSS under the load above | V8 heap used / total, idle | external, idle (WebAssembly memory and buffers, reserved: PGlite\'s 128 MB count whole, resident or not) |',
    '| --- | ---: | ---: | ---: | ---: |',
  ]
  const startup = ['| process | first answer after spawn (median) | each run |', '| --- | ---: | --- |']

  const bareStarts: number[] = []
  let bareMemory: { idle: Breakdown; peak: number } | undefined
  for (const kind of backendKinds()) {
    const db = await benchDatabase(kind, undefined, postgresAdminUrl)
    try {
      const probeFile = join(mkdtempSync(join(tmpdir(), 'gc-probe-')), 'memory.jsonl')
      const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info', MEMORY_PROBE_FILE: probeFile }, ['--import', './scripts/bench/memory-probe.js'])
      try {
        const recorded = await record(site.url, targets.map(([, path]) => path))
        const bare = await startBareServer(recorded)
        try {
          for (const [, path] of targets) {
            await measure(`${site.url}${path}`, { connections: 10, seconds: 1 })
            await measure(`${bare.url}${path}`, { connections: 10, seconds: 1 })
          }
          await new Promise((resolve) => setTimeout(resolve, 3000))
          const oursIdle = await probe(site, probeFile)
          const bareIdle = rssBytes(bare.process.pid!)
          let oursPeak = 0
          let barePeak = 0
          for (const [name, path] of targets) {
            const oursRuns = []
            const bareRuns = []
            // Ours and the bare server alternate, so both see the same machine.
            for (let round = 0; round < rounds; round++) {
              const ours = await peakRss(site.process.pid!, () => measure(`${site.url}${path}`, load))
              oursRuns.push(ours.result)
              oursPeak = Math.max(oursPeak, ours.peak)
              const ceiling = await peakRss(bare.process.pid!, () => measure(`${bare.url}${path}`, load))
              bareRuns.push(ceiling.result)
              barePeak = Math.max(barePeak, ceiling.peak)
            }
            const ours = median(oursRuns)
            const ceiling = median(bareRuns)
            throughput.push(
              `| ${db.description} | ${name} \`${path}\` | ${n(ours.rps)} | ${ours.p99} ms | ${n(ceiling.rps)} | ${ceiling.p99} ms | ${(ours.rps / ceiling.rps).toFixed(2)} |` +
                (ours.errors ? ` (${ours.errors} errors)` : ''),
            )
          }
          memory.push(
            `| ours on ${db.description} | ${mb(oursIdle.rss)} | ${mb(oursPeak)} | ${mb(oursIdle.heapUsed)} / ${mb(oursIdle.heapTotal)} | ${mb(oursIdle.external)} |`,
          )
          bareMemory ??= { idle: { rss: bareIdle, heapTotal: Number.NaN, heapUsed: Number.NaN, external: Number.NaN }, peak: barePeak }
        } finally {
          await bare.stop()
        }
      } finally {
        await site.stop()
        rmSync(probeFile, { force: true })
      }
      // Ours and a bare server alternate here too.
      const ours: number[] = []
      for (let i = 0; i < startRuns; i++) {
        ours.push(await timeToFirstAnswer(npmStartArgs(), db.env, '/'))
        bareStarts.push(await timeToFirstAnswer(['scripts/bench/bare-server.js'], {}, '/'))
      }
      startup.push(startupRow(`\`npm start\` (\`node ${npmStartArgs().join(' ')}\`), built tree, ${db.description}, to the home page`, ours))
    } finally {
      await db.drop()
    }
  }
  if (bareMemory) memory.push(`| bare node:http with the same bytes | ${mb(bareMemory.idle.rss)} | ${mb(bareMemory.peak)} | | |`)
  startup.push(startupRow('bare `node:http` (`node scripts/bench/bare-server.js`), to its first answer', bareStarts))
  const loadAfter = loadavg()[0]!

  return [
    throughput.join('\n'),
    '',
    memory.join('\n'),
    '',
    startup.join('\n'),
    '',
    `Machine load (1-minute load average on the 2 cores) ${loadBefore.toFixed(1)} when the section started and ${loadAfter.toFixed(1)} when it ended.`,
  ].join('\n')
}

function startupRow(label: string, runs: number[]): string {
  return `| ${label} | ${Math.round(middle(runs))} ms | ${runs.map((r) => Math.round(r)).join(', ')} ms |`
}
