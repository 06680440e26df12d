import type { CDPSession, Page } from 'playwright-core'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import type { GolfCartDetail } from '../../domain/golf-cart.ts'
import { phoneUpload, photoPath } from '../../domain/photos.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { axeViolations } from '../support/browser.ts'
import { cameraPhoto, recordUploadSizes, uploadSizes } from '../support/phone-listing.ts'
import { usePartnerPages } from '../support/partner-pages.ts'
import { desktop, phone } from '../support/site-visits.ts'
import { addStaff, staffPassword } from '../support/staff.ts'

/**
 * Photos as picked (issue #30, point 2), in Chromium: five phone photos of 3-4 MB picked at once
 * at 390 px with touch keep the order picked (the first picked is the cover) though the first
 * one's upload is held back and finishes last; each is scaled on the phone to under 1.5 MB before
 * it is sent; a drag by touch on a photo's handle reorders and the server keeps it; focus stays on
 * the moved photo's control after Earlier, Later and Make cover. At 1280 px: a drag with the mouse
 * and with the keyboard, "Upload full quality" sending the file as it is, and a photo the browser
 * cannot scale sent as it is too. axe at both widths; screenshots in /tmp/gc-photos-*.png.
 */
const partner = usePartnerPages({ site: true })
const slug = '2025-evolution-d6-max-gt4'
let cart: GolfCartDetail

/** The mean red of a stored photo's smallest JPEG: which of the tinted photos it is. */
async function redOf(key: string, width: number): Promise<number> {
  const file = await fetch(`${partner.api.url}${photoPath(key, width, 'jpeg')}`)
  const stats = await sharp(Buffer.from(await file.arrayBuffer())).stats()
  return Math.round(stats.channels[0]!.mean)
}

const storedOrder = async () => (await partner.api.runtime.services.photos.list(cart.id)).map((p) => p.id)

