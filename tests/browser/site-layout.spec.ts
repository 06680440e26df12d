import type { Page } from '@playwright/test'
import { pageTypes } from '../support/page-types.ts'
import { desktop, expect, phone, sidewaysScroll, test, visitHydrated } from './fixtures.ts'

/**
 * What visitors tripped over (issue #14): things only a browser's layout shows, measured at
 * the widths people use, from the smallest phones (320 px) to a laptop. And every page type at
 * 320 px, 390 px and 1280 px: one visit of each, checked for all that is asked of it at that width.
 */
const smallest = { width: 320, height: 640 }

/** The pages axe checks at each width as well as their layout. */
const axeAt = new Map<number, readonly string[]>([
  [smallest.width, ['/', '/rentals/cape-may-county-golf-cart-rentals', '/vehicle/2025-evolution-d5-maverick-2-2', '/contact', '/services/request']],
  // Every page type at a desk (was tests/browser/site.test.ts's "axe finds nothing on … at desktop width").
  [desktop.width, pageTypes],
])

type Box = { left: number; right: number; top: number; bottom: number; width: number; height: number }
const box = (page: Page, selector: string): Promise<Box> =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const { left, right, top, bottom, width, height } = el.getBoundingClientRect()
      return { left, right, top, bottom, width, height }
    })

test.describe('every page type at 320, 390 and 1280 px', () => {
  test.use({ viewport: smallest })

  for (const path of pageTypes) {
    const axeWidths = [smallest, phone, desktop].filter((v) => axeAt.get(v.width)?.includes(path)).map((v) => v.width)
    test(`${path} never scrolls sideways${axeWidths.length ? `, and axe finds nothing at ${axeWidths.join(' and ')} px` : ''}`, async ({ page, server, axe }) => {
      // One load, resized (as the header test below): the site's layout is its CSS alone, so a page
      // resized to a width lays out as one loaded at it. A full load per width cost three times the
      // CPU for the same answers.
      await visitHydrated(page, `${server.url}${path}`)
      for (const viewport of [smallest, phone, desktop]) {
        await test.step(`at ${viewport.width} px`, async () => {
          await page.setViewportSize(viewport)
          await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(viewport.width)
          expect(await sidewaysScroll(page)).toBe(0)
          if (axeWidths.includes(viewport.width)) expect(await axe()).toEqual([])
        })
      }
    })
  }
})

