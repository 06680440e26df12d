// @ts-check
/**
 * Loaded into a benchmarked server with `node --import`: on SIGUSR2 it writes where the
 * process's memory is (resident set, V8 heap, memory outside the heap such as PGlite's
 * WebAssembly memory and buffers) as one JSON line to the file in MEMORY_PROBE_FILE.
 */
import { appendFileSync } from 'node:fs'

const file = process.env.MEMORY_PROBE_FILE
if (file) {
  process.on('SIGUSR2', () => {
    const m = process.memoryUsage()
    appendFileSync(file, `${JSON.stringify({ rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers })}\n`)
  })
}
