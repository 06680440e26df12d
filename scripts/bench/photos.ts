import { openDatabase } from '../../api/db/database.ts'
import { type ProcessedPhoto, processPhoto } from '../../api/photos/processing.ts'
import { createUserStore } from '../../api/users/user-store.ts'
import { photoFormats, photoPath, type StaffPhoto } from '../../domain/photos.ts'
import type { GolfCart, GolfCartDetail } from '../../domain/golf-cart.ts'
import { launchBrowser } from '../../tests/support/browser.ts'
import { benchDatabase, startSiteProcess } from './api.ts'
import { runLighthouse } from './lighthouse.ts'
import { cameraPhoto } from './photo-fixture.ts'
import { benchPassword as password, signInForBench } from './staff.ts'

/**
 * Photos (issue #16): what processing costs and produces for ten 12-megapixel camera-like photos;
 * page latency while ten are uploaded at once; the cover a phone downloads; and Lighthouse on a
 * vehicle page and /inventory once every cart has camera photos.
 */
const slug = '2025-denago-ev-rover-xl'
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!

export async function photoBench(): Promise<string> {
  const fixtures: Buffer[] = []
  for (let seed = 1; seed <= 10; seed++) fixtures.push(await cameraPhoto(seed))

  // Processing, one photo at a time as the server does it.
  const processed: ProcessedPhoto[] = []
  for (const input of fixtures) processed.push(await processPhoto(input))
  const widths = processed[0]!.widths
  const perPhoto = processed.map((p) => p.files.reduce((sum, f) => sum + f.bytes.length, 0))
  const lines = [
    `Ten photos of ${middle(fixtures.map((f) => f.length / 1024 / 1024)).toFixed(1)} MB (median; 4032 × 3024 JPEG with EXIF and GPS): processing took ${middle(processed.map((p) => p.ms))} ms per photo (median; slowest ${Math.max(...processed.map((p) => p.ms))} ms), and each photo is stored as ${kb(middle(perPhoto))} of files (median), so a cart with 24 such photos takes ${((middle(perPhoto) * 24) / 1024 / 1024).toFixed(1)} MB in the database.`,
    '',
    `| width | ${photoFormats.map((f) => `${f.toUpperCase()} (median)`).join(' | ')} |`,
    `| ---: | ${photoFormats.map(() => '---:').join(' | ')} |`,
    ...widths.map(
      (w) =>
        `| ${w} px | ${photoFormats.map((format) => kb(middle(processed.map((p) => p.files.find((f) => f.width === w && f.format === format)!.bytes.length)))).join(' | ')} |`,
    ),
  ]

  const db = await benchDatabase('embedded')
  try {
    const opened = await openDatabase({ databaseUrl: undefined, dataDir: db.env.DATA_DIR ?? null })
    try {
      await createUserStore(opened.sql).add('bench', password)
    } finally {
      await opened.close()
    }
    // Every request renders its page, so the latency is the page's, not a cache's.
    const site = await startSiteProcess({ ...db.env, LOG_LEVEL: 'info', CACHE_MB: '0' })
    try {
      const cookie = await signInForBench(site.url)
      const carts = (await (await fetch(`${site.url}/api/golf-carts`)).json()) as GolfCart[]
      const vehicle = carts.find((c) => c.slug === slug)!
      const upload = async (cartId: number, body: Buffer) => {
        const res = await fetch(`${site.url}/api/staff/carts/${cartId}/photos`, {
          method: 'POST',
          headers: { 'content-type': 'image/jpeg', cookie, origin: site.url },
          body: new Uint8Array(body),
        })
        if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`)
        return (await res.json()) as StaffPhoto
      }

      // Page latency alone, then while ten photos are uploaded at once (as the console sends a batch).
      const page = `${site.url}/vehicle/${slug}`
      const idle = await sampleLatency(page, () => new Promise((resolve) => setTimeout(resolve, 5000)))
      let uploadMs = 0
      const stored: StaffPhoto[] = []
      const during = await sampleLatency(page, async () => {
        const started = performance.now()
        stored.push(...(await Promise.all(fixtures.map((f) => upload(vehicle.id, f)))))
        uploadMs = performance.now() - started
      })
      lines.push(
        '',
        `Page latency of \`/vehicle/${slug}\` (rendered on every request, \`CACHE_MB=0\`), 2 requests at a time, on the embedded database, alone and while ten of these photos were uploaded at once to one process (all ten stored in ${(uploadMs / 1000).toFixed(1)} s, one processed at a time):`,
        '',
        '| | requests | p50 | p99 | slowest |',
        '| --- | ---: | ---: | ---: | ---: |',
        `| alone | ${idle.length} | ${middle(idle)} ms | ${percentile(idle, 99)} ms | ${Math.max(...idle)} ms |`,
        `| during the upload | ${during.length} | ${middle(during)} ms | ${percentile(during, 99)} ms | ${Math.max(...during)} ms |`,
      )

      // Every other cart gets one camera photo, so /inventory shows a photo on every card.
      for (const [i, cart] of carts.filter((c) => c.id !== vehicle.id).entries()) await upload(cart.id, fixtures[i % fixtures.length]!)
      const storage = stored.reduce((sum, p) => sum + p.bytes, 0)
      lines.push('', `The vehicle page's cart holds these ten photos in ${kb(storage)} (${(storage / 1024 / 1024).toFixed(1)} MB) of files.`)

      // The cover file a phone downloads, as Chromium chooses it from the srcset.
      const detail = (await (await fetch(`${site.url}/api/golf-carts/slug/${slug}`)).json()) as GolfCartDetail
      const cover = detail.photos[0]!
      const browser = await launchBrowser()
      const phones = [
        { name: "Lighthouse's phone (412 px wide, 1.75 device pixels per CSS pixel)", width: 412, height: 823, scale: 1.75 },
        { name: 'an iPhone 15 (390 px, 3 per CSS pixel)', width: 390, height: 844, scale: 3 },
      ]
      lines.push('', '| phone | cover file it downloads | bytes |', '| --- | --- | ---: |')
      try {
        for (const phone of phones) {
          const context = await browser.newContext({ viewport: { width: phone.width, height: phone.height }, deviceScaleFactor: phone.scale, isMobile: true })
          const tab = await context.newPage()
          const sizes = new Map<string, number>()
          tab.on('response', (r) => {
            if (r.url().includes(`/photos/${cover.key}-`)) void r.body().then((b) => sizes.set(new URL(r.url()).pathname, b.length))
          })
          await tab.goto(page, { waitUntil: 'networkidle' })
          const chosen = new URL(await tab.locator('.gc-gallery__stage img').evaluate((img: HTMLImageElement) => img.currentSrc)).pathname
          lines.push(`| ${phone.name} | \`${chosen.replace(cover.key, '<key>')}\` | ${kb(sizes.get(chosen) ?? Number.NaN)} |`)
          await context.close()
        }
      } finally {
        await browser.close()
      }
      if (!detail.photos.every((p) => p.widths.includes(1200))) throw new Error('expected every photo at 1200 px')
      lines.push('', `(For scale: the JPEG at 1200 px is ${kb(processed[0]!.files.find((f) => f.format === 'jpeg' && f.width === 1200)!.bytes.length)}; the address is \`${photoPath('<key>', 1200, 'jpeg')}\`.)`)

      const results = await runLighthouse([page, `${site.url}/inventory`])
      lines.push(
        '',
        'Lighthouse 12.8, default mobile settings (simulated slow 4G, 4x CPU slowdown), median of three runs, the production build with every cart photographed as above:',
        '',
        '| page | Performance | Accessibility | Best Practices | SEO | LCP | CLS | total bytes | images |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        ...results.map(
          (r) =>
            `| \`${r.url.replace(site.url, '')}\` | ${r.scores.performance} | ${r.scores.accessibility} | ${r.scores.bestPractices} | ${r.scores.seo} | ${Math.round(r.lcpMs)} ms | ${r.cls.toFixed(3)} | ${kb(r.totalBytes)} | ${kb(r.imageBytes)} |`,
        ),
      )
      const failing = results.filter((r) => r.failing.length > 0)
      for (const r of failing) lines.push('', `Below 0.9 on \`${r.url.replace(site.url, '')}\`: ${r.failing.map((f) => `\`${f}\``).join(', ')}`)
    } finally {
      await site.stop()
    }
  } finally {
    await db.drop()
  }
  return lines.join('\n')
}

/** Latencies in ms of GETs of `url`, two at a time, for as long as `during` runs. */
async function sampleLatency(url: string, during: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = []
  let done = false
  const worker = async () => {
    while (!done) {
      const started = performance.now()
      const res = await fetch(url)
      await res.arrayBuffer()
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`)
      times.push(Math.round(performance.now() - started))
    }
  }
  const workers = [worker(), worker()]
  await during()
  done = true
  await Promise.all(workers)
  return times
}

