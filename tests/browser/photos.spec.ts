import { HtmlValidate } from 'html-validate'
import sharp from 'sharp'
import type { Page, Request } from '@playwright/test'
import type { GolfCartDetail } from '../../domain/golf-cart.ts'
import { staffPaths } from '../../domain/staff-paths.ts'
import { addLoader, expect, phone, test as base, visitHydrated } from './fixtures.ts'

/**
 * Real photos in Chromium (issue #16): uploaded through the console's cart form (several files at
 * once, progress, reorder, cover, alt text), then the vehicle page's gallery on the dealer's site
 * and `<gc-vehicle-detail>` on a partner's page, with AVIF chosen, keys, swipe, thumbnails, the
 * full-screen view and axe.
 *
 * One story, told in order: the first test adds the photos every later one shows, so the file's
 * tests run in series in one worker (its server), and a failure skips those after it.
 */
const test = base.extend({
  // The dealer's server takes the partner page's origin, as a dealer who embeds the widgets does.
  serverEnv: [async ({ partner }, use) => use({ ALLOWED_ORIGINS: partner.allowedOrigin }), { scope: 'worker' }],
})
test.describe.configure({ mode: 'serial' })
test.use({ staffAccounts: [[{ username: 'maria' }], { scope: 'worker' }] })

const slug = '2025-denago-ev-rover-xl'

/** A landscape photo of one colour, different for each `shade`. */
const photo = (shade: number) =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: shade, g: 90, b: 200 - shade } } })
    .jpeg()
    .toBuffer()

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