test.describe('the site at every width', () => {
  test.use({ viewport: { width: 320, height: 700 } })

  test('fits the header on one row at every width from 320 to 1280 px, the business name whole', async ({ page, server }) => {
    // One load, resized: the site's layout is its CSS alone (no script of the site reads the width),
    // so a page resized to a width lays out as one loaded at it.
    await visitHydrated(page, `${server.url}/`)
    for (const width of [320, 340, 360, 375, 390, 414, 480, 640, 800, 1000, 1100, 1280]) {
      await test.step(`at ${width} px`, async () => {
        await page.setViewportSize({ width, height: 700 })
        const header = await page.evaluate(() => {
          const bar = document.querySelector('.site-header__bar')!.getBoundingClientRect()
          // The name's own text, wherever it is painted, not the box it may overflow.
          const name = document.querySelector<HTMLElement>('.site-header__brand span')!
          const text = document.createRange()
          text.selectNodeContents(name)
          const box = (r: DOMRect, label: string) => ({ name: label, left: r.left, right: r.right, top: r.top, bottom: r.bottom })
          const items = [...document.querySelectorAll<HTMLElement>('.site-header__bar > *, .site-header__actions > *')]
            .filter((el) => !el.classList.contains('site-header__actions') && el.offsetWidth > 0)
            .map((el) => (el.classList.contains('site-header__brand') ? box(text.getBoundingClientRect(), 'business name') : box(el.getBoundingClientRect(), el.className)))
            .sort((a, b) => a.left - b.left)
          return { bar: { top: bar.top, bottom: bar.bottom }, nameShown: name.offsetWidth > 0 && name.textContent === 'Jersey Cart Co.', items, viewport: window.innerWidth }
        })
        expect(header.viewport).toBe(width)
        expect(header.nameShown).toBe(true)
        expect(header.items.map((i) => i.name)).toContain('business name')
        expect(header.bar.bottom - header.bar.top).toBeLessThanOrEqual(72)
        for (const [i, item] of header.items.entries()) {
          expect(item.left).toBeGreaterThanOrEqual(8)
          expect(item.right).toBeLessThanOrEqual(header.viewport - 8)
          expect(item.top).toBeGreaterThanOrEqual(header.bar.top)
          expect(item.bottom).toBeLessThanOrEqual(header.bar.bottom)
          // Nothing touches its neighbour: the name least of all.
          const next = header.items[i + 1]
          if (next) expect({ between: [item.name, next.name], gap: next.left - item.right >= 8 }).toMatchObject({ gap: true })
        }
      })
    }
  })

  for (const viewport of [phone, desktop]) {
    test.describe(`at ${viewport.width} px`, () => {
      test.use({ viewport })

      test('clamps every cart description to three lines', async ({ page, server }) => {
        for (const path of ['/inventory', '/']) {
          await visitHydrated(page, `${server.url}${path}`)
          const descriptions = await page.locator('.gc-card__description').evaluateAll((els) =>
            els.map((el) => ({ text: el.textContent, height: el.getBoundingClientRect().height, line: parseFloat(getComputedStyle(el).lineHeight) })),
          )
          expect(descriptions.length).toBeGreaterThan(2)
          for (const d of descriptions) expect({ text: d.text, fits: d.height <= 3 * d.line + 1 }).toEqual({ text: d.text, fits: true })
        }
      })
    })
  }

  test.describe('at phone width', () => {
    test.use({ viewport: phone })

    test('shows the label of the first invalid field below the sticky header', async ({ page, server }) => {
      await visitHydrated(page, `${server.url}/contact`)
      // The visitor has scrolled on a little: the first input shows, its label is under the header.
      await page.getByLabel('First Name').evaluate((input) => window.scrollBy(0, input.getBoundingClientRect().top - 90))
      expect((await box(page, 'label:has-text("First Name")')).top).toBeLessThan((await box(page, '.site-header')).bottom)
      await page.getByRole('button', { name: 'Send Message' }).click()
      await expect(page.locator('[name="firstName"]:focus')).toHaveCount(1)
      // Scrolled into place: the label comes to rest below the header.
      await expect.poll(async () => (await box(page, 'label:has-text("First Name")')).top - (await box(page, '.site-header')).bottom).toBeGreaterThanOrEqual(0)
      const label = await box(page, 'label:has-text("First Name")')
      expect(label.bottom).toBeLessThanOrEqual(phone.height)
    })

    test('keeps breadcrumb separators with their neighbours, and offers Back to Inventory', async ({ page, server }) => {
      await visitHydrated(page, `${server.url}/vehicle/2025-evolution-d5-maverick-2-2`)
      const lineStarts = await page.locator('.gc-breadcrumb').evaluate((nav) => {
        const left = nav.querySelector('ol')!.getBoundingClientRect().left
        // Each item after the first begins with its "/": it must never begin a line.
        return [...nav.querySelectorAll('li + li')].map((li) => Math.round(li.getClientRects()[0]!.left - left))
      })
      for (const start of lineStarts) expect(start).toBeGreaterThan(0)
      const back = page.getByRole('link', { name: 'Back to Inventory' })
      await expect(back).toHaveAttribute('href', '/inventory')
      await expect(back).toBeVisible()
    })
  })

  for (const [path, card, title, viewport] of [
    ['/vehicle/2025-evolution-d5-maverick-2-2', '.gc-feature', '.gc-feature__title', desktop],
    ['/vehicle/2025-evolution-d5-maverick-2-2', '.gc-highlight', '.gc-highlight__label', phone],
    ['/', '.info-card', '.info-card__title', desktop],
    ['/cape-may-county-golf-carts', '.info-card', '.info-card__title', desktop],
    ['/rentals', '.info-card', '.info-card__title', desktop],
  ] as const) {
    test.describe(`at ${viewport.width} px`, () => {
      test.use({ viewport })

      test(`lines up the titles of the cards in a row on ${path} (${card})`, async ({ page, server }) => {
        await visitHydrated(page, `${server.url}${path}`)
        const rows = await page.evaluate(
          ([card, title]) => {
            const byRow = new Map<number, number[]>()
            for (const el of document.querySelectorAll(card)) {
              const top = Math.round(el.getBoundingClientRect().top)
              const offset = el.querySelector(title)!.getBoundingClientRect().top - top
              byRow.set(top, [...(byRow.get(top) ?? []), Math.round(offset)])
            }
            return [...byRow.values()]
          },
          [card, title] as const,
        )
        expect(rows.some((row) => row.length > 1)).toBe(true)
        for (const offsets of rows) expect(new Set(offsets).size).toBe(1)
      })
    })
  }

  for (const [width, least] of [
    [1280, 3],
    [1600, 3],
    [390, 1],
  ] as const) {
    test.describe(`at ${width} px`, () => {
      test.use({ viewport: { width, height: 900 } })

      test(`shows at least ${least} carts a row on /inventory`, async ({ page, server }) => {
        await visitHydrated(page, `${server.url}/inventory`)
        const tops = await page.locator('.gc-inventory__results .gc-card').evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().top)))
        const firstRow = tops.filter((top) => top === tops[0]).length
        expect(firstRow).toBeGreaterThanOrEqual(least)
        // Cards stay wide enough to read: never more than four a row.
        expect(firstRow).toBeLessThanOrEqual(4)
      })
    })
  }

  test.describe('on a wide screen', () => {
    test.use({ viewport: desktop })

    test('puts the showrooms beside the map, and under it on a phone', async ({ page, server }) => {
      await visitHydrated(page, `${server.url}/`)
      const map = await box(page, '.nj-map')
      const locations = await box(page, '.card-grid--locations')
      expect(locations.left).toBeGreaterThanOrEqual(map.right)
      expect(locations.top).toBeLessThan(map.bottom)
      // The same page at a phone's width (the layout is the CSS alone).
      await page.setViewportSize(phone)
      await page.evaluate(() => window.scrollTo(0, 0))
      expect((await box(page, '.card-grid--locations')).top).toBeGreaterThan((await box(page, '.nj-map')).bottom)
    })

    for (const path of ['/rentals', '/rentals/cape-may-county-golf-cart-rentals', '/cape-may-county-golf-carts']) {
      test(`fills the right half of the hero on ${path}`, async ({ page, server }) => {
        await visitHydrated(page, `${server.url}${path}`)
        // Something substantial starts near the middle: the text column alone leaves it empty.
        const filled = await page.locator('.hero .container').evaluate((container) => {
          const { left, width } = container.getBoundingClientRect()
          return [...container.querySelectorAll('*')].some((el) => {
            const r = el.getBoundingClientRect()
            return r.left >= left + width * 0.4 && r.height >= 150 && r.width >= 300
          })
        })
        expect(filled).toBe(true)
      })
    }
  })
})
