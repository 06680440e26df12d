import { backendKinds, postgresAdminUrl } from './api-sections.ts'
import { benchDatabase, measure, median, startSiteProcess } from './api.ts'

/**
 * Server-rendered pages as a browser asks for them (issue #12, point 3): the home page and a
 * vehicle page, with and without compression, and how fast a page is made again after a change.
 */
const heavy = { connections: 50, seconds: 3 }
const warm = { connections: 10, seconds: 1 }
const browser = { 'accept-encoding': 'gzip, deflate, br' }
const n = (value: number) => value.toLocaleString('en-US')

const targets = [
  ['home', '/', {}],
  ['home, compressed', '/', browser],
  ['vehicle page, compressed', '/vehicle/2025-evolution-d6-max-gt4', browser],
] as const

export async function pageThroughput(): Promise<string> {
  const lines = ['| database | page | req/s | p50 | p99 |', '| --- | --- | ---: | ---: | ---: |']
  for (const kind of backendKinds()) {
    const db = await benchDatabase(kind, undefined, postgresAdminUrl)
    const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info' })
    try {
      for (const [name, path, headers] of targets) {
        await measure(`${site.url}${path}`, warm, { headers })
        const runs = []
        for (let round = 0; round < 3; round++) runs.push(await measure(`${site.url}${path}`, heavy, { headers }))
        const result = median(runs)
        lines.push(
          `| ${db.description} | ${name} \`${path}\` | ${n(result.rps)} | ${result.p50} ms | ${result.p99} ms |` +
            (result.errors ? ` (${result.errors} errors)` : ''),
        )
      }
    } finally {
      await site.stop()
      await db.drop()
    }
  }
  return lines.join('\n')
}