test.describe('photos from the console to the vehicle page', () => {
  test.describe('in the console', () => {
    // The file that is not a photo is refused with 415, and Chromium logs it: the refusal is the point.
    test.use({ signedInAs: 'maria', expectedProblems: /^415: .*\/photos\b|status of 415\b/ })

    test('adds three photos in the cart form at once; reorders by buttons and by dragging, makes a cover, edits alt text, refuses a file that is not a photo', async ({ page, server, problems, axe }) => {
      // The console's calls still without an answer, for the alt-text poll below to name.
      const unanswered = new Set<Request>()
      const answered = (request: Request) => unanswered.delete(request)
      page.on('request', (request) => request.url().includes('/trpc/') && unanswered.add(request))
      page.on('requestfinished', answered)
      page.on('requestfailed', answered)
      const cart = (await (await fetch(`${server.url}/api/golf-carts/slug/${slug}`)).json()) as GolfCartDetail
      await page.goto(`${server.url}${staffPaths.cart(cart.id)}`)
      await expect(page.locator('html')).toHaveAttribute('data-staff-ready')
      const section = page.locator('#section-photos')
      await expect(section.locator('legend')).toHaveText('Photos')

      // A phone's camera roll or a desk's file dialog: three files chosen at once.
      const files = await Promise.all([20, 120, 220].map(async (shade, i) => ({ name: `IMG_00${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: await photo(shade) })))
      await section.getByLabel('Add photos').setInputFiles(files)
      await expect(section.locator('.staff-photos__item')).toHaveCount(3, { timeout: 30_000 })
      await expect(section.locator('.staff-photos__upload')).toHaveCount(0)
      await expect(section.locator('.staff-photos__count')).toHaveText('3 of 24')
      const alts = () => section.locator('.staff-photos__alt input').evaluateAll((inputs: HTMLInputElement[]) => inputs.map((i) => i.value))
      // In the order picked (issue #30), whichever upload finished first.
      const byPlace = ['2025 Denago EV Rover XL', '2025 Denago EV Rover XL, photo 2', '2025 Denago EV Rover XL, photo 3']
      await expect.poll(alts).toEqual(byPlace)
      // Each photo by its files' key, as its thumbnail shows it.
      const shown = () =>
        section.locator('.staff-photos__thumb').evaluateAll((imgs: HTMLImageElement[]) => imgs.map((img) => /\/photos\/([0-9a-f]{32})-/.exec(img.getAttribute('src') ?? '')?.[1]))
      const [a, b, c] = await shown()

      // Buttons move a photo and make one the cover. The list shows the new order at once and saves
      // it behind, one save at a time, each the order shown when it goes: a click before the last
      // save ends is saved with it. Each step waits for its save, as a person's next click comes
      // after it, so the history below has one entry a step (on a loaded run, two clicks once went
      // in one save).
      const stored = async () => (await server.runtime.services.photos.list(cart.id)).map((p) => p.key)
      const storedAlts = async () => (await server.runtime.services.photos.list(cart.id)).map((p) => p.alt)
      const shownAndSaved = async (order: (string | undefined)[]) => {
        await expect.poll(shown).toEqual(order)
        await expect.poll(stored).toEqual(order)
        // The alt text each started with follows its place (issue #47): the cover never reads "photo 3".
        await expect.poll(storedAlts).toEqual(byPlace)
        await expect.poll(alts).toEqual(byPlace)
      }
      await section.getByRole('button', { name: 'Earlier (photo 3)' }).click()
      await shownAndSaved([a, c, b])
      await section.getByRole('button', { name: 'Make cover (photo 2)' }).click()
      await shownAndSaved([c, a, b])
      await section.getByRole('button', { name: 'Later (photo 1)' }).click()
      await shownAndSaved([a, c, b])
      // Dragged by its handle into place: the third above the second.
      const handle = async (n: number) => {
        const box = (await section.locator('.staff-photos__handle').nth(n).boundingBox())!
        return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
      }
      const [from, to] = [await handle(2), await handle(1)]
      await page.mouse.move(from.x, from.y)
      await page.mouse.down()
      for (let step = 1; step <= 8; step++) await page.mouse.move(from.x, from.y + ((to.y - from.y) * step) / 8)
      await page.mouse.up()
      await shownAndSaved([a, b, c])

      const third = section.getByLabel('Alt text for photo 3')
      await third.fill('Rear flip seat folded flat')
      await third.press('Enter')
      // Two clean clones of some seven on 2026-11-28 saw the status stay at the drag's and the alt
      // text not stored, cause unknown (not seen alone or under load): a poll that fails says what
      // the field held, whether it had the focus, what the server stored and which of the console's
      // calls had no answer yet (its saves go one after another: one unanswered holds the rest).
      const altSaved = async () => {
        const status = await section.locator('.staff-photos__status').textContent()
        if (status === 'Alt text of photo 3 saved.') return status
        const field = await third.evaluate((input: HTMLInputElement) => ({ value: input.value, focused: document.activeElement === input, active: document.activeElement?.outerHTML.slice(0, 80) }))
        return `${status} (the field ${JSON.stringify(field)}, stored ${JSON.stringify(await storedAlts())}, unanswered ${JSON.stringify([...unanswered].map((r) => `${r.method()} ${new URL(r.url()).pathname}`))})`
      }
      await expect.poll(altSaved).toBe('Alt text of photo 3 saved.')
      expect(await storedAlts()).toEqual([byPlace[0], byPlace[1], 'Rear flip seat folded flat'])

      // Not a photo: refused beside the file's name, nothing added.
      await section.getByLabel('Add photos').setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') })
      await expect(section.locator('.staff-photos__failure')).toContainText('not a photo we can read')
      await expect(section.locator('.staff-photos__item')).toHaveCount(3)
      expect(await axe(page, { include: '#section-photos' })).toEqual([])

      // The cart's history tells each photo change once, newest first, with who made it.
      await page.reload()
      await expect
        .poll(async () => (await page.locator('.staff-history li').evaluateAll((items) => items.map((li) => li.textContent?.replace(/^.*?maria /, '')))).slice(0, 8))
        .toEqual([
          `changed a photo’s alt text from ${byPlace[2]} to Rear flip seat folded flat`,
          'reordered the photos',
          'changed the cover photo',
          'changed the cover photo',
          'reordered the photos',
          'added a photo',
          'added a photo',
          'added a photo',
        ])
      expect(await axe(page, { include: '.staff-history' })).toEqual([])
      expect(problems).toEqual([])
    })
  })

  test.describe('at phone width', () => {
    test.use({ viewport: phone })

    test('shows the gallery: AVIF at phone size, the cover preloaded, keys, swipe, thumbnails, full screen, and passes axe', async ({ page, server, problems, axe }) => {
      await visitHydrated(page, `${server.url}/vehicle/${slug}`)
      const state = () => galleryState(page)
      // The gallery and the test-drive booking (closed, it loads nothing until opened) are the
      // page's islands: the rest of the page is HTML only.
      expect(await page.locator('[data-island]').evaluateAll((els) => els.map((e) => e.getAttribute('data-island')))).toEqual(['gallery', 'book-visit'])
      const preload = page.locator('head link[rel="preload"][as="image"]')
      await expect(preload).toHaveAttribute('type', 'image/avif')
      await expect(preload).toHaveAttribute('fetchpriority', 'high')
      // A phone at one device pixel per CSS pixel, 358 px of gallery: the 480 px AVIF, not the 1600.
      await expect.poll(async () => (await state()).src).toMatch(/\/photos\/[0-9a-f]{32}-480\.avif$/)
      await expect.poll(state).toMatchObject({ count: 'Photo 1 of 3', alt: '2025 Denago EV Rover XL', current: 0 })
      await expect(page.locator('.gc-gallery__stage img')).toHaveAttribute('fetchpriority', 'high')

      // Keys: focus a gallery button, then the arrows, Home and End.
      await page.getByRole('button', { name: 'Next photo' }).click()
      await expect.poll(state).toMatchObject({ count: 'Photo 2 of 3', alt: '2025 Denago EV Rover XL, photo 2', current: 1 })
      const count = page.locator('.gc-gallery__count')
      await page.keyboard.press('ArrowRight')
      await expect.poll(state).toMatchObject({ count: 'Photo 3 of 3', alt: 'Rear flip seat folded flat' })
      await page.keyboard.press('ArrowRight')
      await expect(count).toHaveText('Photo 1 of 3')
      await page.keyboard.press('End')
      await expect(count).toHaveText('Photo 3 of 3')
      await page.keyboard.press('Home')
      await expect(count).toHaveText('Photo 1 of 3')

      // A swipe to the left shows the next photo; one to the right goes back.
      const stage = (await page.locator('.gc-gallery__stage').boundingBox())!
      const swipe = async (from: number, to: number) => {
        await page.mouse.move(stage.x + stage.width * from, stage.y + stage.height / 3)
        await page.mouse.down()
        await page.mouse.move(stage.x + stage.width * to, stage.y + stage.height / 3, { steps: 5 })
        await page.mouse.up()
      }
      await swipe(0.8, 0.3)
      await expect(count).toHaveText('Photo 2 of 3')
      await swipe(0.3, 0.8)
      await expect(count).toHaveText('Photo 1 of 3')

      // A thumbnail jumps to its photo.
      await page.locator('.gc-gallery__thumb').nth(2).click()
      await expect.poll(state).toMatchObject({ count: 'Photo 3 of 3', current: 2 })
      expect(await axe(page, { include: '.gc-gallery' })).toEqual([])

      // Full screen: a modal dialog with the photo at the screen's size, arrows inside, Escape closes.
      await page.getByRole('button', { name: 'Full screen' }).click()
      const dialog = page.locator('dialog.gc-gallery__dialog')
      await expect(dialog).toHaveJSProperty('open', true)
      await expect(dialog.locator('.gc-gallery__caption')).toHaveText('Rear flip seat folded flat (3 of 3)')
      expect(await axe(page, { include: 'dialog' })).toEqual([])
      await dialog.getByRole('button', { name: 'Next photo' }).click()
      await expect(dialog.locator('.gc-gallery__caption')).toHaveText('2025 Denago EV Rover XL (1 of 3)')
      const fullImage = () => dialog.locator('img').evaluate((img: HTMLImageElement) => ({ width: img.getBoundingClientRect().width, src: img.currentSrc }))
      await expect.poll(async () => (await fullImage()).width).toBeGreaterThan(phone.width - 10)
      await expect.poll(async () => (await fullImage()).src).toMatch(/\.avif$/)
      await page.keyboard.press('Escape')
      await expect(dialog).toHaveCount(0)
      await expect(count).toHaveText('Photo 1 of 3')
      expect(problems).toEqual([])
    })
  })

  test('serves valid HTML with photos: the vehicle page, /inventory and the sitemap name them', async ({ server }) => {
    const validator = new HtmlValidate({ extends: ['html-validate:standard'] })
    for (const path of [`/vehicle/${slug}`, '/inventory']) {
      const html = await (await fetch(`${server.url}${path}`)).text()
      expect(html).toMatch(/<picture><source type="image\/avif"/)
      const report = await validator.validateString(html, path)
      expect(report.results.flatMap((r) => r.messages.map((m) => `${path}:${m.line} ${m.ruleId}: ${m.message}`))).toEqual([])
    }
    const page = await (await fetch(`${server.url}/vehicle/${slug}`)).text()
    expect(page).toMatch(/<meta property="og:image" content="http:\/\/[^"]+\/photos\/[0-9a-f]{32}-1200\.jpg">/)
    expect(page.match(/property="og:image"/g)).toHaveLength(3)
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text()
    expect(sitemap).toContain('xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"')
    expect(sitemap.match(new RegExp(`/vehicle/${slug}</loc>((?:<image:image>.*?</image:image>)*)</url>`))?.[1]?.match(/<image:loc>/g)).toHaveLength(3)
  })

  test('puts the cover on the inventory card, and keeps the drawings of carts without photos', async ({ page, server }) => {
    await visitHydrated(page, `${server.url}/inventory`)
    const card = page.locator('.gc-card', { hasText: '2025 Denago EV Rover XL' }).first()
    await expect(card.locator('picture source[type="image/avif"]')).toHaveAttribute('srcset', /-240\.avif 240w, .*-1600\.avif 1600w$/)
    const drawing = page.locator('.gc-card', { hasText: '2025 Evolution D6 Max GT4' }).first()
    await expect(drawing.locator('img')).toHaveAttribute('src', '/images/carts/2025-evolution-d6-max-gt4.svg')
    await expect(drawing.locator('picture')).toHaveCount(0)
  })
})

test.describe('photos on a partner page', () => {
  test('<gc-vehicle-detail> shows the same gallery, its files from the dealer', async ({ page, server, partner, problems, axe }) => {
    await page.goto(partner.write(`<gc-vehicle-detail api-base="${server.url}" slug="${slug}"></gc-vehicle-detail>`))
    await addLoader(page, server.url)
    await expect(page.locator('gc-vehicle-detail .gc-gallery__stage img')).toHaveCount(1)
    const state = () => galleryState(page, 'gc-vehicle-detail')
    await expect.poll(async () => (await state()).src).toMatch(new RegExp(`^${server.url}/photos/[0-9a-f]{32}-\\d+\\.avif$`))
    const count = page.locator('gc-vehicle-detail .gc-gallery__count')
    await expect(count).toHaveText('Photo 1 of 3')
    await page.locator('gc-vehicle-detail').getByRole('button', { name: 'Next photo' }).click()
    await expect(count).toHaveText('Photo 2 of 3')
    await page.locator('gc-vehicle-detail .gc-gallery__thumb').nth(2).click()
    await expect.poll(async () => (await state()).alt).toBe('Rear flip seat folded flat')
    expect(await axe(page, { include: 'gc-vehicle-detail' })).toEqual([])
    expect(problems).toEqual([])
  })
})
