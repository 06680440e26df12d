import { existsSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { launch } from 'chrome-launcher'
import express from 'express'
import lighthouse from 'lighthouse'
import { startTestServer } from '../../tests/support/test-server.ts'
import { elementPages } from './widget-sizes.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

export interface EmbedCost {
  element: string
  /** Which build of the widgets: `this build` (dist/widgets/) or a folder compared with it. */
  build: string
  /** Lighthouse's third-party summary for the widget server's entity, median of the runs. */
  mainThreadMs: number
  blockingMs: number
  transferBytes: number
  /** The page's own Total Blocking Time, for scale. */
  pageTbtMs: number
  /** Each run's main-thread time, in the order run: on a busy machine the spread says as much as the median. */
  runsMs: number[]
}

/** A build of the widgets to measure: its label and its folder (a `dist/widgets/`). */
export interface WidgetBuild {
  label: string
  dir: string
}

/**
 * Each element's main-thread cost on a blank partner page, the way HTTP Archive measures
 * third-party embeds: Lighthouse's default mobile run (simulated slow 4G, 4x CPU slowdown) of a
 * page on one origin (`localhost`) that holds only the loader and the element, served from
 * another (`127.0.0.1`, the widget server, so Lighthouse counts it as a third party), and its
 * `third-party-summary` audit's main-thread time for that entity: parsing, compiling and running
 * every script from the widget server, and the rendering they cause. Median of `runs`.
 *
 * Given more than one build (another checkout's `dist/widgets/`, say main's), each is served by
 * its own widget server and their runs alternate, so a change is measured against what it
 * changes under the same load: on a shared machine, figures taken minutes apart differ by more
 * than most changes do.
 */
export async function measureEmbedMainThread(
  elements: readonly string[] = ['gc-inventory'],
  runs = 3,
  builds: readonly WidgetBuild[] = [{ label: 'this build', dir: `${root}dist/widgets/` }],
): Promise<EmbedCost[]> {
  for (const build of builds) {
    if (!existsSync(`${build.dir}/gc-widgets.js`)) throw new Error(`Build ${build.dir} first (npm run build)`)
  }
  const apis = []
  for (const build of builds) apis.push(await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { widgetsDir: build.dir }))
  const partner = await blankPartner(apis.map((api) => api.url))
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  })
  try {
    const results: EmbedCost[] = []
    for (const element of elements) {
      const attempts: EmbedCost[][] = builds.map(() => [])
      for (let i = 0; i < runs; i++) {
        for (const [b, build] of builds.entries()) {
          const url = `http://localhost:${(partner.address() as AddressInfo).port}/${b}/${element}`
          attempts[b]!.push(await runOnce(chrome.port, url, element, build.label, new URL(apis[b]!.url).hostname))
        }
      }
      for (const tries of attempts) {
        const runsMs = tries.map((t) => t.mainThreadMs)
        const sorted = [...tries].sort((a, b) => a.mainThreadMs - b.mainThreadMs)
        results.push({ ...sorted[Math.floor(runs / 2)]!, runsMs })
      }
    }
    return results
  } finally {
    chrome.kill()
    await new Promise((resolve) => partner.close(resolve))
    for (const api of apis) await api.close()
  }
}

async function runOnce(port: number, url: string, element: string, build: string, widgetHost: string): Promise<EmbedCost> {
  const runner = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] })
  const lhr = runner!.lhr
  type Item = { entity: string | { text?: string; url?: string }; mainThreadTime: number; blockingTime: number; transferSize: number }
  const items = ((lhr.audits['third-party-summary']?.details as { items?: Item[] } | undefined)?.items ?? []).filter((item) => {
    const name = typeof item.entity === 'string' ? item.entity : `${item.entity.text ?? ''} ${item.entity.url ?? ''}`
    return name.includes(widgetHost)
  })
  if (items.length === 0) throw new Error(`Lighthouse found no third party ${widgetHost} on ${url}`)
  return {
    element,
    build,
    runsMs: [],
    mainThreadMs: items.reduce((sum, item) => sum + item.mainThreadTime, 0),
    blockingMs: items.reduce((sum, item) => sum + item.blockingTime, 0),
    transferBytes: items.reduce((sum, item) => sum + item.transferSize, 0),
    pageTbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
  }
}

/** A blank partner page: the loader of one of the builds and one element, nothing else (`/{build}/{element}`). */
function blankPartner(apiUrls: readonly string[]): Promise<Server> {
  const app = express()
  app.get('/:build/:element', (req, res) => {
    const body = elementPages[req.params.element]
    const apiUrl = apiUrls[Number(req.params.build)]
    if (!body || !apiUrl) return void res.status(404).end()
    res.type('html').send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${req.params.element}</title><script type="module" src="${apiUrl}/widgets/gc-widgets.js"></script></head><body>${body}</body></html>`,
    )
  })
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server))
  })
}

export function embedMainThreadMarkdown(rows: readonly EmbedCost[]): string {
  const compared = new Set(rows.map((r) => r.build)).size > 1
  const lines = [
    `| element |${compared ? ' build |' : ''} main-thread time | of it blocking | scripts and data transferred | page TBT | each run |`,
    `| --- |${compared ? ' --- |' : ''} ---: | ---: | ---: | ---: | ---: |`,
  ]
  for (const r of rows) {
    lines.push(
      `| \`${r.element}\` |${compared ? ` ${r.build} |` : ''} ${Math.round(r.mainThreadMs)} ms | ${Math.round(r.blockingMs)} ms | ${(r.transferBytes / 1024).toFixed(1)} KB | ${Math.round(r.pageTbtMs)} ms | ${r.runsMs.map((ms) => Math.round(ms)).join(', ')} ms |`,
    )
  }
  return lines.join('\n')
}