/** The cart's page, signed in, with every upload body's size recorded (`window.sentBytes`). */
async function openCart(options: Parameters<typeof partner.newContext>[0]) {
  const context = await partner.newContext(options)
  await recordUploadSizes(context)
  const page = await context.newPage()
  const problems: string[] = []
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`))
  await page.goto(`${partner.api.url}/staff/login`)
  await page.getByLabel('Username').fill('maria')
  await page.getByLabel('Password').fill(staffPassword)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForLoadState()
  const answer = await page.goto(`${partner.api.url}${staffPaths.cart(cart.id)}`)
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-staff-ready'))
  return { page, problems, headers: answer!.headers(), sent: () => uploadSizes(page) }
}

/** What the list shows: each entry's place and file name or alt text, the cover first. */
const shown = (page: Page) =>
  page.locator('.staff-photos__list > li').evaluateAll((items) =>
    items.map((li) => li.querySelector('.staff-photos__name')?.textContent ?? li.querySelector<HTMLInputElement>('.staff-photos__alt input')?.value ?? ''),
  )
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '')
/**
 * The focused control when it is `wanted`; else that, with what the list shows, what is stored
 * and the status, so a failed poll says whether the move itself happened.
 */
async function focusedOn(page: Page, wanted: string): Promise<string> {
  const now = await focused(page)
  if (now === wanted) return now
  const status = await page.locator('.staff-photos__status').textContent()
  return `${now} (shown ${JSON.stringify(await shown(page))}, stored ${JSON.stringify(await storedOrder())}, status "${status}")`
}

/** A finger on `from`, moved in small steps to `to`, lifted (DevTools' touch events, as a phone sends them). */
async function touchDrag(cdp: CDPSession, from: { x: number; y: number }, to: { x: number; y: number }) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] })
  for (let step = 1; step <= 12; step++) {
    const point = { x: from.x + ((to.x - from.x) * step) / 12, y: from.y + ((to.y - from.y) * step) / 12 }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] })
    await new Promise((resolve) => setTimeout(resolve, 30))
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
}

const centre = async (page: Page, selector: string) => {
  const box = (await page.locator(selector).boundingBox())!
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

beforeAll(async () => {
  await addStaff(partner.api)
  cart = (await (await fetch(`${partner.api.url}/api/golf-carts/slug/${slug}`)).json()) as GolfCartDetail
})

describe('photos as picked', () => {
  let reds: number[] = []

  it('at 390 px with touch: five 3-4 MB photos picked at once keep their order and cover, go up under 1.5 MB each, drag by touch, keep focus', async () => {
    const files = await Promise.all([30, 70, 110, 150, 190].map(async (red, i) => ({ name: `IMG_000${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: await cameraPhoto(red) })))
    for (const file of files) expect(file.buffer.length).toBeGreaterThan(3_000_000)
    for (const file of files) expect(file.buffer.length).toBeLessThan(4_000_000)
    const { page, problems, headers, sent } = await openCart({ viewport: phone, hasTouch: true, isMobile: true })
    // Nothing forbids the camera (a file input's capture needs no permission, but a policy could still say no).
    expect(headers['permissions-policy'] ?? '').not.toMatch(/camera=\(\)/)
    const section = page.locator('#section-photos')
    const add = section.getByLabel('Add photos')
    expect([await add.getAttribute('accept'), await add.getAttribute('multiple')]).toEqual(['image/*', ''])
    const camera = section.getByLabel('Take a photo')
    expect([await camera.getAttribute('accept'), await camera.getAttribute('capture')]).toEqual(['image/*', 'environment'])
    expect(await section.getByLabel('Upload full quality').isChecked()).toBe(false)
    expect(await axeViolations(page, '#section-photos')).toEqual([])

    // The first photo's upload is held back until two others have arrived.
    const arrivals: number[] = []
    page.on('response', (answer) => {
      if (answer.request().method() === 'POST' && answer.url().includes('/photos?place=')) arrivals.push(Number(new URL(answer.url()).searchParams.get('place')))
    })
    let held = false
    await page.route(`**/api/staff/carts/${cart.id}/photos?place=*`, async (route) => {
      if (route.request().url().endsWith('place=0') && !held) {
        held = true
        for (let waited = 0; arrivals.length < 2 && waited < 120_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      await route.continue()
    })
    await add.setInputFiles(files, { timeout: 120_000 })
    // At once, every photo in its place as picked, the first marked as the cover.
    expect(await shown(page)).toEqual(files.map((f) => f.name))
    expect(await section.locator('.staff-photos__list > li').first().locator('.staff-photos__place strong').textContent()).toBe('Cover')
    const started = Date.now()
    await expect
      .poll(async () => ((await section.locator('.staff-photos__item').count()) === 5 ? 5 : `${Math.round((Date.now() - started) / 1000)} s ${JSON.stringify(arrivals)} ${await section.locator('.staff-photos__list').innerText()}`), { timeout: 240_000 })
      .toBe(5)
    expect(await section.locator('.staff-photos__upload').count()).toBe(0)
    expect(arrivals.indexOf(0)).toBeGreaterThanOrEqual(2)

    // Stored in the order picked: each photo's tint, first to last.
    const stored = await partner.api.runtime.services.photos.list(cart.id)
    reds = await Promise.all(stored.map((p) => redOf(p.key, p.widths[0]!)))
    expect([...reds].sort((a, b) => a - b)).toEqual(reds)
    expect(stored.map((p) => p.alt)).toEqual([cart.title, ...[2, 3, 4, 5].map((n) => `${cart.title}, photo ${n}`)])
    expect(await page.locator('.staff-photos__thumb').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).getAttribute('src')))).toEqual(
      stored.map((p) => photoPath(p.key, p.widths[0]!, 'jpeg')),
    )
    // Each scaled on the phone before it went: under 1.5 MB, from 3-4 MB.
    const bytes = await sent()
    expect(bytes).toHaveLength(5)
    for (const size of bytes) expect(size).toBeLessThan(1_500_000)
    expect(Math.max(...bytes)).toBeLessThanOrEqual(phoneUpload.targetBytes * 1.05)
    expect(stored.every((p) => p.width === 1600)).toBe(true)
    await page.screenshot({ path: '/tmp/gc-photos-390-added.png', fullPage: true })

    // A drag by touch on the fourth photo's handle, up to the second place (away from the
    // screen's edge, where the list would scroll).
    const ids = stored.map((p) => p.id)
    await page.evaluate(() => {
      document.querySelectorAll('.staff-photos__item')[1]!.scrollIntoView({ block: 'start' })
      window.scrollBy(0, -150)
    })
    const cdp = await page.context().newCDPSession(page)
    const [fourth, second] = [await centre(page, '.staff-photos__item:nth-child(4) .staff-photos__handle'), await centre(page, '.staff-photos__item:nth-child(2) .staff-photos__handle')]
    expect(fourth.y).toBeLessThan(phone.height - 100)
    await page.screenshot({ path: '/tmp/gc-photos-390-rows.png' })
    await touchDrag(cdp, fourth, second)
    const dragged = [ids[0]!, ids[3]!, ids[1]!, ids[2]!, ids[4]!]
    await expect.poll(storedOrder).toEqual(dragged)
    await expect.poll(() => section.locator('.staff-photos__status').textContent()).toBe('Photo moved to place 2 of 5.')

    // Buttons: focus stays on the moved photo's own control, not the top of the page.
    await section.getByRole('button', { name: 'Earlier (photo 3)' }).tap()
    await expect.poll(() => focusedOn(page, 'Earlier (photo 2)')).toBe('Earlier (photo 2)')
    await expect.poll(storedOrder).toEqual([ids[0], ids[1], ids[3], ids[2], ids[4]])
    await section.getByRole('button', { name: 'Later (photo 2)' }).tap()
    await expect.poll(() => focusedOn(page, 'Later (photo 3)')).toBe('Later (photo 3)')
    await expect.poll(storedOrder).toEqual(dragged)
    await section.getByRole('button', { name: 'Make cover (photo 4)' }).tap()
    // The cover has no Earlier or Make cover: focus is on its handle.
    await expect.poll(() => focusedOn(page, 'Move photo 1')).toBe('Move photo 1')
    await expect.poll(storedOrder).toEqual([ids[2], ids[0], ids[3], ids[1], ids[4]])
    // Later on the cover makes it the second photo; focus follows it.
    await section.getByRole('button', { name: 'Later (photo 1)' }).tap()
    await expect.poll(() => focusedOn(page, 'Later (photo 2)')).toBe('Later (photo 2)')
    await expect.poll(storedOrder).toEqual([ids[0], ids[2], ids[3], ids[1], ids[4]])

    expect(await axeViolations(page, '#section-photos')).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
    await page.evaluate(() => document.getElementById('section-photos')!.scrollIntoView())
    await page.screenshot({ path: '/tmp/gc-photos-390.png' })
    expect(problems).toEqual([])
  }, 420_000)

  it('at 1280 px: drags with the mouse and the keyboard, sends full quality when asked, and sends the original when the browser cannot scale it', async () => {
    const { page, problems, sent } = await openCart({ viewport: desktop })
    const section = page.locator('#section-photos')
    expect(await section.getByLabel('Take a photo').isVisible()).toBe(false)
    const before = await storedOrder()

    // The mouse: the last photo's handle dropped on the first's.
    await page.evaluate(() => document.querySelector('.staff-photos__list')!.scrollIntoView({ block: 'start' }))
    await page.screenshot({ path: '/tmp/gc-photos-1280-before.png' })
    const from = await centre(page, '.staff-photos__item:nth-child(5) .staff-photos__handle')
    const to = await centre(page, '.staff-photos__item:nth-child(1) .staff-photos__handle')
    await page.mouse.move(from.x, from.y)
    await page.mouse.down()
    for (let step = 1; step <= 10; step++) await page.mouse.move(from.x + ((to.x - from.x) * step) / 10, from.y + ((to.y - from.y) * step) / 10 - 4)
    await page.mouse.up()
    await expect.poll(storedOrder).toEqual([before[4], ...before.slice(0, 4)])
    await expect.poll(() => section.locator('.staff-photos__status').textContent()).toBe('Photo 5 is now the cover.')

    // The keyboard: Space on the cover's handle picks it up, Down moves it, Space drops it.
    await section.getByRole('button', { name: 'Move photo 1', exact: true }).focus()
    for (const key of ['Space', 'ArrowDown', 'Space']) {
      await page.keyboard.press(key)
      await page.waitForTimeout(300)
    }
    await expect.poll(storedOrder).toEqual([before[0], before[4], ...before.slice(1, 4)])
    await expect.poll(() => focused(page)).toBe('Move photo 2')
    expect(await axeViolations(page)).toEqual([])

    // Full quality at a desk: the file as it is.
    await section.getByLabel('Upload full quality').check()
    const original = await cameraPhoto(230)
    await section.getByLabel('Add photos').setInputFiles({ name: 'desk.jpg', mimeType: 'image/jpeg', buffer: original }, { timeout: 60_000 })
    await expect.poll(() => section.locator('.staff-photos__item').count(), { timeout: 120_000 }).toBe(6)
    expect((await sent()).at(-1)).toBe(original.length)
    const [sixth] = (await partner.api.runtime.services.photos.list(cart.id)).slice(-1)
    expect(await redOf(sixth!.key, sixth!.widths[0]!)).toBeGreaterThan(Math.max(...reds))

    // Scaling fails in this browser (no canvas can encode): the photo goes as it is, and is added.
    await section.getByLabel('Upload full quality').uncheck()
    await page.evaluate(() => {
      const refuse = () => {
        throw new Error('no encoder')
      }
      OffscreenCanvas.prototype.convertToBlob = () => Promise.reject(new Error('no encoder'))
      HTMLCanvasElement.prototype.toDataURL = refuse
      HTMLCanvasElement.prototype.toBlob = refuse
    })
    const unscaled = await cameraPhoto(10)
    await section.getByLabel('Add photos').setInputFiles({ name: 'unscaled.jpg', mimeType: 'image/jpeg', buffer: unscaled }, { timeout: 60_000 })
    await expect.poll(() => section.locator('.staff-photos__item').count(), { timeout: 120_000 }).toBe(7)
    expect((await sent()).at(-1)).toBe(unscaled.length)
    expect(await section.locator('.staff-photos__failure').count()).toBe(0)

    expect(await axeViolations(page, '#section-photos')).toEqual([])
    await page.evaluate(() => document.getElementById('section-photos')!.scrollIntoView())
    await page.screenshot({ path: '/tmp/gc-photos-1280.png' })
    expect(problems).toEqual([])
  }, 400_000)
})
