/**
 * Looking at every page type at once: `node --import tsx tests/tools/shoot-pages.mts <site-url>
 * <out-dir> [widths]` saves each page type (tests/support/page-types.ts) at 320, 390 and 1280 px
 * (or the comma-separated widths given), as full pages cut into screen-sized PNGs that an image
 * viewer shows without shrinking, and prints any page that scrolls sideways or logs an error.
 */
import { mkdirSync } from 'node:fs'
import { launchBrowser } from '../support/browser.ts'
import { pageTypes } from '../support/page-types.ts'

const [site, out, widthList = '320,390,1280'] = process.argv.slice(2)
if (!site || !out) throw new Error('usage: shoot-pages.mts <site-url> <out-dir> [widths]')
mkdirSync(out, { recursive: true })
const browser = await launchBrowser()
for (const width of widthList.split(',').map(Number)) {
  const page = await browser.newPage({ viewport: { width, height: 900 } })
  page.on('pageerror', (e) => console.log(`${page.url()} @${width}: ${e.message}`))
  for (const path of pageTypes) {
    await page.goto(`${site}${path}`, { waitUntil: 'networkidle' })
    // Scroll through once so lazy images load before the pictures.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo(0, y)
        await new Promise((r) => setTimeout(r, 30))
      }
      window.scrollTo(0, 0)
    })
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    if (overflow > 0) console.log(`${path} @${width}: scrolls sideways by ${overflow} px`)
    const height = await page.evaluate(() => document.documentElement.scrollHeight)
    const name = path === '/' ? 'home' : path.slice(1).replaceAll('/', '_')
    const step = width < 800 ? 1400 : 1000
    for (let y = 0, i = 0; y < height; y += step, i++) {
      const clip = { x: 0, y, width, height: Math.min(step, height - y) }
      await page.screenshot({ path: `${out}/${name}-${width}-${i}.png`, fullPage: true, clip })
    }
  }
  await page.close()
}
await browser.close()
