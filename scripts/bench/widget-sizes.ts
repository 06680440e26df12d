import { existsSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import express from 'express'
import { launchBrowser } from '../../tests/support/browser.ts'
import { startTestServer } from '../../tests/support/test-server.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** One page per element, as a partner would paste it. */
export const elementPages: Record<string, string> = {
  'gc-inventory': '<gc-inventory></gc-inventory>',
  'gc-featured-carts': '<gc-featured-carts></gc-featured-carts>',
  'gc-vehicle-detail': '<gc-vehicle-detail slug="2025-evolution-d6-max-gt4"></gc-vehicle-detail>',
  'gc-rental-plans': '<gc-rental-plans></gc-rental-plans>',
  'gc-rental-request': '<gc-rental-request></gc-rental-request>',
  'gc-payment-calculator': '<gc-payment-calculator></gc-payment-calculator>',
  'gc-contact-form': '<gc-contact-form></gc-contact-form>',
}

export interface WidgetSize {
  element: string
  build: 'preact' | 'react'
  /** Compressed bytes as Chromium downloaded them (Content-Length of each script). */
  transferred: number
  encoding: string
  files: number
}

/**
 * Opens each element alone on a partner page (another origin), in a fresh browser context, and
 * adds up the JavaScript Chromium downloads from the widget server until the element has
 * rendered: the loader, the element's chunk and every shared chunk.
 */
export async function measureWidgetSizes(): Promise<WidgetSize[]> {
  const builds = [
    { build: 'preact' as const, dir: `${root}dist/widgets/` },
    { build: 'react' as const, dir: `${root}dist/widgets-react/` },
  ]
  for (const { dir } of builds) {
    if (!existsSync(`${dir}gc-widgets.js`)) throw new Error(`Build ${dir} first (see docs/BENCHMARKS.md)`)
  }
  const browser = await launchBrowser()
  const results: WidgetSize[] = []
  try {
    for (const { build, dir } of builds) {
      const api = await startTestServer('pglite', { LOG_LEVEL: 'silent' }, { widgetsDir: dir })
      const partner = await partnerServer(api.url)
      const partnerUrl = `http://localhost:${(partner.address() as AddressInfo).port}`
      try {
        for (const element of Object.keys(elementPages)) {
          const context = await browser.newContext()
          const page = await context.newPage()
          const scripts = new Map<string, { length: number; encoding: string }>()
          page.on('response', async (response) => {
            if (!response.url().startsWith(`${api.url}/widgets/`)) return
            const headers = await response.allHeaders()
            scripts.set(response.url(), {
              length: Number(headers['content-length'] ?? (await response.body()).length),
              encoding: headers['content-encoding'] ?? 'identity',
            })
          })
          await page.goto(`${partnerUrl}/${element}`)
          await page.locator(`${element} .gc-widget > *`).first().waitFor()
          await page.waitForLoadState('networkidle')
          results.push({
            element,
            build,
            transferred: [...scripts.values()].reduce((sum, s) => sum + s.length, 0),
            encoding: [...new Set([...scripts.values()].map((s) => s.encoding))].join(', '),
            files: scripts.size,
          })
          await context.close()
        }
      } finally {
        await new Promise((resolve) => partner.close(resolve))
        await api.close()
      }
    }
  } finally {
    await browser.close()
  }
  return results
}

function partnerServer(apiUrl: string): Promise<Server> {
  const app = express()
  app.get('/:element', (req, res) => {
    const body = elementPages[req.params.element]
    if (!body) return void res.status(404).end()
    res.type('html').send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${req.params.element}</title>` +
        `<script type="module" src="${apiUrl}/widgets/gc-widgets.js"></script></head><body>${body}</body></html>`,
    )
  })
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server))
  })
}

export function widgetSizesMarkdown(rows: WidgetSize[]): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
  const lines = [
    '| element | Preact build (shipped) | same components with react-dom | scripts |',
    '| --- | ---: | ---: | ---: |',
  ]
  for (const element of Object.keys(elementPages)) {
    const preact = rows.find((r) => r.element === element && r.build === 'preact')!
    const react = rows.find((r) => r.element === element && r.build === 'react')!
    lines.push(
      `| \`${element}\` | ${kb(preact.transferred)} (${preact.encoding}) | ${kb(react.transferred)} (${react.encoding}) | ${preact.files} |`,
    )
  }
  return lines.join('\n')
}
