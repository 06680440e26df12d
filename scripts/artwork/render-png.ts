/**
 * Renders SVG or HTML to PNG with the system Chromium (social networks do not take SVG for
 * og:image). One browser, one page, every job at its exact viewport; no network is used.
 */
import { writeFile } from 'node:fs/promises'
import { chromium } from 'playwright-core'
import { optimisePng } from './png.ts'

export interface RenderJob {
  /** An SVG document or an HTML fragment; it is placed at the top left with no margin. */
  markup: string
  width: number
  height: number
  out: string
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export async function renderPngs(jobs: readonly RenderJob[]): Promise<number[]> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  })
  const sizes: number[] = []
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 })
    await page.route('**/*', (route) => route.abort())
    for (const job of jobs) {
      await page.setViewportSize({ width: job.width, height: job.height })
      await page.setContent(
        `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;overflow:hidden}` +
          `body>svg{display:block}</style></head><body>${job.markup}</body></html>`,
        { waitUntil: 'load' },
      )
      const shot = await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: job.width, height: job.height } })
      const png = optimisePng(shot)
      await writeFile(job.out, png)
      sizes.push(png.length)
    }
  } finally {
    await browser.close()
  }
  return sizes
}
