/**
 * Looking at what we build: `node --import tsx tests/tools/shoot.mts <url> <out.png> [width]
 * [selector | @scrollY]` saves a full-page screenshot, one element's, or the viewport scrolled to y, in Debian's Chromium, and prints
 * console errors and failed requests.
 */
import { launchBrowser } from '../support/browser.ts'

const [url, out, width = '1280', selector] = process.argv.slice(2)
if (!url || !out) throw new Error('usage: shoot.mts <url> <out.png> [width] [selector]')
const browser = await launchBrowser()
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } })
page.on('console', (m) => m.type() === 'error' && console.log(`console: ${m.text()}`))
page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`))
page.on('response', (r) => r.status() >= 400 && console.log(`${r.status()}: ${r.url()}`))
await page.goto(url, { waitUntil: 'networkidle' })
/** Ready for a picture: every image loaded (or failed), the fonts in, two frames painted since. */
const atRest = () =>
  page.evaluate(async () => {
    const loading = [...document.images].filter((image) => !image.complete)
    await Promise.all(loading.map((image) => new Promise((done) => ['load', 'error'].forEach((event) => image.addEventListener(event, done, { once: true })))))
    await document.fonts.ready
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))
  })
if (selector?.startsWith('@')) {
  // "@1200": the viewport scrolled down to y = 1200.
  await page.evaluate((y) => window.scrollTo(0, y), Number(selector.slice(1)))
  await atRest()
  await page.screenshot({ path: out })
} else if (selector) {
  const element = page.locator(selector).first()
  await element.scrollIntoViewIfNeeded()
  await atRest()
  await element.screenshot({ path: out })
} else {
  // Scroll through once so lazy images load before the full-page picture.
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y)
      await new Promise((r) => requestAnimationFrame(r))
    }
    window.scrollTo(0, 0)
  })
  await atRest()
  await page.screenshot({ path: out, fullPage: true })
}
await browser.close()
