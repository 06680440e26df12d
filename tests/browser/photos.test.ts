import { HtmlValidate } from 'html-validate'
import sharp from 'sharp'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { GolfCartDetail } from '../../domain/golf-cart.ts'
import { axeViolations } from '../support/browser.ts'
import { addLoader, usePartnerPages } from '../support/partner-pages.ts'
import { phone, useSite } from '../support/site-visits.ts'
import { addStaff, signIn } from '../support/staff.ts'
import type { TestServer } from '../support/test-server.ts'

/**
 * Real photos in Chromium (issue #16): the vehicle page's gallery on the dealer's site and in
 * `<gc-vehicle-detail>` on a partner's page, with AVIF chosen, keys, swipe, thumbnails, the
 * full-screen view and axe.
 */
const site = useSite()
const partner = usePartnerPages()
const slug = '2025-denago-ev-rover-xl'

/** A landscape photo of one colour, different for each `shade`. */
const photo = (shade: number) =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: shade, g: 90, b: 200 - shade } } })
    .jpeg()
    .toBuffer()

/** Signs in as staff and uploads three photos to the cart, as the console does. */
async function photograph(server: TestServer, username: string): Promise<void> {
  await addStaff(server, username)
  const { cookie } = await signIn(server, username)
  const cart = (await (await fetch(`${server.url}/api/golf-carts/slug/${slug}`)).json()) as GolfCartDetail
  for (const [i, shade] of [20, 120, 220].entries()) {
    const res = await fetch(`${server.url}/api/staff/carts/${cart.id}/photos${i === 2 ? '?alt=Rear%20flip%20seat%20folded%20flat' : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', cookie: cookie!, origin: server.url },
      body: new Uint8Array(await photo(shade)),
    })
    expect(res.status).toBe(201)
  }
}

/** What the gallery shows: its counter, the main picture's chosen file and alt text, the current thumbnail. */
function galleryState(page: Page, root = 'body') {
  return page.evaluate((root) => {
    const host = root === 'body' ? document : document.querySelector(root)!.shadowRoot!
    const image = host.querySelector<HTMLImageElement>('.gc-gallery__stage img')!
    return {
      count: host.querySelector('.gc-gallery__count')?.textContent ?? '',
      src: image.currentSrc,
      alt: image.alt,
      current: [...host.querySelectorAll('.gc-gallery__thumb')].findIndex((t) => t.getAttribute('aria-current') === 'true'),
    }
  }, root)
}

describe('photos on the vehicle page', () => {
  it('shows the gallery: AVIF at phone size, the cover preloaded, keys, swipe, thumbnails, full screen, and passes axe', async () => {
    await photograph(site.server, 'maria')
    const { page, problems } = await site.visit(`/vehicle/${slug}`, phone)
    const preload = page.locator('head link[rel="preload"][as="image"]')
    expect(await preload.getAttribute('type')).toBe('image/avif')
    expect(await preload.getAttribute('fetchpriority')).toBe('high')
    // A phone at one device pixel per CSS pixel, 358 px of gallery: the 480 px AVIF, not the 1600.
    await expect.poll(async () => (await galleryState(page)).src).toMatch(/\/photos\/[0-9a-f]{32}-480\.avif$/)
    expect(await galleryState(page)).toMatchObject({ count: 'Photo 1 of 3', alt: '2025 Denago EV Rover XL', current: 0 })
    expect(await page.locator('.gc-gallery__stage img').getAttribute('fetchpriority')).toBe('high')

    // Keys: focus a gallery button, then the arrows, Home and End.
    await page.getByRole('button', { name: 'Next photo' }).click()
    expect(await galleryState(page)).toMatchObject({ count: 'Photo 2 of 3', alt: '2025 Denago EV Rover XL, photo 2', current: 1 })
    await page.keyboard.press('ArrowRight')
    expect(await galleryState(page)).toMatchObject({ count: 'Photo 3 of 3', alt: 'Rear flip seat folded flat' })
    await page.keyboard.press('ArrowRight')
    expect((await galleryState(page)).count).toBe('Photo 1 of 3')
    await page.keyboard.press('End')
    expect((await galleryState(page)).count).toBe('Photo 3 of 3')
    await page.keyboard.press('Home')
    expect((await galleryState(page)).count).toBe('Photo 1 of 3')

    // A swipe to the left shows the next photo; one to the right goes back.
    const stage = (await page.locator('.gc-gallery__stage').boundingBox())!
    const swipe = async (from: number, to: number) => {
      await page.mouse.move(stage.x + stage.width * from, stage.y + stage.height / 3)
      await page.mouse.down()
      await page.mouse.move(stage.x + stage.width * to, stage.y + stage.height / 3, { steps: 5 })
      await page.mouse.up()
    }
    await swipe(0.8, 0.3)
    expect((await galleryState(page)).count).toBe('Photo 2 of 3')
    await swipe(0.3, 0.8)
    expect((await galleryState(page)).count).toBe('Photo 1 of 3')

    // A thumbnail jumps to its photo.
    await page.locator('.gc-gallery__thumb').nth(2).click()
    expect(await galleryState(page)).toMatchObject({ count: 'Photo 3 of 3', current: 2 })
    expect(await axeViolations(page, '.gc-gallery')).toEqual([])

    // Full screen: a modal dialog with the photo at the screen's size, arrows inside, Escape closes.
    await page.getByRole('button', { name: 'Full screen' }).click()
    const dialog = page.locator('dialog.gc-gallery__dialog')
    await expect.poll(() => dialog.evaluate((d: HTMLDialogElement) => d.open)).toBe(true)
    expect(await dialog.locator('.gc-gallery__caption').textContent()).toBe('Rear flip seat folded flat (3 of 3)')
    expect(await axeViolations(page, 'dialog')).toEqual([])
    await dialog.getByRole('button', { name: 'Next photo' }).click()
    expect(await dialog.locator('.gc-gallery__caption').textContent()).toBe('2025 Denago EV Rover XL (1 of 3)')
    const fullImage = await dialog.locator('img').evaluate((img: HTMLImageElement) => ({ width: img.getBoundingClientRect().width, src: img.currentSrc }))
    expect(fullImage.width).toBeGreaterThan(phone.width - 10)
    expect(fullImage.src).toMatch(/\.avif$/)
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog.count()).toBe(0)
    expect((await galleryState(page)).count).toBe('Photo 1 of 3')
    expect(problems).toEqual([])
  })

  it('serves valid HTML with photos: the vehicle page, /inventory and the sitemap name them', async () => {
    const validator = new HtmlValidate({ extends: ['html-validate:standard'] })
    for (const path of [`/vehicle/${slug}`, '/inventory']) {
      const html = await (await fetch(`${site.server.url}${path}`)).text()
      expect(html).toMatch(/<picture><source type="image\/avif"/)
      const report = await validator.validateString(html, path)
      expect(report.results.flatMap((r) => r.messages.map((m) => `${path}:${m.line} ${m.ruleId}: ${m.message}`))).toEqual([])
    }
    const page = await (await fetch(`${site.server.url}/vehicle/${slug}`)).text()
    expect(page).toMatch(/<meta property="og:image" content="http:\/\/[^"]+\/photos\/[0-9a-f]{32}-1200\.jpg">/)
    expect(page.match(/property="og:image"/g)).toHaveLength(3)
    const sitemap = await (await fetch(`${site.server.url}/sitemap.xml`)).text()
    expect(sitemap).toContain('xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"')
    expect(sitemap.match(new RegExp(`/vehicle/${slug}</loc>((?:<image:image>.*?</image:image>)*)</url>`))?.[1]?.match(/<image:loc>/g)).toHaveLength(3)
  })

  it('puts the cover on the inventory card, and keeps the drawings of carts without photos', async () => {
    const { page } = await site.visit('/inventory')
    const card = page.locator('.gc-card', { hasText: '2025 Denago EV Rover XL' }).first()
    expect(await card.locator('picture source[type="image/avif"]').getAttribute('srcset')).toMatch(/-240\.avif 240w, .*-1600\.avif 1600w$/)
    const drawing = page.locator('.gc-card', { hasText: '2025 Evolution D6 Max GT4' }).first()
    expect(await drawing.locator('img').getAttribute('src')).toBe('/images/carts/2025-evolution-d6-max-gt4.svg')
    expect(await drawing.locator('picture').count()).toBe(0)
  })
})

describe('photos on a partner page', () => {
  it('<gc-vehicle-detail> shows the same gallery, its files from the dealer', async () => {
    await photograph(partner.api, 'sam')
    const { page, problems } = await partner.openHtml(`<gc-vehicle-detail api-base="${partner.api.url}" slug="${slug}"></gc-vehicle-detail>`)
    await addLoader(page, partner.api.url)
    await expect.poll(async () => page.locator('gc-vehicle-detail .gc-gallery__stage img').count()).toBe(1)
    await expect.poll(async () => (await galleryState(page, 'gc-vehicle-detail')).src).toMatch(
      new RegExp(`^${partner.api.url}/photos/[0-9a-f]{32}-\\d+\\.avif$`),
    )
    expect((await galleryState(page, 'gc-vehicle-detail')).count).toBe('Photo 1 of 3')
    await page.locator('gc-vehicle-detail').getByRole('button', { name: 'Next photo' }).click()
    expect((await galleryState(page, 'gc-vehicle-detail')).count).toBe('Photo 2 of 3')
    await page.locator('gc-vehicle-detail .gc-gallery__thumb').nth(2).click()
    expect((await galleryState(page, 'gc-vehicle-detail')).alt).toBe('Rear flip seat folded flat')
    expect(await axeViolations(page, 'gc-vehicle-detail')).toEqual([])
    expect(problems).toEqual([])
  })
})
