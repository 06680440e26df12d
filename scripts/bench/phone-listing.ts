import { openDatabase } from '../../api/db/database.ts'
import { createUserStore } from '../../api/users/user-store.ts'
import { launchBrowser } from '../../tests/support/browser.ts'
import { listCartFromPhone, lotPhotos, recordUploadSizes } from '../../tests/support/phone-listing.ts'
import { benchDatabase, startSiteProcess } from './api.ts'
import { benchPassword, signInForBench } from './staff.ts'

/**
 * Listing a cart from a phone on the lot (issue #30, "Measure and report"): the browser test's
 * script (tests/support/phone-listing.ts) at 390 px with touch over a throttled connection,
 * Chromium's network emulation at 10 Mbit/s up. From the empty form to the published cart's page,
 * and the bytes the five photos took up; three runs of each way, the median.
 */
const network = { offline: false, latency: 40, uploadThroughput: (10 * 1e6) / 8, downloadThroughput: (40 * 1e6) / 8 }

const ways = [
  { label: 'scaled on the phone (as set by default)', fullQuality: false, cpu: 1 },
  { label: 'scaled on the phone, CPU slowed 4x (a mid-range phone, as Lighthouse\'s mobile runs)', fullQuality: false, cpu: 4 },
  { label: '"Upload full quality" ticked: the files as taken', fullQuality: true, cpu: 1 },
] as const

const runs = 3
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

export async function phoneListing(): Promise<string> {
  const photos = await lotPhotos()
  const picked = photos.reduce((sum, p) => sum + p.buffer.length, 0)
  const lines = [
    `Five camera photos of ${photos.map((p) => megabytes(p.buffer.length)).join(', ')} (${megabytes(picked)} in all), 4032 × 3024.`,
    '',
    '| way | empty form → published (median of 3) | photos picked → all stored | uploaded | slowest run |',
    '| --- | ---: | ---: | ---: | ---: |',
  ]
  const db = await benchDatabase('embedded')
  try {
    const opened = await openDatabase({ databaseUrl: db.env.DATABASE_URL, dataDir: db.env.DATA_DIR ?? null })
    try {
      await createUserStore(opened.sql).add('bench', benchPassword, { role: 'sales' })
    } finally {
      await opened.close()
    }
    const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info' })
    const browser = await launchBrowser()
    try {
      const [name, value] = (await signInForBench(site.url)).split('=') as [string, string]
      for (const way of ways) {
        const results = []
        for (let run = 0; run < runs; run++) {
          const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })
          await context.addCookies([{ name, value, url: site.url }])
          await recordUploadSizes(context)
          const page = await context.newPage()
          const cdp = await context.newCDPSession(page)
          await cdp.send('Network.enable')
          await cdp.send('Network.emulateNetworkConditions', network)
          if (way.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: way.cpu })
          // Each run lists a cart of its own: a stock number is one cart's.
          results.push(await listCartFromPhone(page, site.url, photos, { fullQuality: way.fullQuality, stockNumber: `LOT-${Date.now() % 1e6}` }))
          await context.close()
        }
        const ms = results.map((r) => r.ms)
        const uploaded = median(results.map((r) => r.uploads.reduce((sum, size) => sum + size, 0)))
        lines.push(`| ${way.label} | ${seconds(median(ms))} | ${seconds(median(results.map((r) => r.photosMs)))} | ${megabytes(uploaded)} | ${seconds(Math.max(...ms))} |`)
      }
    } finally {
      await browser.close()
      await site.stop()
    }
  } finally {
    await db.drop()
  }
  return lines.join('\n')
}
