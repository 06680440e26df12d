import { randomBytes } from 'node:crypto'
import type { BrowserContext, Page } from 'playwright-core'
import sharp from 'sharp'

/**
 * A salesperson listing a cart from the lot on a phone (issue #30), as one script for the browser
 * test (tests/browser/phone-listing.test.ts) and the benchmark on a throttled connection
 * (`npm run bench -- listing`): an empty form, the facts typed, five camera photos picked at
 * once, Publish.
 */

/** A 12-megapixel camera-sized JPEG of 3-4 MB (textured noise, as a photo compresses), tinted by `red`. */
export async function cameraPhoto(red: number): Promise<Buffer> {
  const [width, height, grain] = [4032, 3024, 4]
  const noise = randomBytes((width / grain) * (height / grain) * 3)
  return sharp(noise, { raw: { width: width / grain, height: height / grain, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .linear([0.5, 0.5, 0.5], [red, 40, 40])
    .jpeg({ quality: 82 })
    .toBuffer()
}

/** Five photos as a phone names them, each tinted a little redder than the one before: which is which, once stored. */
export const lotPhotoTints = [30, 70, 110, 150, 190] as const

export async function lotPhotos(): Promise<{ name: string; mimeType: string; buffer: Buffer }[]> {
  return Promise.all(lotPhotoTints.map(async (red, i) => ({ name: `IMG_20${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: await cameraPhoto(red) })))
}

/** Records the size of every upload's body the page sends (`uploadSizes` reads them). */
export async function recordUploadSizes(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const sent: number[] = []
    Object.assign(window, { sentBytes: sent })
    const send = XMLHttpRequest.prototype.send
    XMLHttpRequest.prototype.send = function (body) {
      if (body instanceof Blob) sent.push(body.size)
      return send.call(this, body)
    }
  })
}

export const uploadSizes = (page: Page): Promise<number[]> => page.evaluate(() => (window as Window & { sentBytes?: number[] }).sentBytes ?? [])

/** What the salesperson types: a cart on the lot, its title and description left to the console to build. */
export const lotCart = {
  year: '2025',
  make: 'Evolution',
  model: 'D5 Ranger',
  trim: '4 Plus',
  color: 'Sky Blue',
  seats: '4',
  battery: 'lithium',
  price: '13,495',
  stockNumber: 'LOT-0390',
  title: '2025 Evolution D5 Ranger 4 Plus',
} as const

export interface Listed {
  /** From opening the empty form to the published cart's page. */
  ms: number
  /** From picking the photos to the last one stored. */
  photosMs: number
  /** The cart's id, from its page's address. */
  id: number
  /** Each photo's upload body, in bytes (`recordUploadSizes` must be on the page's context). */
  uploads: number[]
}

/**
 * Opens the new cart's form (signed in already), types the facts, picks `photos` at once (which
 * saves a draft, then sends them), waits for every photo to be stored, and presses Publish.
 */
export async function listCartFromPhone(
  page: Page,
  siteUrl: string,
  photos: { name: string; mimeType: string; buffer: Buffer }[],
  options: { fullQuality?: boolean; stockNumber?: string } = {},
): Promise<Listed> {
  const started = Date.now()
  await page.goto(`${siteUrl}/staff/carts/new`)
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-staff-ready'))
  await page.getByLabel('Year').fill(lotCart.year)
  await page.getByLabel('Make').fill(lotCart.make)
  await page.getByLabel('Model').fill(lotCart.model)
  await page.getByLabel('Trim').fill(lotCart.trim)
  await page.getByLabel('Color').fill(lotCart.color)
  await page.getByLabel('Seats').fill(lotCart.seats)
  await page.getByLabel('Battery').selectOption(lotCart.battery)
  await page.getByLabel('Price', { exact: true }).fill(lotCart.price)
  await page.getByLabel('Stock number').fill(options.stockNumber ?? lotCart.stockNumber)
  const section = page.locator('#section-photos')
  if (options.fullQuality) await section.getByLabel('Upload full quality').check()
  const picked = Date.now()
  await section.getByLabel('Add photos').setInputFiles(photos, { timeout: 120_000 })
  await page.waitForFunction(
    (count) => document.querySelectorAll('#section-photos .staff-photos__item').length === count && !document.querySelector('#section-photos .staff-photos__upload'),
    photos.length,
    { timeout: 300_000, polling: 100 },
  )
  const photosMs = Date.now() - picked
  // Read before Publish leaves the page, and its count with it.
  const uploads = await uploadSizes(page)
  await page.getByRole('button', { name: 'Publish' }).click()
  await page.getByRole('status').filter({ hasText: 'Published' }).waitFor({ timeout: 60_000 })
  const id = Number(/\/staff\/carts\/(\d+)/.exec(new URL(page.url()).pathname)?.[1])
  return { ms: Date.now() - started, photosMs, id, uploads }
}
