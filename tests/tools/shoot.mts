import { chromium } from 'playwright-core'
const [url, out, width = '1280', full = '1'] = process.argv.slice(2)
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] })
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } })
const logs: string[] = []
page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`))
page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`))
page.on('requestfailed', (r) => logs.push(`failed: ${r.url()} ${r.failure()?.errorText}`))
await page.goto(url!, { waitUntil: 'networkidle' })
await page.waitForTimeout(500)
await page.screenshot({ path: out!, fullPage: full === '1' })
console.log(logs.join('\n'))
await browser.close()
